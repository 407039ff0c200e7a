package imports

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

// defaultExcludedDirs are directory names never descended into when walking
// without git: version control, dependency copies, build output, caches.
// vendor and node_modules (third-party copies) and vouch's own cache are
// excluded in git work trees too, where they are often tracked.
func defaultExcludedDirs(gitMode bool) map[string]bool {
	if gitMode {
		return map[string]bool{".git": true, "node_modules": true, "vendor": true, ".vouch": true}
	}
	return map[string]bool{
		".git": true, "node_modules": true, "vendor": true, "target": true, "dist": true,
		"build": true, ".venv": true, "__pycache__": true, ".vouch": true,
	}
}

// listing is the set of files a scan considers.
type listing struct {
	// files are repository-relative, '/'-separated, sorted paths of regular
	// files (symlinks to files inside the root included).
	files    []string
	warnings []Warning
	gitMode  bool
	// links maps each symlink to a directory inside the root to that
	// directory (both repository-relative): the listing does not follow
	// them, but node and Python import through them.
	links map[string]string
	// unignored are the files of files that a .gitignore in the work
	// tree ignores, listed because the trusted commit does not ignore
	// them by the same rule (see ListUnignored).
	unignored []Unignored
}

// matchExclude reports whether rel (or any of its parent directories, or
// its base name) matches one of the globs, so `--exclude gen` drops a whole
// directory and `--exclude '*.pb.go'` drops files anywhere.
func matchExclude(rel string, globs []string) bool {
	if len(globs) == 0 {
		return false
	}
	for p := rel; p != "." && p != "" && p != "/"; p = path.Dir(p) {
		for _, g := range globs {
			if ok, _ := path.Match(g, p); ok {
				return true
			}
			if ok, _ := path.Match(g, path.Base(p)); ok {
				return true
			}
		}
	}
	return false
}

// listFiles asks git for tracked and untracked-not-ignored files and
// falls back to a filesystem walk outside a work tree (or without git).
// With trusted set, a git listing also holds the ignored files that
// trusted's .gitignore rules do not hide (ListUnignored); if git fails
// while that is worked out, listFiles fails rather than honour rules it
// could not check.
func listFiles(ctx context.Context, root string, exclude []string, trusted TrustedTree) (listing, error) {
	// Both listings walk the tree: run them side by side. The second
	// waits for the first's skip-worktree entries before deciding.
	var extra []Unignored
	var extraErr error
	var files, skip []string
	var ok bool
	listed := make(chan struct{})
	var wg sync.WaitGroup
	if trusted != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			extra, extraErr = ListUnignored(ctx, root, trusted, func() []string {
				<-listed
				return skip
			})
		}()
	}
	var unread []Warning
	files, skip, unread, ok = gitFiles(ctx, root)
	close(listed)
	wg.Wait()
	if !ok {
		return walkFiles(ctx, root, exclude)
	}
	l := listing{gitMode: true, warnings: unread}
	if extraErr != nil {
		return l, fmt.Errorf("list the files the work's .gitignore rules ignore: %w", extraErr)
	}
	dirs := defaultExcludedDirs(true)
	keep := func(f string) bool {
		parts := strings.Split(f, "/")
		for _, p := range parts[:len(parts)-1] {
			if dirs[p] {
				return false
			}
		}
		if matchExclude(f, exclude) {
			return false
		}
		ok, w := regularInRoot(root, f, &l)
		if w != nil {
			l.warnings = append(l.warnings, *w)
		}
		return ok
	}
	for _, f := range files {
		if keep(f) {
			l.files = append(l.files, f)
		}
	}
	for _, u := range extra {
		if !strings.HasSuffix(u.Path, "/") && keep(u.Path) {
			l.files = append(l.files, u.Path)
			l.unignored = append(l.unignored, u)
		}
	}
	sort.Strings(l.files)
	l.files = slices.Compact(l.files)
	return l, nil
}

// ListRepo lists the files under root (absolute) that imports resolve
// against, as vouch lint lists them with no exclude globs: git's listing
// (.gitignore files only, those trusted does not vouch for overruled; see
// Options.Trusted) without the default excluded directories, symlinked
// directories inside root recorded as Links. Repository facts resolve
// the imports a change adds against it, so both resolve alike.
func ListRepo(ctx context.Context, root string, trusted TrustedTree) (*Repo, error) {
	l, err := listFiles(ctx, root, nil, trusted)
	if err != nil {
		return nil, err
	}
	repo := &Repo{Root: root, Files: make(map[string]bool, len(l.files)), Links: l.links}
	for _, f := range l.files {
		repo.Files[f] = true
	}
	return repo, nil
}

// gitListArgs list the tracked files and the untracked ones no .gitignore
// file ignores. Ignore rules outside the work tree's files are not read:
// .git/info/exclude and core.excludesFile are written by whoever can
// write .git (the agent whose work vouch gate checks), and a path listed
// there would vanish from lint while repository facts, which read
// .gitignore files only (repofacts), still list it as changed. The
// .gitignore files are the work's too: with a trusted commit, what they
// ignore by a rule that commit lacks is listed as well (ListUnignored),
// and repository facts list the same. The -c
// settings override the repository's config as repofacts' do:
// core.ignorecase=false, so patterns match case as written;
// core.untrackedCache=false and core.fsmonitor=false, so no cached
// listing (or a hook command) stands in for reading the directories. -t
// tags the index's skip-worktree entries, which ListUnignored is told of.
var gitListArgs = append(slices.Clone(gitConfigArgs),
	"ls-files", "-z", "-t", "--cached", "--others", "--exclude-per-directory=.gitignore")

// gitConfigArgs are the -c settings every git command of a listing runs
// with (gitListArgs says why).
var gitConfigArgs = []string{
	"-c", "core.excludesFile=", "-c", "core.ignorecase=false", "-c", "core.untrackedCache=false", "-c", "core.fsmonitor=false",
}

// gitFiles lists files via git; ok is false when root is not in a git work
// tree or git is unavailable. skipWorktree are the .gitignore files of
// the index marked skip-worktree: git reads the rules of one that is
// absent from the work tree out of the index.
func gitFiles(ctx context.Context, root string) (files, skipWorktree []string, unread []Warning, ok bool) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root}, gitListArgs...)...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, nil, nil, false
	}
	unread = unlistedDirs(stderr.String())
	seen := map[string]bool{}
	for _, rec := range bytes.Split(out.Bytes(), []byte{0}) {
		// -t tags each path: "S " is an index entry marked
		// skip-worktree, "? " an untracked file.
		if len(rec) < 3 || rec[1] != ' ' {
			continue
		}
		f := string(rec[2:])
		if rec[0] == 'S' && path.Base(f) == ".gitignore" {
			skipWorktree = append(skipWorktree, f)
		}
		// --cached lists unmerged paths once per stage; dedupe.
		if seen[f] {
			continue
		}
		seen[f] = true
		files = append(files, f)
	}
	return files, skipWorktree, unread, true
}

// unlistedDirs reads git's warnings about directories it could not open
// while listing untracked files (it exits 0 and leaves their files out):
// each is a directory that may hold source files, reported as the walk
// reports a directory it cannot read, so lint says what it did not see.
func unlistedDirs(stderr string) []Warning {
	var out []Warning
	for l := range strings.SplitSeq(stderr, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "warning: could not open directory '")
		if !ok {
			continue
		}
		dir, why, ok := strings.Cut(rest, "': ")
		if !ok {
			continue
		}
		out = append(out, Warning{File: strings.TrimSuffix(dir, "/"), Message: "cannot read: git could not open the directory: " + why, Unread: true})
	}
	return out
}

// regularInRoot reports whether rel is a regular file, or a symlink that
// resolves to a regular file inside root; a symlink to a directory inside
// root is recorded in l.links. Missing files (deleted but still in the
// index, or vanished since listing) are silently skipped.
func regularInRoot(root, rel string, l *listing) (bool, *Warning) {
	abs := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Lstat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		_, source := LangOf(rel)
		return false, &Warning{File: rel, Message: fmt.Sprintf("cannot stat: %v", err), Unread: source}
	}
	if fi.Mode().IsRegular() {
		return true, nil
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return false, nil
	}
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return false, &Warning{File: rel, Message: fmt.Sprintf("skipped broken or looping symlink: %v", err)}
	}
	if r, err := filepath.Rel(root, target); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		// A source file linked from outside still runs (node and Python
		// follow the link), but its content is not the repository's to
		// read: it is unread, which lint reports.
		_, source := LangOf(rel)
		return false, &Warning{File: rel, Message: "skipped symlink pointing outside the root", Unread: source}
	}
	tfi, err := os.Stat(target)
	if err != nil || !tfi.Mode().IsRegular() {
		// Symlinked directories are not followed: that is what makes loops
		// impossible, and their contents are reachable by their real path,
		// which resolvers use for imports through the link.
		if err == nil && tfi.IsDir() {
			if r, err := filepath.Rel(root, target); err == nil && filepath.IsLocal(r) {
				if l.links == nil {
					l.links = map[string]string{}
				}
				l.links[rel] = filepath.ToSlash(r)
			}
		}
		return false, nil
	}
	return true, nil
}

// walkFiles walks root without following symlinked directories.
func walkFiles(ctx context.Context, root string, exclude []string) (listing, error) {
	var l listing
	dirs := defaultExcludedDirs(false)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			if p == root {
				return err
			}
			// Unreadable directories and entries that vanished mid-walk
			// cost only their own contents.
			if !errors.Is(err, fs.ErrNotExist) {
				// A directory that cannot be read may hold source
				// files, whose imports are then unknown.
				_, source := LangOf(rel)
				unread := source || d != nil && d.IsDir()
				l.warnings = append(l.warnings, Warning{File: rel, Message: fmt.Sprintf("cannot read: %v", err), Unread: unread})
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != root && (dirs[d.Name()] || matchExclude(rel, exclude)) {
				return fs.SkipDir
			}
			return nil
		}
		if matchExclude(rel, exclude) {
			return nil
		}
		if d.Type().IsRegular() {
			l.files = append(l.files, rel)
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			ok, w := regularInRoot(root, rel, &l)
			if w != nil {
				l.warnings = append(l.warnings, *w)
			}
			if ok {
				l.files = append(l.files, rel)
			}
		}
		return nil
	})
	if err != nil {
		return l, fmt.Errorf("walking %s: %w", root, err)
	}
	sort.Strings(l.files)
	return l, nil
}
