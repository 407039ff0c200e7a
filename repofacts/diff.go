package repofacts

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// diff lists what differs between commit and the working tree under the
// directory git runs in, untracked files that are not ignored included.
//
// Untracked files are added, as intent-to-add entries, to a private copy
// of the index, so that one `git diff` sees them too: renames from a
// tracked file to a new one are detected, and line counts come from git.
//
// Git state the work itself can write must not hide the work: in the
// private index, the assume-unchanged bit is cleared from every entry and
// skip-worktree from every entry whose file is in the working tree (a
// sparse checkout leaves its skipped files out), so git compares those
// files again; untracked files are filtered by .gitignore files only, not
// by .git/info/exclude or core.excludesFile, which live outside the work;
// and an untracked .gitignore is always listed, even one that ignores
// itself, so a rule can see what was added to hide files.
func diff(ctx context.Context, g *git, commit string) ([]change, error) {
	tmp, err := privateIndex(ctx, g)
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp)
	pg := &git{dir: g.dir, index: tmp}
	if err := unhide(ctx, pg); err != nil {
		return nil, err
	}
	untracked, err := pg.run(ctx, nil, "-c", "core.excludesFile=", "ls-files", "--others", "--exclude-per-directory=.gitignore", "-z", "--", ".")
	if err != nil {
		return nil, err
	}
	ignores, err := pg.run(ctx, nil, "ls-files", "--others", "-z", "--", ":(glob).gitignore", ":(glob)**/.gitignore")
	if err != nil {
		return nil, err
	}
	untracked = mergeZ(untracked, ignores)
	if len(untracked) > 0 {
		if _, err := pg.run(ctx, untracked, "add", "--force", "--intent-to-add", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return nil, err
		}
	}
	out, err := pg.run(ctx, nil, "diff", "--raw", "--numstat", "-z", "--no-abbrev", "-M", "--relative",
		"--no-ext-diff", "--no-textconv", "--ignore-submodules", "--no-color", commit, "--", ".")
	if err != nil {
		return nil, err
	}
	cs, err := parseDiff(out)
	if err != nil {
		return nil, err
	}
	// When the copy had to go to a $TMPDIR inside the work tree, it is
	// not part of the work.
	if rel, err := filepath.Rel(g.dir, tmp); err == nil && filepath.IsLocal(rel) {
		rel = filepath.ToSlash(rel)
		kept := cs[:0]
		for _, c := range cs {
			if c.Path != rel {
				kept = append(kept, c)
			}
		}
		cs = kept
	}
	return cs, nil
}

// unhide clears, in the private index, the bits with which an index entry
// tells git not to look at the working tree's file: assume-unchanged on
// every entry, skip-worktree on entries whose file exists.
func unhide(ctx context.Context, pg *git) error {
	out, err := pg.run(ctx, nil, "ls-files", "-v", "-z")
	if err != nil {
		return err
	}
	var assumedPaths, skippedPaths []byte
	for _, rec := range splitZ(out) {
		if len(rec) < 3 || rec[1] != ' ' {
			continue
		}
		tag, path := rec[0], rec[2:]
		assumed := tag >= 'a' && tag <= 'z'
		skipped := tag == 'S' || tag == 's'
		if skipped {
			if _, err := os.Lstat(filepath.Join(pg.dir, filepath.FromSlash(path))); err != nil {
				skipped = false // a sparse checkout's file: not in the work tree
			}
		}
		if assumed {
			assumedPaths = append(append(assumedPaths, path...), 0)
		}
		if skipped {
			skippedPaths = append(append(skippedPaths, path...), 0)
		}
	}
	// One bit per call: given both flags, git 2.39 applies only one.
	for _, clear := range []struct {
		flag  string
		paths []byte
	}{{"--no-assume-unchanged", assumedPaths}, {"--no-skip-worktree", skippedPaths}} {
		if len(clear.paths) == 0 {
			continue
		}
		if _, err := pg.run(ctx, clear.paths, "update-index", clear.flag, "-z", "--stdin"); err != nil {
			return err
		}
	}
	return nil
}

// mergeZ joins two NUL-terminated path lists, each path once.
func mergeZ(a, b []byte) []byte {
	seen := map[string]bool{}
	var out []byte
	for _, l := range [][]byte{a, b} {
		for _, p := range splitZ(l) {
			if !seen[p] {
				seen[p] = true
				out = append(append(out, p...), 0)
			}
		}
	}
	return out
}

// privateIndex copies the repository's index (if any) to a temporary
// file beside it, in the git directory, and returns its path. The copy
// lives there, not in $TMPDIR, because a temporary directory inside the
// work tree would make the copy itself an untracked file.
func privateIndex(ctx context.Context, g *git) (string, error) {
	out, err := g.run(ctx, nil, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		return "", err
	}
	src := strings.TrimSpace(string(out))
	f, err := os.CreateTemp(filepath.Dir(src), "vouch-index-*")
	if err != nil {
		// A read-only git directory: fall back to $TMPDIR.
		if f, err = os.CreateTemp("", "vouch-index-*"); err != nil {
			return "", fmt.Errorf("create a private index: %w", err)
		}
	}
	name := f.Name()
	data, err := os.ReadFile(src)
	if os.IsNotExist(err) {
		// A repository without an index yet: git creates one at a path
		// that does not exist.
		f.Close()
		os.Remove(name)
		return name, nil
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// git trusts an entry's cached stat only when the file is older
		// than the index; a copy with a fresh mtime would make a file
		// edited in the same second as the last index write look clean.
		var fi os.FileInfo
		if fi, err = os.Stat(src); err == nil {
			err = os.Chtimes(name, fi.ModTime(), fi.ModTime())
		}
	}
	if err != nil {
		os.Remove(name)
		return "", fmt.Errorf("copy the index: %w", err)
	}
	return name, nil
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
				return nil, fmt.Errorf("unexpected diff status %q for %s", st, c.Path)
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
