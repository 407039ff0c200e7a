// Package scaffold sets a repository up for vouch, as `vouch init` does:
// vouch.yaml, a commented rulespec, a .gitignore that keeps vouch's outputs
// out of git, and, when asked, the hooks that run the gate (a Claude Code
// Stop hook merged into .claude/settings.json, a git pre-commit hook) and a
// GitHub Actions job.
//
// Everything is planned before anything is written, so a settings file
// that cannot be merged leaves the repository untouched.
package scaffold

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/internal/atomicfile"
)

// Options say where and what to scaffold.
type Options struct {
	// Root is the repository root.
	Root string
	// Write installs the hooks and the CI job too; without it they are
	// only printed.
	Write bool
	// Force overwrites files that exist (never .claude/settings.json,
	// which is merged into).
	Force bool
	// Binary is the vouch the hooks run, as an absolute path: a hook whose
	// command is not found exits 127, which Claude Code treats as a
	// non-blocking error, so the gate would silently not run.
	Binary string
	// Daemon makes the guard's hooks run vouch-hook (installed beside
	// Binary) instead of vouch-guard or vouch guard.
	Daemon bool
	// InstallRef is the version or commit CI installs; "" installs the
	// main branch, and the result says to pin it.
	InstallRef string
}

// Action is what happened to one file.
type Action int

// What init did with a file.
const (
	// Wrote: the file did not exist (or --force) and was written.
	Wrote Action = iota
	// Kept: the file exists and was left alone.
	Kept
	// Merged: the vouch hook was added to an existing file.
	Merged
	// Installed: the file already runs the vouch gate.
	Installed
	// NotInstalled: the file exists without the vouch hook and was left
	// alone; Snippet is what to merge by hand.
	NotInstalled
	// Skipped: the file could not be placed; Reason says why and Snippet
	// is what to install by hand.
	Skipped
	// Switched: the file's vouch guard hooks ran the other mode's
	// binary (vouch-hook, or vouch-guard / vouch guard) and now run
	// Command.
	Switched
)

// File is one file init considered.
type File struct {
	// Path is where it goes, as printed: joined to the root, or absolute.
	Path   string
	Action Action
	// Hook marks a hook or CI file.
	Hook bool
	// Snippet is the content to install by hand, for NotInstalled and
	// Skipped.
	Snippet string
	// Reason explains Skipped.
	Reason string
	// Command is what Switched hooks now run.
	Command string
	content []byte
	perm    os.FileMode
}

// Result is everything init did, in order.
type Result struct {
	Files []File
	// Snippets are the hooks and CI job to install by hand when Options
	// had no Write, with where each goes.
	Snippets []Snippet
	// Notes are warnings to print after the files.
	Notes []string
}

// Snippet is a hook or job for the user to install.
type Snippet struct {
	Where, Content string
}

// Run scaffolds the repository at opts.Root.
func Run(opts Options) (*Result, error) {
	if opts.Binary == "" {
		return nil, errors.New("scaffold: no vouch binary path for the hooks")
	}
	res := &Result{}
	ref := opts.InstallRef
	if ref == "" {
		ref = "main"
		res.Notes = append(res.Notes, "this vouch binary does not know its version or commit, so the CI job installs vouch@main; pin a commit there (docs/install.md)")
	}
	stop := ClaudeHook{Event: "Stop", Command: stopCommand(opts.Binary), Timeout: HookTimeout}
	settings, err := ClaudeSnippet(stop)
	if err != nil {
		return nil, err
	}
	withRepo := inWorkTree(opts.Root)
	if !withRepo {
		res.Notes = append(res.Notes, "not a git work tree, so the rulespec leaves out the checks of claims against the work (changed files, removed Go exports, new dependencies); run git init and see docs/repository-facts.md to add them")
	}
	plain := []File{
		{Path: config.FileName, content: []byte(configYAML), perm: 0o644},
		{Path: config.DefaultRulespec, content: []byte(rulespecYAML(withRepo)), perm: 0o644},
		{Path: ".vouch/.gitignore", content: []byte(gitignore), perm: 0o644},
	}
	for _, f := range plain {
		if err := res.plan(opts, f); err != nil {
			return nil, err
		}
	}
	hook := preCommit(opts.Binary)
	ci := workflow(ref)
	if !opts.Write {
		res.Snippets = []Snippet{
			{"Claude Code Stop hook (.claude/settings.json; vouch init --write merges it into an existing file)", settings},
			{"git pre-commit hook (.git/hooks/pre-commit, or pre-commit in git's core.hooksPath; executable)", hook},
			{"GitHub Actions job (.github/workflows/vouch.yml)", ci},
		}
	} else {
		if err := res.planSettings(opts, stop); err != nil {
			return nil, err
		}
		if err := res.plan(opts, File{Path: ".github/workflows/vouch.yml", content: []byte(ci), perm: 0o644, Hook: true}); err != nil {
			return nil, err
		}
		if st, err := os.Stat(filepath.Join(opts.Root, ".git")); err == nil && st.IsDir() {
			p, err := preCommitPath(opts.Root)
			if err != nil {
				res.Files = append(res.Files, File{Path: ".git/hooks/pre-commit", Action: Skipped, Hook: true, Reason: err.Error(), Snippet: hook})
			} else if err := res.plan(opts, File{Path: p, content: []byte(hook), perm: 0o755, Hook: true}); err != nil {
				return nil, err
			}
		} else {
			res.Files = append(res.Files, File{Path: ".git/hooks/pre-commit", Action: Skipped, Hook: true, Reason: "no .git directory at the root", Snippet: hook})
		}
	}
	if tmp := os.TempDir(); strings.HasPrefix(opts.Binary, filepath.Join(tmp, "go-build")) {
		res.Notes = append(res.Notes, fmt.Sprintf("the hooks run %s, a temporary build that go run deletes; install vouch (docs/install.md) and run vouch init again", opts.Binary))
	}
	for i := range res.Files {
		f := &res.Files[i]
		if f.Action != Wrote && f.Action != Merged {
			continue
		}
		if err := atomicfile.Write(f.Path, f.content, f.perm); err != nil {
			return res, fmt.Errorf("write %s: %w", f.Path, err)
		}
	}
	return res, nil
}

// abs is the file's path from the working directory, before plan sets
// Path to it.
func (f *File) abs(root string) string {
	if filepath.IsAbs(f.Path) {
		return f.Path
	}
	return filepath.Join(root, filepath.FromSlash(f.Path))
}

// plan decides what to do with a file init writes whole.
func (r *Result) plan(opts Options, f File) error {
	p := f.abs(opts.Root)
	data, err := os.ReadFile(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.Action = Wrote
	case err != nil:
		return fmt.Errorf("read %s: %w", p, err)
	case opts.Force:
		f.Action = Wrote
	case f.Hook && runsGate(string(data)):
		f.Action = Installed
	case f.Hook:
		f.Action, f.Snippet = NotInstalled, string(f.content)
	default:
		f.Action = Kept
	}
	f.Path = p
	r.Files = append(r.Files, f)
	return nil
}

// planSettings merges the Stop hook into .claude/settings.json.
func (r *Result) planSettings(opts Options, h ClaudeHook) error {
	f := File{Path: filepath.Join(opts.Root, ".claude", "settings.json"), Hook: true, perm: 0o644}
	data, err := os.ReadFile(f.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.Action = Wrote
	case err != nil:
		return fmt.Errorf("read %s: %w", f.Path, err)
	default:
		f.Action = Merged
	}
	out, installed, err := MergeClaudeHook(f.Path, data, h, IsGateCommand)
	if err != nil {
		return err
	}
	if installed {
		f.Action = Installed
	}
	f.content = out
	r.Files = append(r.Files, f)
	return nil
}

// IsGateCommand reports whether a hook command runs `vouch gate`, by
// whatever path: then the gate is already installed there.
func IsGateCommand(command string) bool {
	fields := strings.Fields(command)
	for i := 0; i+1 < len(fields); i++ {
		bin := strings.Trim(fields[i], `'"`)
		if (bin == "vouch" || strings.HasSuffix(bin, "/vouch")) && fields[i+1] == "gate" {
			return true
		}
	}
	return false
}

// runsGate reports whether a hook script or workflow has a line that
// runs vouch gate.
func runsGate(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		if IsGateCommand(l) {
			return true
		}
	}
	return false
}

// WriteText prints what init did, the snippets to install by hand, and
// what to commit so CI can gate the work.
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	kept := 0
	for _, f := range r.Files {
		switch f.Action {
		case Wrote:
			fmt.Fprintf(&b, "wrote %s\n", f.Path)
		case Merged:
			fmt.Fprintf(&b, "merged the vouch Stop hook into %s\n", f.Path)
		case Installed:
			fmt.Fprintf(&b, "%s: the vouch hook is already installed\n", f.Path)
		case Kept:
			fmt.Fprintf(&b, "kept %s: it exists (use --force to overwrite)\n", f.Path)
			kept++
		case NotInstalled:
			fmt.Fprintf(&b, "kept %s: it exists, so the vouch hook is NOT installed there; merge the snippet below by hand (or use --force to overwrite)\n", f.Path)
			kept++
		case Skipped:
			fmt.Fprintf(&b, "the git pre-commit hook is NOT INSTALLED: %s; install the snippet below as the pre-commit hook (executable) in the directory git runs hooks from\n", f.Reason)
		}
	}
	for _, f := range r.Files {
		if f.Action == NotInstalled || f.Action == Skipped {
			fmt.Fprintf(&b, "\nNOT INSTALLED: %s:\n\n%s", f.Path, indent(f.Snippet))
		}
	}
	for _, s := range r.Snippets {
		fmt.Fprintf(&b, "\n%s:\n\n%s", s.Where, indent(s.Content))
	}
	if len(r.Snippets) > 0 {
		b.WriteString("\nInstall them with: vouch init --write\n")
	}
	if kept > 0 {
		fmt.Fprintf(&b, "%s kept unchanged\n", plural(kept, "file"))
	}
	b.WriteString("\nCommit vouch.yaml, analysis/rulespec.yaml and .vouch/.gitignore now, and the agent's\n" +
		".vouch/envelope.yaml with each change: CI runs 'vouch gate' on them. vouch's outputs under\n" +
		".vouch/ (compiled program, trace, receipt, caches) stay out of git.\n")
	for _, f := range r.Files {
		if strings.HasSuffix(f.Path, "pre-commit") && f.Action == Wrote {
			b.WriteString("The pre-commit hook refuses commits until an envelope passes; commit this setup with\n" +
				"git commit --no-verify.\n")
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("    " + l)
		}
	}
	return b.String()
}

// inWorkTree reports whether root is inside a git work tree, where the
// rulespec's repository-fact checks can run.
func inWorkTree(root string) bool {
	cmd := exec.Command("git", "rev-parse", "--is-inside-work-tree")
	cmd.Dir = root
	out, err := cmd.Output()
	return err == nil && strings.TrimSpace(string(out)) == "true"
}
