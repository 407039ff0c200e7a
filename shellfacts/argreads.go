package shellfacts

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
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
	w.outputArgs(name, args)
	w.envReads(name)
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
			if v, ok := assignedValue(f); ok {
				// make F=.env, ENVFILE=.env: a program told a file's
				// path in a NAME=VALUE argument reads it as one told
				// it in a word does.
				w.readIfThere(v.s, name)
			}
		}
	}
	if mounter(name) {
		for _, src := range mountSources(args) {
			w.mountRead(src, name)
		}
	}
}

// assignedValue returns the VALUE of an argument written NAME=VALUE, NAME
// a shell variable's name (make's and many tools' variable settings). One
// only known at run time needs nothing more: its static tail, which
// readTail records, lies within VALUE.
func assignedValue(f field) (field, bool) {
	n, v, ok := strings.Cut(f.s, "=")
	if !f.known() || !ok || !isName(n) || v == "" {
		return field{}, false
	}
	return field{s: v, static: true, raw: v}, true
}

// mounter reports whether name is a container engine whose -v/--volume
// and --mount options bind a host path into a container (docker run,
// create, compose run; podman and nerdctl take the same options).
func mounter(name string) bool {
	switch name {
	case "docker", "podman", "nerdctl":
		return true
	}
	return false
}

// mountSources returns the host sides of the bind mounts among a
// container engine's arguments: the SRC of -v/--volume SRC:DST[:OPTS]
// (one part alone, -v /data, is a volume made inside the container and
// names no host path) and the source= (or src=) of --mount
// type=bind,source=SRC,target=DST. A mount shows the container, and so
// whatever runs in it, the whole file or directory, so its source is
// read. A source that is a volume's name names nothing on disk and is
// left out where it is read (mountRead). The options are looked for
// anywhere among the arguments: their value is a path or a volume either
// way, so a word taken for one that is not reads only what exists.
func mountSources(args []field) []field {
	var out []field
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() || !strings.HasPrefix(f.s, "-") {
			continue
		}
		var val field
		kind := ""
		switch name, v, eq := strings.Cut(f.s, "="); {
		case name == "-v" || name == "--volume" || name == "--mount":
			kind = name
			if eq {
				val = field{s: v, static: true, raw: v}
			} else if i+1 < len(args) {
				i++
				val = args[i]
			} else {
				continue
			}
		case strings.HasPrefix(f.s, "-v") && !strings.HasPrefix(f.s, "--"):
			// -v/src:/dst, the value attached.
			kind, val = "-v", field{s: f.s[2:], static: true, raw: f.s[2:]}
		default:
			continue
		}
		if kind == "--mount" {
			if s, ok := mountSource(val); ok {
				out = append(out, s)
			}
			continue
		}
		if s, ok := volumeSource(val); ok {
			out = append(out, s)
		}
	}
	return out
}

// volumeSource is SRC of a -v SRC:DST value. A value only known at run
// time whose last unknown part lies in SRC ("$D/.ssh:/k") gives its
// source as a word only known at run time ending in the static text up
// to the colon.
func volumeSource(v field) (field, bool) {
	if !v.known() && v.alt != "" {
		v = field{s: v.alt, static: true, raw: v.alt}
	}
	if v.known() {
		src, _, ok := strings.Cut(v.s, ":")
		if !ok || src == "" {
			return field{}, false
		}
		return field{s: src, static: true, raw: src}, true
	}
	before, ok := beforeLastUnknown(v.raw)
	if i := strings.IndexByte(v.tail, ':'); ok && i > 0 && !strings.Contains(before, ":") {
		return field{raw: v.raw, tail: v.tail[:i]}, true
	}
	return field{}, false
}

// mountSource is the source= (src=) of a --mount value, comma-separated
// KEY=VALUE pairs as docker reads them. In a value only known at run time
// whose last unknown part lies in the source pair
// (type=bind,source=$D/.ssh,target=/k), the source ends in the static
// text up to the next comma.
func mountSource(v field) (field, bool) {
	if !v.known() && v.alt != "" {
		v = field{s: v.alt, static: true, raw: v.alt}
	}
	if v.known() {
		for _, kv := range strings.Split(v.s, ",") {
			k, val, _ := strings.Cut(kv, "=")
			if (k == "source" || k == "src") && val != "" {
				return field{s: val, static: true, raw: val}, true
			}
		}
		return field{}, false
	}
	before, ok := beforeLastUnknown(v.raw)
	if !ok || v.tail == "" {
		return field{}, false
	}
	pair := before[strings.LastIndexByte(before, ',')+1:]
	if !strings.HasPrefix(pair, "source=") && !strings.HasPrefix(pair, "src=") {
		return field{}, false
	}
	tail, _, _ := strings.Cut(v.tail, ",")
	return field{raw: v.raw, tail: tail}, true
}

// beforeLastUnknown is a word's source text, quotes removed, before its
// last $ or backquote: where the part only known at run time that ends
// last begins. ok is false when there is none.
func beforeLastUnknown(raw string) (string, bool) { return beforeUnknown(raw, strings.LastIndexAny) }

// beforeFirstUnknown is a word's source text, quotes removed, before its
// first $ or backquote: the static start of a word only known at run
// time. With none, it is the whole text and ok is false.
func beforeFirstUnknown(raw string) (string, bool) { return beforeUnknown(raw, strings.IndexAny) }

func beforeUnknown(raw string, index func(s, chars string) int) (string, bool) {
	s := strings.NewReplacer(`"`, "", "'", "").Replace(raw)
	i := index(s, "$`")
	if i < 0 {
		return s, false
	}
	return s[:i], true
}

// mountRead records a bind mount's source as read when it exists (a
// volume's name does not), or the static tail of one only known at run
// time.
func (w *walker) mountRead(src field, name string) {
	if !src.known() {
		w.readTail(src)
		return
	}
	w.readIfThere(src.s, name)
}

// envReads records the files the environment of a program vouch does not
// model names (ENV_FILE=.env node app.js, export F=~/.ssh/id_rsa; tool):
// such a program is as likely to be told a file's path in a variable as in
// an argument. Only a value naming an existing regular file counts: a
// directory in the environment (HOME, GOPATH, TMPDIR, PATH's one entry) is
// a place to work in, not an input, and a value that is not a path (a
// flag list, a list of directories) names nothing on disk.
func (w *walker) envReads(name string) {
	seen := map[string]bool{}
	look := func(k, v string) {
		if v == "" || seen[v] || w.envDefault(k, v) {
			return
		}
		seen[v] = true
		w.readIfThereAnd(v, name, func(fi os.FileInfo) bool { return fi.Mode().IsRegular() })
	}
	for _, kv := range w.callEnv {
		if k, v, ok := strings.Cut(kv, "="); ok {
			look(k, v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(w.exported)) {
		look(k, w.exported[k])
	}
}

// envDefaultPath returns, for a variable that points a tool at a file
// it reads from the home directory anyway, that default (relative to the
// home).
func envDefaultPath(k string) (string, bool) {
	switch k {
	case "KUBECONFIG":
		return ".kube/config", true
	case "NPM_CONFIG_USERCONFIG", "npm_config_userconfig":
		return ".npmrc", true
	case "AWS_SHARED_CREDENTIALS_FILE":
		return ".aws/credentials", true
	case "AWS_CONFIG_FILE":
		return ".aws/config", true
	case "NETRC":
		return ".netrc", true
	}
	return "", false
}

// envDefault reports whether variable k set to v names the file the
// programs reading k read when it is not set (KUBECONFIG=~/.kube/config):
// setting it changes nothing they read, and a program vouch does not model
// reading its default configuration is not counted as a read, so neither
// is naming that default. Any other value (KUBECONFIG=.env) still counts.
func (w *walker) envDefault(k, v string) bool {
	def, ok := envDefaultPath(k)
	if !ok || w.opts.Home == "" || w.varForgotten("HOME") {
		return false
	}
	c, err := w.canonical(v)
	if err != nil {
		return false
	}
	d, err := w.canonical(filepath.Join(w.opts.Home, def))
	return err == nil && c == d
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
	w.readIfThereAnd(p, what, nil)
}

// readIfThereAnd is readIfThere for what ok, when not nil, accepts.
func (w *walker) readIfThereAnd(p, what string, ok func(os.FileInfo) bool) {
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
	fi, err := os.Stat(c)
	if err != nil || (ok != nil && !ok(fi)) {
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
