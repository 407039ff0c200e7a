package repofacts

import (
	"encoding/json"
	"path"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// Ecosystems of dependencies.
const (
	EcoGo     = "go"
	EcoNPM    = "npm"
	EcoPython = "python"
	EcoCargo  = "cargo"
)

// isManifest reports whether p is a dependency manifest vouch reads.
func isManifest(p string) bool {
	base := path.Base(p)
	switch base {
	case "go.mod", "package.json", "pyproject.toml", "Cargo.toml", "setup.cfg":
		return true
	}
	return strings.HasPrefix(base, "requirements") && strings.HasSuffix(base, ".txt")
}

// manifestDeps reads the dependencies a manifest declares, keyed by
// ecosystem and name. A manifest that does not parse declares nothing,
// and ok is false.
func manifestDeps(file string, data []byte) (deps map[string]Dependency, ok bool) {
	deps = map[string]Dependency{}
	add := func(eco, name, version string) {
		name = strings.TrimSpace(name)
		if name == "" {
			return
		}
		if eco == EcoPython {
			name = normalizePython(name)
		}
		if name == "" {
			return
		}
		deps[eco+"\x00"+name] = Dependency{Ecosystem: eco, Name: name, Version: strings.TrimSpace(version), Source: file}
	}
	base := path.Base(file)
	switch {
	case base == "go.mod":
		mf, err := modfile.ParseLax(file, data, nil)
		if err != nil {
			return deps, false
		}
		for _, r := range mf.Require {
			add(EcoGo, r.Mod.Path, r.Mod.Version)
		}
	case base == "package.json":
		var pj map[string]json.RawMessage
		if err := json.Unmarshal(data, &pj); err != nil {
			return deps, false
		}
		for _, k := range []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies"} {
			var m map[string]any
			if raw, has := pj[k]; !has || json.Unmarshal(raw, &m) != nil {
				continue
			}
			for n, v := range m {
				s, _ := v.(string)
				add(EcoNPM, n, s)
			}
		}
	case strings.HasPrefix(base, "requirements"):
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(stripHash(line))
			if line == "" || strings.HasPrefix(line, "-") {
				continue // options such as -r other.txt, -e ., --index-url
			}
			n, v := splitRequirement(line)
			add(EcoPython, n, v)
		}
	case base == "pyproject.toml":
		t := parseTOML(string(data))
		for _, key := range []string{"project.dependencies"} {
			for _, s := range t.arrays[key] {
				n, v := splitRequirement(s)
				add(EcoPython, n, v)
			}
		}
		for key, vals := range t.arrays {
			if strings.HasPrefix(key, "project.optional-dependencies.") {
				for _, s := range vals {
					n, v := splitRequirement(s)
					add(EcoPython, n, v)
				}
			}
		}
		for _, kv := range t.tables["tool.poetry.dependencies"] {
			if kv.key != "python" {
				add(EcoPython, kv.key, kv.val)
			}
		}
		for sec, kvs := range t.tables {
			if strings.HasPrefix(sec, "tool.poetry.group.") && strings.HasSuffix(sec, ".dependencies") || sec == "tool.poetry.dev-dependencies" {
				for _, kv := range kvs {
					add(EcoPython, kv.key, kv.val)
				}
			}
		}
	case base == "setup.cfg":
		// install_requires in [options] is a dangling list; read it
		// line by line.
		in := false
		for _, line := range strings.Split(string(data), "\n") {
			t := strings.TrimSpace(stripHash(line))
			if strings.HasPrefix(t, "[") {
				in = false
				continue
			}
			if k, v, found := strings.Cut(t, "="); found && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "\t") {
				in = strings.TrimSpace(k) == "install_requires"
				t = strings.TrimSpace(v)
			} else if !in {
				continue
			}
			if in && t != "" {
				n, v := splitRequirement(t)
				add(EcoPython, n, v)
			}
		}
	case base == "Cargo.toml":
		t := parseTOML(string(data))
		for sec, kvs := range t.tables {
			last := sec[strings.LastIndex(sec, ".")+1:]
			if last != "dependencies" && last != "dev-dependencies" && last != "build-dependencies" {
				continue
			}
			for _, kv := range kvs {
				add(EcoCargo, kv.key, kv.val)
			}
		}
		// [dependencies.serde] style sections name one crate each.
		for sec := range t.tables {
			for _, p := range []string{"dependencies.", "dev-dependencies.", "build-dependencies."} {
				if i := strings.Index(sec, p); i >= 0 && (i == 0 || sec[i-1] == '.') {
					add(EcoCargo, sec[i+len(p):], "")
				}
			}
		}
	}
	return deps, true
}

func stripHash(s string) string {
	if i := strings.Index(s, "#"); i >= 0 {
		return s[:i]
	}
	return s
}

// splitRequirement splits a PEP 508 requirement into its name and the
// rest (version specifiers, extras, markers).
func splitRequirement(s string) (string, string) {
	s = strings.TrimSpace(s)
	i := strings.IndexAny(s, "[<>=!~;@ (")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i:])
}

// normalizePython spells a distribution name as PEP 503 does: lower case,
// runs of -, _ and . as one -.
func normalizePython(n string) string {
	n = strings.ToLower(n)
	var b strings.Builder
	dash := false
	for _, r := range n {
		if r == '-' || r == '_' || r == '.' {
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteRune(r)
	}
	return b.String()
}

// toml is the little of a TOML document that dependency lists need:
// key = value pairs per table, and string arrays by dotted key.
type toml struct {
	tables map[string][]tomlKV
	arrays map[string][]string
}

type tomlKV struct{ key, val string }

// parseTOML reads tables, key = value lines and (multi-line) string
// arrays. It is deliberately lenient: anything it does not understand is
// skipped, so an exotic manifest declares fewer dependencies, never
// invented ones.
func parseTOML(src string) toml {
	t := toml{tables: map[string][]tomlKV{}, arrays: map[string][]string{}}
	sec := ""
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(tomlComment(lines[i]))
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			sec = strings.Trim(line, "[] ")
			sec = strings.ReplaceAll(sec, "\"", "")
			sec = strings.ReplaceAll(sec, " ", "")
			if _, ok := t.tables[sec]; !ok {
				t.tables[sec] = nil
			}
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k = strings.Trim(strings.TrimSpace(k), "\"'")
		v = strings.TrimSpace(v)
		if strings.HasPrefix(v, "[") {
			for !bracketClosed(v) && i+1 < len(lines) {
				i++
				v += " " + strings.TrimSpace(tomlComment(lines[i]))
			}
			key := k
			if sec != "" {
				key = sec + "." + k
			}
			t.arrays[key] = tomlStrings(v)
		}
		t.tables[sec] = append(t.tables[sec], tomlKV{k, tomlScalar(v)})
	}
	for k := range t.tables {
		slices.SortFunc(t.tables[k], func(a, b tomlKV) int { return strings.Compare(a.key, b.key) })
	}
	return t
}

// tomlComment drops a # comment outside strings.
func tomlComment(s string) string {
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0 && c == '\\':
			i++
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case q == 0 && c == '#':
			return s[:i]
		}
	}
	return s
}

func bracketClosed(v string) bool {
	depth := 0
	var q byte
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case q != 0 && c == '\\':
			i++
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case q == 0 && c == '[':
			depth++
		case q == 0 && c == ']':
			depth--
		}
	}
	return depth <= 0
}

// tomlStrings returns the quoted strings of an array.
func tomlStrings(v string) []string {
	var out []string
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '"' && c != '\'' {
			continue
		}
		j := i + 1
		var b strings.Builder
		for ; j < len(v) && v[j] != c; j++ {
			if c == '"' && v[j] == '\\' && j+1 < len(v) {
				j++
			}
			b.WriteByte(v[j])
		}
		out = append(out, b.String())
		i = j
	}
	return out
}

// tomlScalar is a value's text: a string without quotes, a table's
// version = "..." field, or the raw text.
func tomlScalar(v string) string {
	if strings.HasPrefix(v, "\"") || strings.HasPrefix(v, "'") {
		if s := tomlStrings(v); len(s) > 0 {
			return s[0]
		}
	}
	if strings.HasPrefix(v, "{") {
		if i := strings.Index(v, "version"); i >= 0 {
			if s := tomlStrings(v[i:]); len(s) > 0 {
				return s[0]
			}
		}
		return ""
	}
	return v
}
