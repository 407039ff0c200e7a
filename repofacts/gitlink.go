package repofacts

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vouch-dev/vouch/internal/safeopen"
)

// gitlinkChanges lists the submodules whose commit differs between the
// base tree and the work. links maps each path that is a gitlink (mode
// 160000) in the base tree or the repository's index to those entries.
//
// A gitlink is part of the work: the commit it records is code the
// repository builds with, so a bump to another commit is a change as an
// edited file is. The work's commit is the index's gitlink entry (what
// would be committed); when the directory holds a checked-out repository
// whose HEAD is another commit (submoduleHead), that counts too, since it
// is what builds there. A path is added when only the work has a
// gitlink, deleted when only the base does, and modified otherwise. It
// has no line counts.
//
// Each change's gitlink is what State records for it: "gitlink ID" (the
// index's commit, or "none"), followed by " head ID" when the checked-out
// HEAD differs. A fresh clone with the submodule not initialised records
// the same as a checkout whose HEAD is the recorded commit.
func gitlinkChanges(root string, links map[string]pathState) []change {
	var cs []change
	for p, l := range links {
		head := submoduleHead(filepath.Join(root, filepath.FromSlash(p)))
		base, idx := "", ""
		if l.base.present && l.base.mode == modeGitlink {
			base = l.base.id
		}
		if l.index.present && l.index.mode == modeGitlink {
			idx = l.index.id
		}
		if base == "" && idx == "" || idx == base && (head == "" || head == idx) {
			continue
		}
		c := change{tracked: true}
		c.Path = p
		switch {
		case base == "":
			c.Status = Added
		case idx == "":
			c.Status = Deleted
		default:
			c.Status = Modified
		}
		if idx != "" || head != "" {
			c.gitlink = "gitlink " + idx
			if idx == "" {
				c.gitlink = "gitlink none"
			}
			if head != "" && head != idx {
				c.gitlink += " head " + head
			}
		}
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b change) int { return strings.Compare(a.Path, b.Path) })
	return cs
}

// mergeGitlinks adds the gitlink changes gl to the file changes cs. A
// path that is a file on one side and a gitlink on the other is in both:
// it becomes one change, modified, whose state is the gitlink's when the
// work has one.
func mergeGitlinks(cs, gl []change) []change {
	at := map[string]int{}
	for i, c := range cs {
		at[c.Path] = i
	}
	for _, g := range gl {
		i, ok := at[g.Path]
		if !ok {
			cs = append(cs, g)
			continue
		}
		c := &cs[i]
		if c.Status == Added || c.Status == Deleted {
			c.Status = Modified
		}
		if g.gitlink != "" {
			c.gitlink = g.gitlink
		}
	}
	return cs
}

// headUnreadable is a submodule's HEAD when its directory holds a .git
// entry but vouch cannot resolve it to a commit id: it never equals a
// recorded commit, so the submodule is listed as changed.
const headUnreadable = "unreadable"

// maxRefFile bounds what is read of a .git file, a HEAD or a loose ref;
// maxPackedRefs bounds what is read of packed-refs.
const (
	maxRefFile    = 4 << 10
	maxPackedRefs = 64 << 20
)

// submoduleHead returns the commit the repository in dir has checked
// out: "" when dir has no .git entry (a submodule that is not
// initialised, or a plain directory), headUnreadable when it has one
// but its HEAD does not resolve to a commit id by the files vouch reads.
//
// git is not run there: the work controls that repository and its
// config. vouch reads the files themselves, each bounded: the .git entry
// (a directory, or a file "gitdir: PATH"), HEAD, and the ref it names,
// as a loose ref or in packed-refs, in the git directory or the one its
// commondir file names. A repository keeping its refs otherwise
// (reftable) has a HEAD vouch cannot read.
func submoduleHead(dir string) string {
	dotgit := filepath.Join(dir, ".git")
	if _, err := os.Lstat(dotgit); err != nil {
		return ""
	}
	fi, err := os.Stat(dotgit)
	if err != nil {
		return headUnreadable
	}
	gitDir := dotgit
	if fi.Mode().IsRegular() {
		data, ok := readSmall(dotgit)
		rest, found := strings.CutPrefix(strings.TrimRight(data, "\r\n"), "gitdir: ")
		if !ok || !found || rest == "" {
			return headUnreadable
		}
		if gitDir = rest; !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(dir, gitDir)
		}
	} else if !fi.IsDir() {
		return headUnreadable
	}
	common := gitDir
	if data, ok := readSmall(filepath.Join(gitDir, "commondir")); ok {
		if c := strings.TrimRight(data, "\r\n"); filepath.IsAbs(c) {
			common = c
		} else if c != "" {
			common = filepath.Join(gitDir, c)
		}
	}
	data, ok := readSmall(filepath.Join(gitDir, "HEAD"))
	for range 5 {
		if !ok {
			return headUnreadable
		}
		data = strings.TrimRight(data, "\r\n")
		if isObjectID(data) {
			return data
		}
		ref, isRef := strings.CutPrefix(data, "ref: ")
		if !isRef || !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") || strings.Contains(ref, "\\") {
			return headUnreadable
		}
		data, ok = readSmall(filepath.Join(gitDir, filepath.FromSlash(ref)))
		if !ok && common != gitDir {
			data, ok = readSmall(filepath.Join(common, filepath.FromSlash(ref)))
		}
		if !ok {
			data, ok = packedRef(common, ref)
		}
	}
	return headUnreadable
}

// readSmall reads a regular file of at most maxRefFile bytes. It opens
// without blocking: a FIFO planted in a submodule's git directory must
// not hang the gate.
func readSmall(name string) (string, bool) {
	f, _, err := safeopen.Open(name, safeopen.Options{})
	if err != nil {
		return "", false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRefFile+1))
	if err != nil || len(data) > maxRefFile {
		return "", false
	}
	return string(data), true
}

// packedRef finds ref in gitDir's packed-refs.
func packedRef(gitDir, ref string) (string, bool) {
	f, _, err := safeopen.Open(filepath.Join(gitDir, "packed-refs"), safeopen.Options{})
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxPackedRefs))
	for sc.Scan() {
		id, name, ok := strings.Cut(sc.Text(), " ")
		if ok && name == ref && isObjectID(id) {
			return id, true
		}
	}
	return "", false
}

// isObjectID reports whether s is a full object id, sha1 or sha256, in
// lowercase hex as git writes it.
func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
