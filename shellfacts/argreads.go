package shellfacts

import (
	"fmt"
	"os"
	"strings"
)

// maxArgLooks bounds how many arguments of programs vouch does not model
// one Parse looks up on disk (see unmodelledArgs).
const maxArgLooks = 256

// unmodelledArgs records what a program vouch does not model (one with no
// handler that is not a wrapper, or the script an interpreter runs) reads
// through its arguments. Such a program handed a file's path most likely
// reads it (python3 x.py .env, docker run --env-file .env img), so each
// argument that names an existing file or directory counts as read: a
// word, and the value attached to an option (--env-file=.env, -f.env). A
// word that names nothing on disk (a subcommand, a number, a file the
// command will make) is left out, so the reads stay the paths the
// command line names. A word only known at run time that ends in static
// components ("$D/.env") is read as readTail records it. Programs that
// take paths only to look at their names or metadata (ls, test, du,
// basename), or use a key without showing it (ssh-add), read nothing here
// (see nameOnly).
func (w *walker) unmodelledArgs(name string, args []field) {
	if nameOnly(name) {
		return
	}
	for _, f := range args {
		switch {
		case !f.static:
			w.readTail(f)
			if p := procEnviron(f.raw); p != "" {
				w.reads[p] = true
			}
			if f.alt != "" {
				w.readIfThere(f.alt, name)
			}
		case f.glob:
			w.glob(f, w.reads, name)
		default:
			for _, s := range argPaths(f.s) {
				w.readIfThere(s, name)
			}
		}
	}
}

// argPaths returns the paths an argument of an unknown program may name:
// the word itself, or for an option the value attached to it (--x=V, and
// for a short option -xV, V).
func argPaths(s string) []string {
	switch {
	case s == "" || s == "-" || s == "--":
		return nil
	case strings.HasPrefix(s, "--"):
		if _, v, ok := strings.Cut(s, "="); ok && v != "" {
			return []string{v}
		}
		return nil
	case strings.HasPrefix(s, "-"):
		if len(s) > 2 {
			return []string{s[2:]}
		}
		return nil
	}
	return []string{s}
}

// readIfThere records p as read when it names something on disk.
func (w *walker) readIfThere(p, what string) {
	if w.argLooks++; w.argLooks > maxArgLooks {
		if w.argLooks == maxArgLooks+1 {
			w.incomplete(fmt.Sprintf("more than %d arguments of programs vouch does not model", maxArgLooks))
		}
		return
	}
	c, err := w.canonical(p)
	if err != nil {
		return
	}
	if _, err := os.Stat(c); err != nil {
		return
	}
	w.addPath(p, w.reads, what)
}

// nameOnly reports whether a program vouch has no handler for takes paths
// only to list them, test them, measure them or print their names, so an
// argument naming a secret (ls .env, test -f .env, du -sh ~/.ssh) shows
// nothing of its contents. Programs with a handler (stat, rm, chmod,
// touch, git) are read by it instead.
func nameOnly(name string) bool {
	switch name {
	case "ls", "dir", "vdir", "tree", "exa", "eza", "lsd", "du", "df", "test", "[", "echo", "basename", "dirname",
		"which", "whereis", "type", "hash", "pathchk", "namei", "lsattr", "getfacl", "getfattr", "setfattr", "xattr",
		"chflags", "lsof", "fuser", "true", "false", ":", "sleep", "kill", "exit", "return", "shift", "wait", "set",
		"shopt", "export", "local", "readonly", "declare", "typeset", "pwd", "dirs", "jobs", "fg", "bg", "disown",
		"umask", "ulimit", "trash", "trash-put", "rmtrash", "mktemp", "sync":
		return true
	case "ssh-add", "ssh-keygen":
		// They use a private key without showing it (ssh-keygen prints
		// the public half, a fingerprint), as ssh -i does, which is not
		// a read either.
		return true
	}
	return false
}
