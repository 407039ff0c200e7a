package guard

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// canonical is the canonical absolute form of p (see package canonpath,
// which replaces this once it lands).
func canonical(p, cwd, home string) (string, error) {
	if p == "" || strings.ContainsRune(p, 0) {
		return "", errors.New("empty path or NUL byte")
	}
	if dec, err := url.PathUnescape(p); err == nil {
		p = dec
	}
	if strings.ContainsRune(p, 0) {
		return "", errors.New("NUL byte")
	}
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		p = filepath.Join(home, p[1:])
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	// Resolve symlinks for the longest existing prefix.
	rest := ""
	cur := p
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Clean(filepath.Join(r, rest)), nil
		}
		if _, err := os.Lstat(cur); err == nil {
			return p, nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == dir || strings.HasPrefix(path, dir+"/")
}

// deriveShell splits a command line into simple commands on the shell's
// list and pipe operators and records each program name.
func deriveShell(f *CallFacts, cmd string) {
	r := strings.NewReplacer("&&", ";", "||", ";", "|", ";", "&", ";", "\n", ";", "(", ";", ")", ";", "`", ";", "$(", ";")
	for _, seg := range strings.Split(r.Replace(cmd), ";") {
		words := strings.Fields(seg)
		for len(words) > 0 && (strings.Contains(words[0], "=") || words[0] == "sudo" || words[0] == "env" || words[0] == "nohup" || words[0] == "time" || words[0] == "command" || words[0] == "exec") {
			words = words[1:]
		}
		if len(words) > 0 {
			f.Commands = append(f.Commands, filepath.Base(strings.Trim(words[0], `"'`)))
		}
	}
}
