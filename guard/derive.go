package guard

import (
	"net/url"
	"path/filepath"
	"sort"
	"strings"
)

// CallFacts are what vouch derives from a call beyond its literal fields:
// the canonical paths it touches, the programs it runs and the hosts it
// reaches. Policies match these, not the raw strings, so `cat ./x/../.env`
// is a read of .env.
type CallFacts struct {
	Cwd, Home string
	// Paths is every canonical path the call touches (reads, writes,
	// deletes), sorted.
	Paths   []string
	Reads   []string
	Writes  []string
	Deletes []string
	// Commands are the program names of every simple command a shell
	// call runs, nested ones included, sorted and unique.
	Commands []string
	// Domains are the hosts the call reaches.
	Domains []string
	// ShellError is set when a shell command does not parse.
	ShellError string
	// Dynamic is set when some word of a shell command is not static.
	Dynamic bool
}

// pathKeys are the argument names that hold a path, across harnesses
// (Claude Code file_path/notebook_path/path, Gemini absolute_path, ...).
var pathKeys = []string{"absolute_path", "destination", "dir", "directory", "dst", "file_path", "filePath", "folder", "notebook_path", "path", "source", "src", "target", "target_file"}

// writeTools are tools whose path argument is written.
var writeTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true,
	"write_file": true, "replace": true, "edit_file": true, "create_file": true, "str_replace_editor": true, "apply_patch": true}

// shellTools run their command argument through a shell.
var shellTools = map[string]bool{"Bash": true, "Shell": true, "run_shell_command": true, "shell": true, "bash": true, "exec_command": true, "local_shell": true}

// urlKeys hold a URL a tool fetches.
var urlKeys = []string{"url", "uri", "endpoint"}

// Derive computes a call's facts. cwd defaults to the call's cwd.
func Derive(c *Call, home string) *CallFacts {
	f := &CallFacts{Cwd: c.Cwd, Home: home}
	if f.Cwd == "" || !filepath.IsAbs(f.Cwd) {
		f.Cwd = "/"
	}
	for _, k := range pathKeys {
		s, ok := c.Args[k].(string)
		if !ok || s == "" {
			continue
		}
		p, err := canonical(s, f.Cwd, home)
		if err != nil {
			// A path that cannot be made canonical (NUL byte) is kept as
			// a fact that matches no allowed directory.
			p = "\x00invalid:" + s
		}
		if writeTools[c.Tool] {
			f.Writes = append(f.Writes, p)
		} else {
			f.Reads = append(f.Reads, p)
		}
	}
	for _, k := range urlKeys {
		if s, ok := c.Args[k].(string); ok {
			if h := hostOf(s); h != "" {
				f.Domains = append(f.Domains, h)
			}
		}
	}
	if cmd, ok := c.Args["command"].(string); ok && (shellTools[c.Tool] || strings.HasPrefix(c.Tool, "mcp__") == false && cmd != "") {
		deriveShell(f, cmd)
	}
	f.Reads = uniq(f.Reads)
	f.Writes = uniq(f.Writes)
	f.Deletes = uniq(f.Deletes)
	f.Paths = uniq(append(append(append([]string{}, f.Reads...), f.Writes...), f.Deletes...))
	f.Commands = uniq(f.Commands)
	f.Domains = uniq(f.Domains)
	return f
}

func hostOf(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

func uniq(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	sort.Strings(s)
	out := s[:1]
	for _, x := range s[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

// canonicalDir makes a sandbox directory canonical against the call's
// working directory.
func canonicalDir(d string, f *CallFacts) string {
	cwd, home := "/", ""
	if f != nil {
		cwd, home = f.Cwd, f.Home
	}
	p, err := canonical(d, cwd, home)
	if err != nil {
		return d
	}
	return p
}
