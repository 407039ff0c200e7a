package hookwire

import (
	"crypto/sha256"
	"encoding/hex"
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

// Hash names the identity in socket and lock file names.
func (id Identity) Hash() string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%d %d %d %d", id.Dev, id.Ino, id.Size, id.ModNanos)))
	return hex.EncodeToString(sum[:8])
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
