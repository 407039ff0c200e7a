package guard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/vouch-dev/vouch/canonpath"
)

// protectedFiles are the files and directories protect-vouch-writes
// names, relative to the directory holding them (a work tree's top, or
// the repository root with .vouch). The git pathspecs, the places looked
// at for ignored files and the names a find must match to reach them are
// all made from this one list, so a file protect-vouch gains is not
// missed by one of those checks (TestProtectedFilesMatchRule).
var protectedFiles = []struct {
	path string
	dir  bool
}{
	{".vouch/guard.yaml", false}, {".vouch/guard.yml", false},
	{".vouch/guard", true}, {".vouch/cache", true},
	{".vouch/verification.json", false}, {".vouch/.gitignore", false},
	{"vouch.yaml", false}, {"vouch.yml", false},
	{".claude/settings.json", false}, {".claude/settings.local.json", false},
}

// protectedSpecs returns git pathspecs for protectedFiles at any depth
// and in any case, as protect-vouch's regular expressions match them. A
// directory is named with and without a trailing /** so both a file and
// a directory of that name match.
func protectedSpecs() []string {
	var specs []string
	for _, f := range protectedFiles {
		specs = append(specs, ":(glob,icase)**/"+f.path)
		if f.dir {
			specs = append(specs, ":(glob,icase)**/"+f.path+"/**")
		}
	}
	return specs
}

// gitTimeout bounds each git run. A repository whose index is a FIFO, or
// that sits on a mount that does not answer, must not hold the hook until
// the harness gives up on it, since the harness then runs the tool; a git
// that does not answer in time counts as "cannot tell", and the command
// asks.
const gitTimeout = 2 * time.Second

// runGit runs git in dir and returns its standard output.
func runGit(dir string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	// Settings that make git run a program (core.fsmonitor) are turned
	// off: the hook must not run what the repository's config names.
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false"}, args...)...)
	cmd.WaitDelay = 100 * time.Millisecond
	cmd.Dir = dir
	env := os.Environ()
	cmd.Env = env[:0:0]
	for _, e := range env {
		// The hook's own GIT_DIR or GIT_INDEX_FILE would point git
		// somewhere other than the work tree asked about.
		if !strings.HasPrefix(e, "GIT_") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("git %s in %s: %w", strings.Join(args[:min(len(args), 1)], " "), dir, ctx.Err())
		}
		return nil, fmt.Errorf("git %s in %s: %w", strings.Join(args[:min(len(args), 1)], " "), dir, err)
	}
	return out.Bytes(), nil
}

// keptTreeReaches reports whether a git command that keeps untracked
// files (shellfacts.Facts.TrackedTrees) may change one of vouch's own
// files in the work tree top: one git tracks (in the index, or in HEAD
// though removed from the index) or one it ignores, which a checkout or
// merge overwrites without asking when the other commit has it; own are
// the files the setup names (ownFiles). An untracked file that is not
// ignored is safe: git refuses to overwrite it. When git cannot tell,
// the answer is yes.
func (f *CallFacts) keptTreeReaches(top string, own []string) bool {
	if r, ok := f.reachCache[top]; ok {
		return r
	}
	r := keptTreeReaches(top, f.Root, own)
	if f.reachCache == nil {
		f.reachCache = map[string]bool{}
	}
	f.reachCache[top] = r
	return r
}

// keptTreeSafe reports whether the tree d is one only git commands that
// keep untracked files write, and git says none of vouch's own files
// there is within their reach.
func (f *CallFacts) keptTreeSafe(d string, own []string) bool {
	return slices.Contains(f.TrackedTrees, d) && !f.keptTreeReaches(d, own)
}

func keptTreeReaches(top, root string, own []string) bool {
	specs := protectedSpecs()
	// The check of ignored files looks only where protectedFiles
	// usually are (the work tree's top and the repository root):
	// listing ignored files at any depth would walk node_modules and
	// the like.
	var places []string
	for _, d := range []string{top, root} {
		if d != "" && canonpath.Within(d, top) {
			for _, n := range protectedFiles {
				places = append(places, filepath.Join(d, n.path))
			}
		}
	}
	for _, o := range own {
		if canonpath.Within(o, top) {
			places = append(places, o)
			if rel, err := filepath.Rel(top, o); err == nil {
				specs = append(specs, ":(literal)"+filepath.ToSlash(rel))
			}
		}
	}
	out, err := runGit(top, append([]string{"ls-files", "-z", "--cached", "--with-tree=HEAD", "--"}, specs...)...)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		// No HEAD yet (a new repository) fails --with-tree: the index
		// alone then.
		out, err = runGit(top, append([]string{"ls-files", "-z", "--cached", "--"}, specs...)...)
	}
	if err != nil || len(out) > 0 {
		return true
	}
	var present []string
	for _, p := range places {
		if _, err := os.Lstat(p); err == nil {
			if rel, err := filepath.Rel(top, p); err == nil {
				present = append(present, ":(literal)"+filepath.ToSlash(rel))
			}
		}
	}
	if len(present) == 0 {
		return false
	}
	out, err = runGit(top, append([]string{"ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--"}, present...)...)
	return err != nil || len(out) > 0
}
