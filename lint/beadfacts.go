package lint

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/internal/lazyre"
	"github.com/vouch-dev/vouch/symbols"
)

// SourceFacts are what Beadloom's check and module_coverage rules read
// from the source files themselves: each file's count of top-level
// symbols, and which files carry a feature or component annotation.
type SourceFacts struct {
	Symbols map[string]int
	Covered map[string]bool
}

// needsSource reports whether some rule reads SourceFacts.
func needsSource(m *arch.Model) bool {
	return slices.ContainsFunc(m.Rules, func(r arch.Rule) bool {
		return r.Type == arch.Check || r.Type == arch.ModuleCoverage
	})
}

// readSourceFacts reads every file once for its symbols and annotations;
// an unreadable file has neither (the import scan already warned).
func readSourceFacts(root string, files []string) *SourceFacts {
	sf := &SourceFacts{Symbols: map[string]int{}, Covered: map[string]bool{}}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			continue
		}
		sf.Symbols[f] = symbols.Count(f, data)
		if bytes.Contains(data, []byte("beadloom:")) && coversModule(data) {
			sf.Covered[f] = true
		}
	}
	return sf
}

var annotKey = lazyre.New(`(\w+)=\S+`)

// coversModule reports whether a file's `beadloom:` annotations carry a
// feature or component key, which makes it a tracked module for
// module_coverage.
func coversModule(data []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		i := bytes.Index(line, []byte("beadloom:"))
		if i < 0 {
			continue
		}
		for _, m := range annotKey().FindAllSubmatch(line[i+len("beadloom:"):], -1) {
			if k := string(m[1]); k == "feature" || k == "component" {
				return true
			}
		}
	}
	return false
}

// fnmatch compiles a Python fnmatch pattern (Beadloom's exempt globs): *
// matches any text, / included; ? one character; [seq] and [!seq] a class.
func fnmatch(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := strings.IndexByte(p[i+1:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := p[i+1 : i+1+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += j + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return regexp.MustCompile(`^$.`) // matches nothing
	}
	return re
}

// beadFacts writes the facts Beadloom's check and module_coverage rules
// are decided from: which node owns each file and how many symbols each
// file holds (the engine sums them per node), and, for module_coverage,
// the files under its source root, the nodes whose source covers them,
// annotations and exempt globs (the engine decides coverage).
func beadFacts(add func(ast.Atom), m *arch.Model, files []string, sf *SourceFacts, own fileOwners) {
	if sf == nil || !needsSource(m) {
		return
	}
	isFile := map[string]bool{}
	for _, f := range files {
		isFile[f] = true
	}
	for _, n := range m.Nodes {
		if n.Source != "" {
			add(atom("node_has_source", str(n.ID)))
			if isFile[n.Source] {
				add(atom("source_file", str(n.Source)))
			}
		}
	}
	// Each node's own files and their symbols are totalled here rather
	// than by a Mangle aggregation: v0.4.0 groups rows by a 32-bit hash
	// of the key without comparing keys, so two node names that collide
	// (a working tree can be given such directory names) would share one
	// total and the other node's check would silently vanish.
	type size struct{ files, symbols int64 }
	sizes := map[string]*size{}
	for _, f := range files {
		add(atom("file_symbols", str(f), num(int64(sf.Symbols[f]))))
		if n, ok := own.owner(f); ok {
			s := sizes[n]
			if s == nil {
				s = &size{}
				sizes[n] = s
			}
			s.files++
			s.symbols += int64(sf.Symbols[f])
		}
	}
	for _, n := range slices.Sorted(maps.Keys(sizes)) {
		add(atom("node_files", str(n), num(sizes[n].files)))
		add(atom("node_symbols", str(n), num(sizes[n].symbols)))
	}
	for i := range m.Rules {
		r := &m.Rules[i]
		R := str(r.Name)
		switch r.Type {
		case arch.Check:
			mf := r.Name + "#for"
			addMatcher(add, R, mf, r.From, nodeIDsOf(m))
			add(atom("check_rule", R, str(mf)))
			if r.MaxSymbols >= 0 {
				add(atom("check_max_symbols", R, num(int64(r.MaxSymbols))))
			}
			if r.MaxFiles >= 0 {
				add(atom("check_max_files", R, num(int64(r.MaxFiles))))
			}
		case arch.ModuleCoverage:
			add(atom("mc_rule", R))
			add(atom("mc_min", R, num(int64(r.MinSymbols))))
			root := arch.CleanSource(r.SourceRoot)
			var ex []*regexp.Regexp
			for _, g := range r.ExemptGlobs {
				ex = append(ex, fnmatch(g))
			}
			// Directory sources, by node, for the files under the root.
			dirs := map[string][]string{}
			for _, n := range m.Nodes {
				if n.Source != "" && !isFile[n.Source] {
					dirs[n.Source] = append(dirs[n.Source], n.ID)
				}
				if n.Source == root {
					add(atom("mc_root_node", str(n.ID), R))
				}
			}
			for _, f := range files {
				// Beadloom selects files by a plain prefix of the root as
				// written (SQL LIKE 'root%').
				if !strings.HasPrefix(f, r.SourceRoot) && !(root != "" && strings.HasPrefix(f, root+"/")) {
					continue
				}
				F := str(f)
				add(atom("mc_file", F, R))
				if path.Ext(f) == ".py" {
					add(atom("py_file", F))
				}
				if sf.Covered[f] {
					add(atom("annot_cover", F))
				}
				if anyMatch(ex, f) {
					add(atom("mc_exempt", F, R))
				}
				for d := path.Dir(f); ; d = path.Dir(d) {
					for _, n := range dirs[d] {
						add(atom("under_dir_source", F, str(n)))
					}
					if d == "." || d == "/" {
						break
					}
				}
			}
		}
	}
}

func nodeIDsOf(m *arch.Model) []string {
	out := make([]string, 0, len(m.Nodes))
	for _, n := range m.Nodes {
		out = append(out, n.ID)
	}
	return out
}
