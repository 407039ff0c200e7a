// synref prints, for each .rs file named on stdin, the use-tree leaves,
// file module declarations and extern crates that syn finds, one per line:
// file, line, kind, spec (tab-separated), in vouch's conventions: a self or
// super path inside inline modules is rewritten relative to the file's
// module, and `mod x;` inside inline `mod a {}` is spec "a::x".
use std::io::BufRead;
use syn::visit::Visit;

struct V<'a> {
    file: &'a str,
    inline: Vec<String>,
}

impl<'a> V<'a> {
    fn norm(&self, path: &[String]) -> String {
        let d = self.inline.len();
        if d > 0 && !path.is_empty() && (path[0] == "self" || path[0] == "super") {
            let k = path.iter().take_while(|s| *s == "super").count();
            let rest: Vec<String> = if k == 0 { path[1..].to_vec() } else { path[k..].to_vec() };
            let mut out: Vec<String> = Vec::new();
            if k <= d {
                out.push("self".into());
                out.extend(self.inline[..d - k].iter().cloned());
            } else {
                for _ in 0..(k - d) {
                    out.push("super".into());
                }
            }
            out.extend(rest);
            return out.join("::");
        }
        path.join("::")
    }

    fn leaves(&self, t: &syn::UseTree, path: &mut Vec<String>) {
        let id = |i: &syn::Ident| i.to_string().trim_start_matches("r#").to_string();
        match t {
            syn::UseTree::Path(p) => {
                path.push(id(&p.ident));
                self.leaves(&p.tree, path);
                path.pop();
            }
            syn::UseTree::Name(syn::UseName { ident }) | syn::UseTree::Rename(syn::UseRename { ident, .. }) => {
                let name = id(ident);
                let mut q = path.clone();
                if name != "self" || q.is_empty() {
                    q.push(name);
                }
                println!("{}\t{}\tuse\t{}", self.file, ident.span().start().line, self.norm(&q));
            }
            syn::UseTree::Glob(g) => {
                println!("{}\t{}\tuse\t{}", self.file, g.star_token.spans[0].start().line, self.norm(path));
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.leaves(t, path);
                }
            }
        }
    }
}

impl<'ast, 'a> Visit<'ast> for V<'a> {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut path = Vec::new();
        if u.leading_colon.is_some() {
            path.push(String::new());
        }
        self.leaves(&u.tree, &mut path);
    }
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let name = m.ident.to_string().trim_start_matches("r#").to_string();
        if m.content.is_none() {
            let mut spec = self.inline.clone();
            spec.push(name.clone());
            let mut spec = spec.join("::");
            for a in &m.attrs {
                if let Ok(syn::Meta::NameValue(nv)) = a.parse_meta() {
                    if nv.path.is_ident("path") {
                        if let syn::Lit::Str(s) = nv.lit {
                            spec = s.value();
                        }
                    }
                }
            }
            println!("{}\t{}\tmod\t{}", self.file, m.ident.span().start().line, spec);
        } else {
            self.inline.push(name);
            syn::visit::visit_item_mod(self, m);
            self.inline.pop();
        }
    }
    fn visit_item_extern_crate(&mut self, e: &'ast syn::ItemExternCrate) {
        println!("{}\t{}\textern_crate\t{}", self.file, e.ident.span().start().line, e.ident);
    }
}

fn main() {
    for line in std::io::stdin().lock().lines() {
        let f = line.unwrap();
        let src = match std::fs::read_to_string(&f) {
            Ok(s) => s,
            Err(_) => continue,
        };
        match syn::parse_file(&src) {
            Ok(file) => V { file: &f, inline: vec![] }.visit_file(&file),
            Err(e) => eprintln!("PARSEFAIL\t{}\t{}", f, e),
        }
    }
}
