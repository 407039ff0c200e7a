// Package fsstat reads the parts of a file's status that the standard
// library leaves in FileInfo.Sys: the inode change time and the inode
// number. vouch keys in-memory and on-disk caches on them because, unlike
// the modification time, no system call sets the change time to a chosen
// value: any write, rename, chmod or touch -r moves it to the present, so
// a file edited and then backdated does not match an entry made before.
package fsstat

import "io/fs"

// Key identifies a file's content as far as its status can: a cache
// entry made under one Key is reused only for the same Key.
type Key struct {
	Size, ModTime, ChangeTime int64
	Inode                     uint64
}

// KeyOf returns fi's Key, and false where the platform gives no change
// time (callers then cache nothing).
func KeyOf(fi fs.FileInfo) (Key, bool) {
	ctime, ino, ok := changeTime(fi)
	if !ok {
		return Key{}, false
	}
	return Key{Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), ChangeTime: ctime, Inode: ino}, true
}

// ChangeTime is fi's inode change time in nanoseconds, and false where the
// platform gives none.
func ChangeTime(fi fs.FileInfo) (int64, bool) {
	ctime, _, ok := changeTime(fi)
	return ctime, ok
}
