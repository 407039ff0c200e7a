package repofacts

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/vouch-dev/vouch/imports"
)

// diff lists what differs between commit and the working tree under the
// directory git runs in, untracked files that are not ignored included.
//
// What changed is decided by vouch, not by git's view of the working
// tree: every path of the base tree, of the repository's index and every
// untracked file is read and hashed as a blob (hashWork), and compared
// with the base tree's ids. The work controls .git too, so nothing there
// may make a changed file look unchanged: not the index's cached stat
// data (an entry can be forged to carry an edited file's stat and the
// old blob id), not its assume-unchanged or skip-worktree bits, not a
// clean filter or eol conversion set in .git/config or
// .git/info/attributes (which would make git hash the old content), not
// an fsmonitor or untracked cache.
//
// The base's commit and trees are verified first (verifyTrees): git does
// not rehash the objects it reads, and the work controls .git/objects.
// The changed paths, as the base has them (verified as they are copied)
// and as the working tree does, are then imported into a private bare
// repository that borrows nothing (privateRepo, importChanges), and `git
// diff-tree` compares a tree of each side's changed paths there: git
// detects renames and counts lines on content vouch checked, without
// reading the working tree or the work's .git, so no attribute or
// setting there (-diff in .git/info/attributes, a diff driver) turns an
// edit into a binary change with no lines.
//
// Untracked files are filtered by .gitignore files only, not by
// .git/info/exclude or core.excludesFile, which live outside the work; an
// untracked .gitignore is always listed, even one that ignores itself, so
// a rule can see what was added to hide files; and every untracked file
// under .vouch is listed whether ignored or not (vouch's own files there
// are left out later by excludeOwn). A path that is absent is deleted,
// whatever the index's skip-worktree bit says; in a sparse checkout,
// where that would list every file outside the cone, diff fails with
// what to do instead.
//
// Each change's tracked is set when its path is in the base tree or the
// repository's index: excludeOwn never leaves such a path out.
//
// links maps each symbolic link of the base tree to the id of its blob
// (the link's text): an unchanged link to a changed file runs that
// file's new content, which importDiff reads (unchangedLinks).
func diff(ctx context.Context, g *git, base, commit string, hashes *Hashes) (cs []change, links map[string]string, err error) {
	out, err := g.run(ctx, nil, "rev-parse", "--path-format=absolute", "--show-object-format", "--show-prefix", "--git-dir", "--git-path", "info/sparse-checkout")
	if err != nil {
		return nil, nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 4 {
		return nil, nil, fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	format, err := formatOf(lines[0])
	if err != nil {
		return nil, nil, err
	}
	prefix, gitDir, sparseFile := lines[1], lines[2], lines[3]
	tmp, err := os.MkdirTemp(gitDir, "vouch-work-*")
	if err != nil {
		// A read-only git directory: fall back to $TMPDIR.
		if tmp, err = os.MkdirTemp("", "vouch-work-*"); err != nil {
			return nil, nil, fmt.Errorf("create a private index: %w", err)
		}
	}
	defer os.RemoveAll(tmp)
	// The base is read through trees and blobs the work could have
	// forged in .git/objects: every tree is verified before git walks
	// them, and each base blob the diff reads below.
	br, err := g.blobs(ctx, format)
	if err != nil {
		return nil, nil, err
	}
	defer br.close()
	if err := verifyTrees(br, commit); err != nil {
		return nil, nil, err
	}
	pg := &git{dir: g.dir, index: filepath.Join(tmp, "index")}
	if _, err := pg.run(ctx, nil, "read-tree", commit); err != nil {
		return nil, nil, err
	}
	gitlinks := map[string]pathState{}
	paths, err := workPaths(ctx, g, pg, tmp, &knownTree{name: "the base " + base, b: br, commit: commit}, gitlinks)
	if err != nil {
		return nil, nil, err
	}
	gl := gitlinkChanges(g.dir, gitlinks)
	links = map[string]string{}
	for p, w := range paths {
		if w.base.present && w.base.mode == modeSymlink {
			links[p] = w.base.id
		}
	}
	names := make([]string, 0, len(paths))
	for p := range paths {
		names = append(names, p)
	}
	slices.Sort(names)
	work, err := hashAllWork(format, g.dir, names, paths, hashes, func(ids []string) (map[string]int64, error) {
		return blobSizes(ctx, g, ids)
	})
	if err != nil {
		return nil, nil, err
	}
	var changed []string
	sparse := 0
	for _, p := range names {
		w, now := paths[p], work[p]
		if now == w.base {
			continue // unchanged, or absent on both sides
		}
		// Absent is deleted, whatever the index's skip-worktree bit says:
		// the work controls the index, so a sparse checkout's files
		// outside its cone count as deleted too.
		if !now.present && w.skip {
			sparse++
		}
		changed = append(changed, p)
	}
	if sparse > 0 {
		if _, err := os.Stat(sparseFile); err == nil {
			return nil, nil, &Error{Msg: fmt.Sprintf("%d files outside this sparse checkout's cone are absent from the working tree, and vouch compares the whole tree with the base (it would see them as deleted); run the gate in a full checkout (git sparse-checkout disable)", sparse)}
		}
	}
	if len(changed) == 0 {
		return gl, links, nil
	}
	dg, err := privateRepo(tmp, filepath.Join(tmp, "git", "objects"), format)
	if err != nil {
		return nil, nil, err
	}
	if err := importChanges(ctx, dg, br, g.dir, prefix, changed, paths, work); err != nil {
		return nil, nil, err
	}
	args := []string{"-c", "core.attributesFile=" + os.DevNull, "diff-tree", "-r", "--raw", "--numstat", "-z", "--no-abbrev", "-M",
		"--no-ext-diff", "--no-textconv", "--ignore-submodules", "--no-color"}
	if prefix != "" {
		args = append(args, "--relative="+prefix)
	}
	out, err = dg.run(ctx, nil, append(args, "refs/heads/base", "refs/heads/work")...)
	if err != nil {
		return nil, nil, err
	}
	cs, err = parseDiff(out)
	if err != nil {
		return nil, nil, err
	}
	for i := range cs {
		w := paths[cs[i].Path]
		cs[i].tracked = w.base.present || w.index.present
	}
	return mergeGitlinks(cs, gl), links, nil
}

// privateRepo makes a bare repository in tmp whose only objects are in
// objects: what importChanges writes there. It borrows nothing
// from the repository's store, and git run there reads nothing of the
// work's .git: no config (diff settings, drivers), no info/attributes,
// and, bare, no .gitattributes either, so binary detection and line
// counts follow git's defaults on the content alone.
func privateRepo(tmp, objects string, f objectFormat) (*git, error) {
	dir := filepath.Join(tmp, "git")
	config := "[core]\n\trepositoryformatversion = 0\n\tbare = true\n"
	if f.name != "sha1" {
		config = "[core]\n\trepositoryformatversion = 1\n\tbare = true\n[extensions]\n\tobjectFormat = " + f.name + "\n"
	}
	for _, d := range []string{filepath.Join(dir, "refs"), objects} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("create a private repository: %w", err)
		}
	}
	for name, content := range map[string]string{
		filepath.Join(dir, "HEAD"):   "ref: refs/heads/vouch\n",
		filepath.Join(dir, "config"): config,
	} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			return nil, fmt.Errorf("create a private repository: %w", err)
		}
	}
	return &git{dir: tmp, env: []string{"GIT_DIR=" + dir, "GIT_OBJECT_DIRECTORY=" + objects, "GIT_ATTR_NOSYSTEM=1"}, private: true}, nil
}

// blobSizes asks git the sizes of the blobs ids. A forged object could
// report another size; that only makes a file look changed (refused as
// too large) or costs the time to hash it, whose id then decides.
func blobSizes(ctx context.Context, g *git, ids []string) (map[string]int64, error) {
	out, err := g.run(ctx, []byte(strings.Join(ids, "\n")+"\n"), "cat-file", "--batch-check=%(objectname) %(objectsize)")
	if err != nil {
		return nil, err
	}
	sizes := map[string]int64{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		id, n, ok := strings.Cut(line, " ")
		if size, err := strconv.ParseInt(n, 10, 64); ok && err == nil {
			sizes[id] = size
		}
	}
	return sizes, nil
}

// indexEntry is a path's mode and blob id in a tree or an index.
type indexEntry = workEntry

// pathState is what is known of one path: its entry in the base tree,
// in the repository's index, and whether the index marks it skip-worktree.
type pathState struct {
	base, index indexEntry
	skip        bool
}

func (w pathState) inBase() bool { return w.base.present }

// workPaths lists every path whose working-tree state is compared, with
// what the base and the repository's index say of it: the base tree's
// files (from pg's index, read from the base), the repository's index
// entries (read, never written: it is the work's own file), untracked
// files that .gitignore files do not ignore, untracked .gitignore files
// and everything untracked under .vouch, ignored or not (excludeOwn
// leaves vouch's own files there out). The base's submodules are left
// out; the files of any other nested repository are listed. tmp is
// vouch's private directory, left out when it is inside the work tree.
// The gitlinks of the base and of the index go into links instead
// (gitlinkChanges compares them).
func workPaths(ctx context.Context, g, pg *git, tmp string, trusted imports.TrustedTree, links map[string]pathState) (map[string]pathState, error) {
	paths := map[string]pathState{}
	base, err := pg.run(ctx, nil, "ls-files", "-s", "-z", "--", ".")
	if err != nil {
		return nil, err
	}
	if err := nonLocal("the base tree", stagePaths(base, false)); err != nil {
		return nil, err
	}
	gitlinks := map[string]bool{}
	for _, rec := range splitZ(base) {
		e, p, ok := parseStage(rec)
		if !ok {
			return nil, fmt.Errorf("git ls-files: unexpected record %q", rec)
		}
		if e.mode != modeGitlink {
			paths[p] = pathState{base: e}
		} else {
			gitlinks[p] = true
			links[p] = pathState{base: e}
		}
	}
	// The .gitignore files marked skip-worktree, whose rules git reads
	// from the index when they are absent (imports.ListUnignored).
	var skipped []string
	index, err := g.run(ctx, nil, "ls-files", "-s", "-v", "-z", "--", ".")
	if err != nil {
		return nil, fmt.Errorf("read the repository's index: %w", err)
	}
	if err := nonLocal("the repository's index (.git/index)", stagePaths(index, true)); err != nil {
		return nil, err
	}
	for _, rec := range splitZ(index) {
		if len(rec) < 3 || rec[1] != ' ' {
			return nil, fmt.Errorf("git ls-files: unexpected record %q", rec)
		}
		e, p, ok := parseStage(rec[2:])
		if !ok {
			return nil, fmt.Errorf("git ls-files: unexpected record %q", rec)
		}
		if e.mode == modeGitlink {
			l := links[p]
			l.index = e
			links[p] = l
			continue // a submodule: gitlinkChanges compares it
		}
		if !strings.HasPrefix(e.mode, "1") {
			continue // a sparse index's directories
		}
		w := paths[p]
		w.index = e
		w.skip = rec[0] == 'S' || rec[0] == 's'
		if w.skip && pathBase(p) == ".gitignore" {
			skipped = append(skipped, p)
		}
		paths[p] = w
	}
	// A base submodule whose directory no longer holds a repository is
	// a plain directory now: git still sees the gitlink and lists
	// nothing below it, so its files are walked as the work's.
	for dir := range gitlinks {
		full := filepath.Join(g.dir, filepath.FromSlash(dir))
		if _, err := os.Lstat(filepath.Join(full, ".git")); err == nil {
			continue
		}
		if fi, err := os.Lstat(full); err != nil || !fi.IsDir() {
			continue
		}
		if err := addNested(paths, g.dir, dir); err != nil {
			return nil, err
		}
	}
	var untracked []string
	for _, args := range [][]string{
		{"-c", "core.excludesFile=", "ls-files", "--others", "--exclude-per-directory=.gitignore", "-z", "--", "."},
		{"ls-files", "--others", "-z", "--", ":(glob).gitignore", ":(glob)**/.gitignore"},
		{"ls-files", "--others", "-z", "--", ":(literal)" + vouchDir},
	} {
		out, err := pg.list(ctx, args...)
		if err != nil {
			return nil, err
		}
		untracked = append(untracked, splitZ(out)...)
	}
	// What the work's .gitignore rules ignore and the base's do not:
	// the listing vouch lint makes (imports.ListUnignored), so a rule
	// the work adds hides nothing here either.
	extra, err := imports.ListUnignored(ctx, g.dir, trusted, func() []string { return skipped })
	if err != nil {
		return nil, err
	}
	for _, u := range extra {
		untracked = append(untracked, u.Path)
	}
	// When the private directory had to go to a $TMPDIR inside the work
	// tree, it is not part of the work.
	own := ""
	if rel, err := filepath.Rel(g.dir, tmp); err == nil && filepath.IsLocal(rel) {
		own = filepath.ToSlash(rel) + "/"
	}
	listed := make([]string, len(untracked))
	for i, p := range untracked {
		listed[i] = strings.TrimSuffix(p, "/") // a nested repository's directory
	}
	if err := nonLocal("git's listing of untracked files", listed); err != nil {
		return nil, err
	}
	for _, p := range untracked {
		if own != "" && strings.HasPrefix(p, own) {
			continue
		}
		if dir, ok := strings.CutSuffix(p, "/"); ok {
			// A nested repository is listed as its directory, with a
			// slash. A submodule of the base stays out, as git leaves
			// it; any other is one the work made, and its files are
			// work.
			if gitlinks[dir] {
				continue
			}
			if err := addNested(paths, g.dir, dir); err != nil {
				return nil, err
			}
			continue
		}
		if _, ok := paths[p]; !ok {
			paths[p] = pathState{}
		}
	}
	if err := fakeDotGits(ctx, pg, g.dir, paths); err != nil {
		return nil, err
	}
	return paths, nil
}

// fakeDotGits refuses a .git entry below the root that is not a
// repository. git never lists a path with a .git component (nor does
// vouch lint), so the files of a src/.git directory the work made would
// be no part of the work, while node loads require("./.git/x.js") like
// any other file. A real nested repository's .git is its own (its
// directory's files are work; see nestedFiles). The directories looked
// in are those of the listed paths and every untracked directory git
// does not ignore (listed with --directory, empty ones included, since
// one holding only a .git looks empty to git), walked whole.
func fakeDotGits(ctx context.Context, pg *git, root string, paths map[string]pathState) error {
	dirs := map[string]bool{}
	for p := range paths {
		for d := pathDir(p); d != "" && !dirs[d]; d = pathDir(d) {
			dirs[d] = true
		}
	}
	out, err := pg.list(ctx, "-c", "core.excludesFile=", "ls-files", "--others", "--directory", "--exclude-per-directory=.gitignore", "-z", "--", ".")
	if err != nil {
		return err
	}
	var bad []string
	check := func(dir string) {
		dg := filepath.Join(root, filepath.FromSlash(dir), ".git")
		if _, err := os.Lstat(dg); err == nil && !isRepository(dg) {
			bad = append(bad, ShownPath(dir+"/.git"))
		}
	}
	for _, p := range splitZ(out) {
		d, ok := strings.CutSuffix(p, "/")
		if !ok {
			continue
		}
		// Walk it: a .git may be at any depth below.
		err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(d)), func(full string, e fs.DirEntry, err error) error {
			if err != nil || !e.IsDir() {
				return nil
			}
			if e.Name() == ".git" {
				return filepath.SkipDir
			}
			if rel, err := filepath.Rel(root, full); err == nil {
				dirs[filepath.ToSlash(rel)] = true
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for d := range dirs {
		check(d)
	}
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	return &Error{Msg: strings.Join(bad, ", ") + " is named .git but is not a repository: git lists none of its files, so vouch cannot compare them, while code can load them; rename or remove it"}
}

// pathDir is the directory of the root-relative path p, "" at the root.
func pathDir(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	return p[:i]
}

// isRepository reports whether the .git entry p is one git takes for a
// repository: a directory with objects/ and refs/ directories and a HEAD
// that names a ref or a commit (git's is_git_directory), or a file
// "gitdir: DIR" leading to such a directory (a submodule's, a worktree's).
func isRepository(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if fi.Mode().IsRegular() {
		data, ok := readSmall(p)
		if !ok {
			return false
		}
		dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
		if !ok || dir == "" {
			return false
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(p), dir)
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return false
		}
		p = dir
	} else if !fi.IsDir() {
		return false
	}
	common := p // a worktree's objects and refs are its commondir's
	if data, ok := readSmall(filepath.Join(p, "commondir")); ok {
		common = strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(p, common)
		}
	}
	for _, d := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(common, d)); err != nil || !fi.IsDir() {
			return false
		}
	}
	head, ok := readSmall(filepath.Join(p, "HEAD"))
	if !ok {
		return false
	}
	h := strings.TrimSpace(string(head))
	if ref, ok := strings.CutPrefix(h, "ref:"); ok {
		return strings.HasPrefix(strings.TrimSpace(ref), "refs/")
	}
	return (len(h) == 40 || len(h) == 64) && strings.Trim(h, "0123456789abcdef") == ""
}

// addNested adds the files below dir (see nestedFiles) to paths as
// untracked, keeping what paths already knows of any of them.
func addNested(paths map[string]pathState, root, dir string) error {
	files, err := nestedFiles(root, dir)
	if err != nil {
		return err
	}
	for _, f := range files {
		if _, ok := paths[f]; !ok {
			paths[f] = pathState{}
		}
	}
	return nil
}

// nestedFiles lists the files below dir (root-relative, '/'-separated), a
// nested repository that is not a submodule of the base: every regular
// file and symbolic link, at any depth, except what is in a .git entry
// (its own repository's, or a deeper one's). Links are not followed, and
// .gitignore files do not apply: everything the work put there counts.
func nestedFiles(root, dir string) ([]string, error) {
	var out []string
	base := filepath.Join(root, filepath.FromSlash(dir))
	err := filepath.WalkDir(base, func(full string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.Name() == ".git" && full != base {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if t := e.Type(); t.IsRegular() || t&fs.ModeSymlink != 0 {
			rel, err := filepath.Rel(root, full)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list the files of the nested repository %s: %w", ShownPath(dir), err)
	}
	return out, nil
}

// parseStage reads "MODE ID STAGE\tPATH" from ls-files -s.
func parseStage(rec string) (indexEntry, string, bool) {
	meta, p, ok := strings.Cut(rec, "\t")
	f := strings.Fields(meta)
	if !ok || len(f) != 3 || p == "" {
		return indexEntry{}, "", false
	}
	return indexEntry{mode: f[0], id: f[1], present: true}, p, true
}

// parseDiff reads `git diff --raw --numstat -z` output: every raw record
// first, then every numstat record in the same order.
func parseDiff(out []byte) ([]change, error) {
	f := splitZ(out)
	var cs []change
	i := 0
	for i < len(f) && strings.HasPrefix(f[i], ":") {
		meta := strings.Fields(f[i][1:])
		if len(meta) != 5 {
			return nil, fmt.Errorf("unexpected diff record %q", f[i])
		}
		st := meta[4]
		if st == "" {
			return nil, fmt.Errorf("unexpected diff record %q", f[i])
		}
		c := change{}
		if !isNullID(meta[2]) {
			c.oldBlob = meta[2]
		}
		switch st[0] {
		case 'R', 'C':
			if i+2 >= len(f) {
				return nil, fmt.Errorf("truncated diff record %q", f[i])
			}
			c.OldPath, c.Path = f[i+1], f[i+2]
			c.Status = Renamed
			if st[0] == 'C' {
				c.Status, c.OldPath, c.oldBlob = Added, "", ""
			}
			i += 3
		default:
			if i+1 >= len(f) {
				return nil, fmt.Errorf("truncated diff record %q", f[i])
			}
			c.Path = f[i+1]
			switch st[0] {
			case 'A':
				c.Status = Added
			case 'D':
				c.Status = Deleted
			case 'M', 'T', 'U':
				c.Status = Modified
			default:
				return nil, fmt.Errorf("unexpected diff status %q for %s", st, ShownPath(c.Path))
			}
			i += 2
		}
		cs = append(cs, c)
	}
	for k := range cs {
		if i >= len(f) {
			return nil, fmt.Errorf("diff: %d line counts for %d changes", k, len(cs))
		}
		rec := f[i]
		parts := strings.SplitN(rec, "\t", 3)
		if len(parts) != 3 {
			return nil, fmt.Errorf("unexpected numstat record %q", rec)
		}
		if parts[2] == "" {
			i += 3 // a rename: old and new path follow
		} else {
			i++
		}
		if parts[0] == "-" {
			cs[k].Binary = true
			continue
		}
		a, err1 := strconv.ParseInt(parts[0], 10, 64)
		d, err2 := strconv.ParseInt(parts[1], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("unexpected numstat record %q", rec)
		}
		cs[k].LinesAdded, cs[k].LinesDeleted = a, d
	}
	return cs, nil
}

func isNullID(id string) bool { return strings.Trim(id, "0") == "" }
