package canonpath

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
)

// passwdFile is where UserHome looks users up.
const passwdFile = "/etc/passwd"

// UserHome is the home directory of the user called name, read from
// /etc/passwd, which is what ~name means to a shell on the machines vouch
// runs on. It does not use os/user: with cgo on (a plain `go install`),
// that package links the C library and makes vouch a dynamically linked
// binary, whose loader and threads cost every hook process time before it
// reads its event. Users known only to NSS services (LDAP, sssd) are not
// found, and ~name then stays unexpanded, as bash leaves an unknown user.
func UserHome(name string) (string, error) {
	f, err := os.Open(passwdFile)
	if err != nil {
		return "", fmt.Errorf("look up user %s: %w", name, err)
	}
	defer f.Close()
	return lookupHome(io.LimitReader(f, 16<<20), name)
}

// lookupHome finds name's home directory in passwd-format text: lines
// name:password:uid:gid:gecos:home:shell.
func lookupHome(r io.Reader, name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("look up user: empty name")
	}
	prefix := []byte(name + ":")
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, prefix) {
			continue
		}
		fields := bytes.Split(line, []byte(":"))
		if len(fields) < 7 {
			continue
		}
		return string(fields[5]), nil
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("look up user %s: %w", name, err)
	}
	return "", fmt.Errorf("unknown user %s", name)
}
