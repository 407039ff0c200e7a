package evidence

import (
	"io/fs"
	"os"
	"path"
)

// maxOwnFiles bounds the walk of vouch's own directories for hard links:
// past it, a hard-linked citation is refused as possibly one of them.
const maxOwnFiles = 100_000

// linkedOwn reports whether st, a cited regular file with more than one
// name, is one of vouch's own files (anything under .vouch/ or the output
// directory) or a file at the top of .git, reached through a hard link
// from elsewhere in the tree. A hard link keeps no trace of where its
// other names are, so the candidates are listed once, on the first
// hard-linked citation, and compared by file identity.
func (o *ownFiles) linkedOwn(r *os.Root, st fs.FileInfo) (own, git bool) {
	if o == nil || !st.Mode().IsRegular() || !multiLinked(st) {
		return false, false
	}
	if !o.listed {
		o.listed = true
		for _, d := range o.outs {
			_ = fs.WalkDir(r.FS(), d, func(p string, e fs.DirEntry, err error) error {
				if err != nil || !e.Type().IsRegular() {
					return nil
				}
				if len(o.ownList) >= maxOwnFiles {
					o.truncated = true
					return fs.SkipAll
				}
				if info, err := e.Info(); err == nil {
					o.ownList = append(o.ownList, info)
				}
				return nil
			})
		}
		if entries, err := fs.ReadDir(r.FS(), ".git"); err == nil {
			for _, e := range entries {
				if e.Type().IsRegular() {
					if info, err := r.Lstat(path.Join(".git", e.Name())); err == nil {
						o.gitList = append(o.gitList, info)
					}
				}
			}
		}
	}
	for _, f := range o.ownList {
		if os.SameFile(st, f) {
			return true, false
		}
	}
	for _, f := range o.gitList {
		if os.SameFile(st, f) {
			return false, true
		}
	}
	return o.truncated, false
}
