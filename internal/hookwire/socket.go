package hookwire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// GuardBinary is the hook binary the server runs as and the client falls
// back to, found beside the client.
const GuardBinary = "vouch-guard"

// ErrUnsupported is the fast mode asked for where it does not run: it
// needs Linux (SO_PEERCRED and /proc/PID/exe for the peer checks).
var ErrUnsupported = errors.New("the vouch-guard server (fast mode) runs only on Linux")

// Identity is a binary's identity on disk: a rebuilt or upgraded
// vouch-guard has another, so it gets a server of its own rather than
// talking to one running old code.
type Identity struct {
	Dev, Ino uint64
	Size     int64
	// ModNanos is the modification time in nanoseconds since the epoch.
	ModNanos int64
}

// Hash names the identity in socket and lock file names: 16 hex digits of
// the 64-bit FNV-1a hash of the four numbers.
//
// The name needs no cryptographic hash. It only keeps servers of
// different vouch-guard binaries apart; it guards nothing. The directory
// is the user's own and private (CheckDir), anyone who can write in it
// can put a socket at any name whatever the hash, and the client trusts
// what answers there only after CheckServer: the peer's /proc/PID/exe
// must be the client's own vouch-guard by device and inode, among the
// other checks. A collision between two binaries' identities would at
// worst send a client to the other binary's server, which those checks
// refuse (a direct run). FNV keeps package crypto and its FIPS module's
// initialisation out of vouch-hook, whose start-up is the hook's cost.
func (id Identity) Hash() string {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	var b [8]byte
	for _, v := range [...]uint64{id.Dev, id.Ino, uint64(id.Size), uint64(id.ModNanos)} {
		binary.LittleEndian.PutUint64(b[:], v)
		for _, c := range b {
			h ^= uint64(c)
			h *= prime
		}
	}
	const digits = "0123456789abcdef"
	var out [16]byte
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = digits[h&0xf]
		h >>= 4
	}
	return string(out[:])
}

// SocketPath is where the server for binary id listens, in dir.
func SocketPath(dir string, id Identity) string {
	return filepath.Join(dir, "guard-"+id.Hash()+".sock")
}

// LockPath is the lock file the server for binary id holds while it
// runs, beside its socket: of two servers started at once, one gets it
// and the other exits.
func LockPath(dir string, id Identity) string {
	return filepath.Join(dir, "guard-"+id.Hash()+".lock")
}

// SocketDir is the directory a user's servers listen in: vouch under
// $XDG_RUNTIME_DIR when that is set and a private directory of uid's,
// else vouch-UID under the temporary directory. With create it is made
// (mode 0700) when missing. Either way it is checked with CheckDir: a
// directory someone else made or can enter is refused, and the caller
// runs without a server.
func SocketDir(getenv func(string) string, uid int, create bool) (string, error) {
	// TMPDIR, else /tmp, as os.TempDir has it on Unix, but read through
	// getenv so both sides can be asked about any environment.
	tmp := getenv("TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	dir := filepath.Join(tmp, "vouch-"+strconv.Itoa(uid))
	if x := getenv("XDG_RUNTIME_DIR"); x != "" && filepath.IsAbs(x) && CheckDir(x, uid) == nil {
		dir = filepath.Join(x, "vouch")
	}
	if create {
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("hook server directory: %w", err)
		}
	}
	if err := CheckDir(dir, uid); err != nil {
		return "", err
	}
	return dir, nil
}

// CheckDir refuses a socket directory that is a symbolic link, not a
// directory, not owned by uid, or open to its group or others: whoever
// could write there could put their own socket where the client looks.
func CheckDir(dir string, uid int) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("hook server directory: %w", err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("hook server directory %s is a symbolic link", dir)
	case !fi.IsDir():
		return fmt.Errorf("hook server directory %s is not a directory", dir)
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("hook server directory %s has mode %v; it must be private (0700)", dir, fi.Mode().Perm())
	}
	owner, ok := fileOwner(fi)
	if !ok || owner != uid {
		return fmt.Errorf("hook server directory %s is not owned by uid %d", dir, uid)
	}
	return nil
}
