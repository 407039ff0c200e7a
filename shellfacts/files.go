package shellfacts

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/vouch-dev/vouch/canonpath"
	"github.com/vouch-dev/vouch/internal/lazyre"
)

// handler records what one program does with its arguments.
type handler func(w *walker, c *call)

// handlerFor returns the handler for a program name, or nil for a program
// whose arguments say nothing Parse knows how to read.
func handlerFor(name string) handler {
	switch name {
	// Programs that read every operand.
	case "cat", "tac", "less", "more", "most", "bat", "batcat", "strings", "base32", "wc", "md5sum", "sha1sum",
		"sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "file", "zcat", "zless", "zmore",
		"bzcat", "xzcat", "zstdcat", "lzcat", "expand", "unexpand", "rev", "diff", "cmp", "comm", "paste", "join",
		"tsort", "look", "pg", "vimdiff", "diff3", "sdiff", "colordiff", "icdiff", "view", "readlink":
		return readAll(optSpec{long: []string{"files0-from", "label", "line-format", "ignore-matching-lines"}, withValue: "I"})
	case "head", "tail":
		return readAll(optSpec{withValue: "ncs", long: []string{"lines", "bytes", "pid", "sleep-interval", "max-unchanged-stats"}})
	case "nl":
		return readAll(optSpec{withValue: "bdfhilnpsvw", long: []string{"body-numbering", "section-delimiter", "footer-numbering", "header-numbering", "line-increment", "join-blank-lines", "number-format", "number-separator", "starting-line-number", "number-width"}})
	case "cut":
		return readAll(optSpec{withValue: "bcdf", long: []string{"bytes", "characters", "delimiter", "fields", "output-delimiter"}})
	case "fold", "fmt":
		return readAll(optSpec{withValue: "wgp", long: []string{"width", "goal", "prefix"}})
	case "column":
		return readAll(optSpec{withValue: "cstoNOERHWdl", long: []string{"output-width", "separator", "output-separator", "table-columns", "table-name"}})
	case "od", "hexdump", "hd":
		return readAll(optSpec{withValue: "AjNtwesnf", long: []string{"address-radix", "skip-bytes", "read-bytes", "format", "width"}})
	case "base64", "basenc":
		return readAll(optSpec{withValue: "w", long: []string{"wrap"}})
	case "xxd":
		return readThenWrite(optSpec{withValue: "cglsoC", long: []string{"cols", "groupsize", "len", "seek"}})
	case "uniq":
		return readThenWrite(optSpec{withValue: "fsw", long: []string{"skip-fields", "skip-chars", "check-chars"}})
	case "iconv":
		return readAllOut(optSpec{withValue: "fto", long: []string{"from-code", "to-code", "output"}}, "-o", "--output")
	case "sort":
		return sortFiles
	case "shuf":
		return readAllOut(optSpec{withValue: "nio", long: []string{"head-count", "input-range", "output", "random-source"}}, "-o", "--output")
	case "vi", "vim", "nvim", "nano", "emacs", "ed", "ex", "pico", "micro", "joe", "mcedit", "sudoedit":
		return editFiles
	case "grep", "egrep", "fgrep", "zgrep", "rgrep", "rg", "ag", "ack", "ack-grep", "git-grep":
		return grepFiles
	case "sed", "gsed":
		return sedFiles
	case "awk", "gawk", "mawk", "nawk", "busybox-awk":
		return awkFiles
	case "jq", "gojq", "jaq":
		return jqFiles
	case "yq":
		return yqFiles
	case "sponge":
		return spongeFiles
	case "rename", "file-rename", "prename", "perl-rename":
		return renameFiles
	case "source", ".":
		return sourceFile
	case "cp", "install":
		return copyFiles
	case "mv":
		return moveFiles
	case "ln", "link":
		return linkFiles
	case "stat", "realpath":
		return nameOnlyFiles
	case "trash", "trash-put", "rmtrash", "gio":
		return trashFiles
	case "make", "gmake":
		return makeArgs
	case "just":
		return justArgs
	case "task", "go-task":
		return taskArgs
	case "cmake":
		return cmakeArgs
	case "mount":
		return mountFiles
	case "umount":
		return umountFiles
	case "rm", "rmdir", "unlink", "srm":
		return removeFiles
	case "shred", "wipe":
		return shredFiles
	case "touch":
		return writeAllWithRef(optSpec{withValue: "dtr", long: []string{"date", "reference", "time"}})
	case "mkdir", "mkfifo":
		return writeAllWithRef(optSpec{withValue: "mZ", long: []string{"mode", "context"}})
	case "truncate", "fallocate":
		return writeAllWithRef(optSpec{withValue: "srlo", long: []string{"size", "reference", "length", "offset"}})
	case "tee":
		return writeAllWithRef(optSpec{})
	case "dd":
		return ddFiles
	case "chmod":
		return chmodFiles
	case "chown", "chgrp":
		return chownFiles
	case "chattr":
		return chattrFiles
	case "setfacl":
		return setfaclFiles
	case "patch":
		return patchFiles
	case "tar", "bsdtar", "gtar":
		return tarFiles
	case "zip":
		return zipFiles
	case "unzip":
		return unzipFiles
	case "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "compress", "uncompress":
		return compressFiles
	case "openssl":
		return opensslFiles
	case "gpg", "gpg2":
		return readAllOut(optSpec{withValue: "oruRs", long: []string{"output", "recipient", "local-user", "default-key", "homedir", "passphrase-file", "keyring"}}, "-o", "--output")
	case "mkfs", "mke2fs", "mkswap", "wipefs", "fdisk", "sfdisk", "cfdisk", "parted", "blkdiscard", "badblocks", "sgdisk", "gdisk":
		return writeDevices
	case "find":
		return findFiles
	case "read", "unset", "mapfile", "readarray", "getopts", "printf", "let":
		return forgetVars
	case "cd", "pushd":
		return changeDir
	case "popd":
		return popDir
	case "set":
		return setOptions
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "rbash", "csh", "tcsh":
		return shell
	case "eval":
		return evalArgs
	case "su", "runuser":
		return suCommand
	case "vouch":
		return vouchCommand
	case "newgrp":
		return newgrpShell
	case "sg":
		return sgCommand
	case "trap":
		return trapCommand
	case "alias":
		return aliasValues
	case "watch":
		return watchCommand
	case "python", "python2", "python3", "node", "nodejs", "perl", "ruby", "php", "deno", "bun", "Rscript", "lua", "tclsh":
		return interpreter
	case "curl":
		return curlArgs
	case "wget", "wget2":
		return wgetArgs
	case "http", "https", "xh", "xhs", "httpie":
		return httpieArgs
	case "nc", "ncat", "netcat", "telnet", "socat", "openssl-s_client":
		return netcatArgs
	case "ssh", "mosh", "autossh":
		return sshArgs
	case "scp":
		return scpArgs
	case "sftp":
		return sftpArgs
	case "rsync":
		return rsyncArgs
	case "ftp", "lftp", "tftp":
		return ftpArgs
	case "git":
		return gitArgs
	case "tmux":
		return tmuxArgs
	case "gh":
		return ghArgs
	case "aws":
		return awsArgs
	case "gsutil":
		return gsutilArgs
	case "gcloud":
		return gcloudArgs
	case "rclone":
		return rcloneArgs
	case "crontab":
		return crontabFiles
	case "ps":
		return psOptions
	case "split", "csplit":
		return splitFiles
	case "pr":
		return prFiles
	case "ptx":
		return ptxFiles
	case "uuencode":
		return uuencodeFiles
	case "dos2unix", "unix2dos", "mac2unix", "unix2mac":
		return dos2unixFiles
	case "at", "batch":
		return atJob
	case "apply_patch", "applypatch":
		return applyPatch
	case "expect":
		return expectScript
	case "mail", "mailx", "s-nail", "sendmail", "mutt", "msmtp":
		return mailArgs
	case "sqlite3":
		return sqliteArgs
	case "osascript":
		return osascript
	case "cargo":
		return cargoCommand
	}
	if strings.HasPrefix(name, "mkfs.") {
		return writeDevices
	}
	if strings.HasPrefix(name, "python3.") || strings.HasPrefix(name, "python2.") || name == "pypy" || strings.HasPrefix(name, "pypy3") {
		return interpreter
	}
	return nil
}

// readAll: every operand is read.
func readAll(spec optSpec) handler {
	return func(w *walker, c *call) {
		p := parseOpts(c.args, spec)
		w.pathsTo(p.operands, w.reads, c.name)
		for _, f := range p.values("--files0-from") {
			w.path(f, w.reads, c.name)
		}
	}
}

// readAllOut: every operand is read, the named options' values written.
func readAllOut(spec optSpec, out ...string) handler {
	return func(w *walker, c *call) {
		p := parseOpts(c.args, spec)
		w.pathsTo(p.operands, w.reads, c.name)
		w.pathsTo(p.values(out...), w.writes, c.name)
		w.pathsTo(p.values("--random-source", "--passphrase-file", "--keyring"), w.reads, c.name)
	}
}

// readThenWrite: the first operand is read, the second (if any) written.
func readThenWrite(spec optSpec) handler {
	return func(w *walker, c *call) {
		p := parseOpts(c.args, spec)
		if len(p.operands) > 0 {
			w.path(p.operands[0], w.reads, c.name)
		}
		if len(p.operands) > 1 {
			w.path(p.operands[1], w.writes, c.name)
		}
	}
}

// writeAllWithRef: every operand is written; a --reference file is read.
func writeAllWithRef(spec optSpec) handler {
	return func(w *walker, c *call) {
		p := parseOpts(c.args, spec)
		w.pathsTo(p.operands, w.writes, c.name)
		w.pathsTo(p.values("-r", "--reference"), w.reads, c.name)
	}
}

func (w *walker) pathsTo(fs []field, set map[string]bool, what string) {
	for _, f := range fs {
		w.path(f, set, what)
	}
}

func sortFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "ktoSTy", long: []string{"key", "field-separator", "output", "buffer-size", "temporary-directory", "files0-from", "parallel", "batch-size", "compress-program", "random-source"}})
	w.pathsTo(p.operands, w.reads, c.name)
	w.pathsTo(p.values("-o", "--output"), w.writes, c.name)
	w.pathsTo(p.values("--files0-from", "--random-source"), w.reads, c.name)
	for _, prog := range p.values("--compress-program") {
		w.nestedString(prog, "sort --compress-program")
	}
}

func editFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "cdiorsSTtuUwW", long: []string{"cmd", "servername"}})
	switch c.name {
	case "vi", "vim", "nvim", "ex":
		vimCommands(w, c, p)
		// +CMD is a command, not a file.
		files := p.operands[:0:0]
		for _, f := range p.operands {
			if !f.known() || !strings.HasPrefix(f.s, "+") {
				files = append(files, f)
			}
		}
		p.operands = files
	default:
		if len(p.values("-c", "--cmd")) > 0 {
			w.incomplete(c.name + " runs editor commands, which may run shell commands")
		}
	}
	w.pathsTo(p.operands, w.reads, c.name)
	w.pathsTo(p.operands, w.writes, c.name)
}

// grepFiles: the first operand is the pattern unless -e or -f gave one;
// the rest are files or directories, and a recursive search without any
// searches the current directory.
func grepFiles(w *walker, c *call) {
	spec := optSpec{
		withValue: "efABCDdmgtTjMr",
		long: []string{"regexp", "file", "after-context", "before-context", "context", "max-count", "include", "exclude",
			"exclude-dir", "exclude-from", "label", "color", "colour", "binary-files", "devices", "directories",
			"group-separator", "glob", "iglob", "type", "type-not", "type-add", "type-clear", "max-columns", "threads",
			"encoding", "replace", "pre", "pre-glob", "sort", "sortr", "ignore-file", "max-depth", "max-filesize",
			"path-separator", "colors", "context-separator", "field-match-separator", "engine", "dfa-size-limit",
			"regex-size-limit", "ignore-dir", "pager"},
	}
	if c.name != "rg" && c.name != "ag" && c.name != "ack" && c.name != "ack-grep" {
		// grep's -r means recursive, not replace; -T and -j are flags.
		spec.withValue = "efABCDdm"
	}
	p := parseOpts(c.args, spec)
	files := p.operands
	if !p.has("-e", "--regexp", "-f", "--file") && len(files) > 0 {
		files = files[1:]
	}
	w.pathsTo(p.values("-f", "--file", "--exclude-from", "--ignore-file"), w.reads, c.name)
	if len(files) == 0 {
		recursive := p.has("-r", "-R", "--recursive", "--dereference-recursive") || c.name == "rg" || c.name == "ag" || c.name == "ack" || c.name == "ack-grep" || c.name == "rgrep"
		if recursive && w.stdinIsTerminalLike(c) {
			w.addPath(".", w.reads, c.name)
		}
		return
	}
	w.pathsTo(files, w.reads, c.name)
	w.grepListing(c, p, files)
}

// grepListing notes what grep -lZ or -LZ prints as a listing (see
// inputListing): names of the files given or of files below the
// directories -r searches, each ended by a NUL. -R follows links out of
// them, and a - operand is stdin, named "(standard input)". The paths
// are taken as the operands themselves (w.deletes for a remover): a
// superset of the files below them.
func (w *walker) grepListing(c *call, p parsed, files []field) {
	switch c.name {
	case "grep", "egrep", "fgrep":
	default:
		return
	}
	if !p.has("-l", "--files-with-matches", "-L", "--files-without-match") || !p.has("-Z", "--null") ||
		p.has("-R", "--dereference-recursive") || len(p.unknown) > 0 {
		return
	}
	if len(files) == 0 {
		if !p.has("-r", "--recursive") || !w.stdinIsTerminalLike(c) {
			return
		}
		files = []field{{s: ".", static: true, raw: "."}}
	}
	w.noteListing(files, w.deletes, nil)
}

// stdinIsTerminalLike reports whether a searcher with no paths searches
// the directory rather than its input: it does unless something is piped
// or redirected in.
func (w *walker) stdinIsTerminalLike(c *call) bool {
	if w.facts.Commands[c.idx].PipeFrom != "" {
		return false
	}
	for _, r := range c.redirs {
		if r.N == nil || r.N.Value == "0" {
			switch r.Op.String() {
			case "<", "<<", "<<-", "<<<", "<>":
				return false
			}
		}
	}
	return true
}

// sedSpec is GNU sed's; getopt_long takes any unambiguous prefix of a
// long option (sed --in is --in-place).
var sedSpec = optSpec{
	withValue:    "efl",
	long:         []string{"expression", "file", "line-length"},
	longOptional: []string{"in-place"},
	longFlags: []string{"quiet", "silent", "debug", "follow-symlinks", "posix", "regexp-extended", "separate", "sandbox", "unbuffered",
		"null-data", "zero-terminated", "binary", "help", "version"},
	gnu: true,
}

// sedFiles: the script is the first operand unless -e or -f gave one; -i
// edits the files in place.
func sedFiles(w *walker, c *call) {
	p := parseOpts(c.args, sedSpec)
	w.unknownOpts(c.name, p)
	files := p.operands
	if !p.has("-e", "--expression", "-f", "--file") && len(files) > 0 {
		files = files[1:]
	}
	w.pathsTo(p.values("-f", "--file"), w.reads, c.name)
	w.pathsTo(files, w.reads, c.name)
	if p.has("-i", "--in-place") {
		w.pathsTo(files, w.writes, c.name)
	}
	scripts := p.values("-e", "--expression")
	if !p.has("-e", "--expression", "-f", "--file") && len(p.operands) > 0 {
		scripts = p.operands[:1]
	}
	for _, s := range scripts {
		w.sedScript(s)
	}
}

// sedCommand finds sed's file commands: r/R FILE reads, w/W FILE and the
// s///w FILE flag write, and e (or the s///e flag) runs a command. It is a
// best-effort reading of common one-line scripts, not a sed parser.
var sedCommand = lazyre.New(`(?:^|[;\n{}]|[0-9$/]\s*)\s*([rRwW])\s+([^;\n}]+)|s/(?:[^/\\]|\\.)*/(?:[^/\\]|\\.)*/[gpiImM0-9]*([we])\s*([^;\n}]*)`)

func (w *walker) sedScript(f field) {
	if !f.known() {
		w.incomplete("sed script that is not static")
		return
	}
	for _, m := range sedCommand().FindAllStringSubmatch(f.s, 64) {
		switch {
		case m[1] == "r" || m[1] == "R":
			w.addPath(strings.TrimSpace(m[2]), w.reads, "sed r")
		case m[1] == "w" || m[1] == "W":
			w.addPath(strings.TrimSpace(m[2]), w.writes, "sed w")
		case m[3] == "w" && strings.TrimSpace(m[4]) != "":
			w.addPath(strings.TrimSpace(m[4]), w.writes, "sed s///w")
		case m[3] == "e":
			// The pattern space, once substituted, runs as a shell
			// command: text from the input.
			w.incomplete("sed script runs a command")
			w.unknownCode("sed s///e: runs the substituted line as a command")
		}
	}
}

// awkSpec is gawk's; getopt_long takes any unambiguous prefix of a long
// option (gawk --inc inplace is --include inplace). Other awks know
// fewer long options: reading theirs as gawk's at worst finds more.
var awkSpec = optSpec{
	withValue:    "fvFEile",
	long:         []string{"file", "assign", "field-separator", "exec", "include", "load", "source"},
	longOptional: []string{"dump-variables", "debug", "lint", "pretty-print", "profile"},
	longFlags: []string{"characters-as-bytes", "traditional", "compat", "copyright", "gen-pot", "help", "usage", "no-optimize",
		"non-decimal-data", "optimize", "posix", "re-interval", "sandbox", "use-lc-numeric", "version", "csv", "bignum", "lint-old",
		"trace", "persist"},
	gnu: true,
}

// awkFiles: the program is the first operand unless -f gave one; operands
// of the form name=value are assignments, not files.
func awkFiles(w *walker, c *call) {
	p := parseOpts(c.args, awkSpec)
	w.unknownOpts(c.name, p)
	files := p.operands
	sources := p.values("-e", "--source")
	for _, f := range sources {
		// gawk -e/--source PROGRAM-TEXT
		w.awkProgram(f)
	}
	if !p.has("-f", "--file", "-E", "--exec") && len(sources) == 0 && len(files) > 0 {
		w.awkProgram(files[0])
		files = files[1:]
	}
	w.pathsTo(p.values("-f", "--file", "-E", "--exec"), w.reads, c.name)
	// gawk -i inplace (the library gawk finds in AWKPATH) rewrites each
	// file it reads, as sed -i does.
	inplace := false
	for _, f := range p.values("-i", "--include") {
		if f.known() && (f.s == "inplace" || f.s == "inplace.awk") {
			inplace = true
			continue
		}
		w.path(f, w.reads, c.name)
	}
	for _, f := range files {
		if f.known() {
			if name, _, ok := strings.Cut(f.s, "="); ok && isName(name) {
				continue
			}
		}
		w.path(f, w.reads, c.name)
		if inplace {
			w.path(f, w.writes, c.name+" -i inplace")
		}
	}
}

// awkRedirect finds output redirections to fixed files in an awk program
// (awkCommands, the commands it runs).
var (
	awkRedirect = lazyre.New(`>>?\s*"([^"\n]{1,1000})"`)
	awkReads    = lazyre.New(`getline\s*<\s*"([^"\n]{1,1000})"`)
)

func (w *walker) awkProgram(f field) {
	if !f.known() {
		w.incomplete("awk program that is not static")
		return
	}
	for _, m := range awkRedirect().FindAllStringSubmatch(f.s, 64) {
		w.addPath(m[1], w.writes, "awk")
	}
	for _, m := range awkReads().FindAllStringSubmatch(f.s, 64) {
		w.addPath(m[1], w.reads, "awk")
	}
	w.awkCommands(f.s, "awk")
}

// jqFiles: the filter comes first unless --from-file gave it; --arg and
// friends take two values.
func jqFiles(w *walker, c *call) {
	var files []field
	haveFilter := false
	args := c.args
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() || !strings.HasPrefix(f.s, "-") || f.s == "-" {
			if !haveFilter {
				haveFilter = true
				continue
			}
			files = append(files, f)
			continue
		}
		switch f.s {
		case "--arg", "--argjson":
			i += 2
		case "--slurpfile", "--rawfile":
			if i+2 < len(args) {
				w.path(args[i+2], w.reads, c.name)
			}
			i += 2
		case "-f", "--from-file":
			if i+1 < len(args) {
				w.path(args[i+1], w.reads, c.name)
			}
			haveFilter = true
			i++
		case "--indent", "-L", "--tab-width":
			i++
		case "--args", "--jsonargs":
			i = len(args)
		}
	}
	w.pathsTo(files, w.reads, c.name)
}

func sourceFile(w *walker, c *call) {
	if len(c.args) == 0 {
		return
	}
	f := c.args[0]
	if f.from != "" {
		w.setPipeFrom(c, f.from)
	}
	if f.known() && w.fdScript(c, f) {
		// source /dev/stdin <<< '...', source /dev/stdin < <(curl x),
		// echo ... | . /dev/fd/0
		return
	}
	if !f.known() && strings.HasPrefix(f.raw, "<(") && !scriptSource(f.from) {
		// source <(echo ...): the script is another program's output,
		// only known when it runs (source <(curl x) is reported as
		// curl x | source, for the network rules).
		w.incomplete(c.name + " of a script that is not static")
		w.unknownCode(c.name + " " + f.raw)
	}
	w.runWritten(c, f, runShell)
	w.path(f, w.reads, c.name)
	// The script's positional parameters (source x.sh .env).
	w.unmodelledArgs(c.name, c.args[1:])
}

func (w *walker) setPipeFrom(c *call, from string) {
	if cmd := &w.facts.Commands[c.idx]; cmd.PipeFrom == "" {
		cmd.PipeFrom = from
	}
}

// copyDest records where copying or moving srcs to dest writes: below
// dest when it is an existing directory (or -t named one), else dest. A
// recursive copy also records what it may replace as a whole (see tree):
// dest itself when it is created as the copy or when a source's contents
// go into it (src/. for any cp; src/ for BSD cp, which macOS has), else
// the entry named after each source that is a directory below it.
func (w *walker) copyDest(c *call, srcs []field, dest field, intoDir, recursive bool) {
	if !dest.known() {
		w.path(dest, w.writes, c.name)
		return
	}
	d, err := w.canonical(dest.s)
	if err != nil {
		w.path(dest, w.writes, c.name)
		return
	}
	if !intoDir {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			intoDir = true
		}
	}
	if !intoDir {
		w.writes[d] = true
		if recursive {
			w.tree(d, c.name)
		}
		return
	}
	for _, s := range srcs {
		if !s.known() {
			w.incomplete("dynamic source of " + c.name)
			w.writes[d] = true
			if recursive {
				w.tree(d, c.name)
			}
			continue
		}
		target := filepath.Join(d, filepath.Base(s.s))
		w.addPath(target, w.writes, c.name)
		switch {
		case recursive && strings.HasSuffix(s.s, "/"):
			w.tree(d, c.name)
		case recursive && !w.isFile(s.s):
			w.tree(target, c.name)
		}
	}
}

// isFile reports whether p names something that exists and is not a
// directory: a recursive copy of it copies one file, not a tree. A source
// that does not exist yet (made earlier on the command line) may be one.
func (w *walker) isFile(p string) bool {
	cp, err := w.canonical(p)
	if err != nil {
		return false
	}
	st, err := os.Stat(cp)
	return err == nil && !st.IsDir()
}

func (w *walker) canonical(p string) (string, error) {
	if strings.HasPrefix(p, "~") {
		p = "./" + p
	}
	return w.resolve(p, false)
}

var copySpec = optSpec{withValue: "StgmoZ", long: []string{"suffix", "target-directory", "group", "mode", "owner", "context", "strip-program"}}

// installSpec and mvSpec are GNU install's and mv's; getopt_long takes
// any unambiguous prefix of a long option (install --targ is
// --target-directory).
var installSpec = optSpec{
	withValue:    "StgmoZ",
	long:         []string{"suffix", "target-directory", "group", "mode", "owner", "strip-program"},
	longOptional: []string{"backup", "context"},
	longFlags:    []string{"compare", "directory", "preserve-timestamps", "strip", "no-target-directory", "verbose", "preserve-context", "debug", "help", "version"},
	gnu:          true,
}

var mvSpec = optSpec{
	withValue:    "St",
	long:         []string{"suffix", "target-directory"},
	longOptional: []string{"backup", "update"},
	longFlags: []string{"debug", "exchange", "force", "interactive", "no-clobber", "no-copy", "strip-trailing-slashes", "no-target-directory",
		"verbose", "context", "help", "version"},
	gnu: true,
}

// cpLong are GNU cp's long options; it accepts any unambiguous prefix of
// one (`cp --li` is `cp --link`, `cp --rec` is `cp --recursive`).
var cpLong = []string{"archive", "attributes-only", "backup", "copy-contents", "debug", "dereference", "force",
	"interactive", "link", "no-clobber", "no-dereference", "preserve", "no-preserve", "parents", "recursive",
	"reflink", "remove-destination", "sparse", "strip-trailing-slashes", "symbolic-link", "suffix",
	"target-directory", "no-target-directory", "update", "verbose", "keep-directory-symlink", "one-file-system",
	"context", "help", "version"}

var cpSpec = optSpec{withValue: "St", long: []string{"suffix", "target-directory"}, abbrev: cpLong}

func copyFiles(w *walker, c *call) {
	spec := installSpec
	if c.name == "cp" {
		spec = cpSpec
	}
	p := parseOpts(c.args, spec)
	w.unknownOpts(c.name, p)
	if c.name == "install" && p.has("-d", "--directory") {
		w.pathsTo(p.operands, w.writes, c.name)
		return
	}
	srcs, dest, into := splitDest(p)
	w.pathsTo(srcs, w.reads, c.name)
	recursive := p.has("-r", "-R", "-a", "--recursive", "--archive")
	if c.name == "cp" && p.has("-l", "--link") {
		// cp -l makes hard links instead of copies: each source can
		// then be written under its new name.
		w.hardLinked(srcs, recursive, c.name)
	}
	if dest != nil {
		w.copyDest(c, srcs, *dest, into, recursive)
	}
	if c.name != "cp" {
		return
	}
	deref := !p.has("-T", "--no-target-directory")
	switch {
	case p.has("-s", "--symbolic-link"):
		// cp -s makes symbolic links to the sources, named as they are
		// written (a recursive one makes a tree of them: taken as a
		// link to the whole source).
		w.symlinked(srcs, dest, into, deref, false, c.name)
	case p.has("-P", "-d", "--no-dereference", "-a", "--archive") ||
		recursive && !p.has("-L", "--dereference", "-H"):
		// Without following links, cp copies a link as a link.
		w.carryLinks(srcs, dest, into, deref)
	}
}

// hardLinked records the sources of hard links. A hard link is a second
// name for the same file, not a copy: whatever the new name allows, a
// later write through it (`ln .vouch/guard.yaml n && echo x > n`, or in
// the next tool call) or a read (`ln ~/.ssh/id_rsa k`, then `cat k`), is
// done to the source. So each source counts as read and written here,
// where its real name is still known. A recursive hard-link copy (cp -rl)
// links every file below a source directory: the directory is a tree
// written (see tree).
func (w *walker) hardLinked(srcs []field, recursive bool, what string) {
	w.pathsTo(srcs, w.reads, what)
	w.pathsTo(srcs, w.writes, what)
	if !recursive {
		return
	}
	for _, s := range srcs {
		if s.known() && !w.isFile(s.s) {
			w.tree(s.s, what)
		}
	}
}

func moveFiles(w *walker, c *call) {
	spec := copySpec
	if c.name == "mv" {
		spec = mvSpec
	}
	p := parseOpts(c.args, spec)
	w.unknownOpts(c.name, p)
	srcs, dest, into := splitDest(p)
	w.pathsTo(srcs, w.reads, c.name)
	// rename(2) moves a symbolic link, not its target.
	w.removeTo(srcs, w.deletes, true, c.name)
	if dest != nil {
		w.copyDest(c, srcs, *dest, into, false)
	}
	w.carryLinks(srcs, dest, into, !p.has("-T", "--no-target-directory"))
}

// splitDest separates sources from the destination of cp, mv, install, ln.
func splitDest(p parsed) (srcs []field, dest *field, into bool) {
	if t := p.values("-t", "--target-directory"); len(t) > 0 {
		return p.operands, &t[len(t)-1], true
	}
	if len(p.operands) < 2 {
		return p.operands, nil, false
	}
	last := p.operands[len(p.operands)-1]
	return p.operands[:len(p.operands)-1], &last, len(p.operands) > 2
}

// lnLong are GNU ln's long options; it accepts any unambiguous prefix of
// one (`ln --sym` is `ln --symbolic`).
var lnLong = []string{"backup", "directory", "force", "interactive", "logical", "no-dereference", "physical",
	"relative", "symbolic", "suffix", "target-directory", "no-target-directory", "verbose", "help", "version"}

var lnSpec = optSpec{withValue: "St", long: []string{"suffix", "target-directory"}, abbrev: lnLong}

// linkFiles: ln and link. A symbolic link (ln -s) only names its target:
// making it neither reads nor writes the target, and what is later done
// through the link is resolved through it (see symlinked). A hard link (ln
// without -s, link) is another name for its source, which is then read and
// written (see hardLinked).
func linkFiles(w *walker, c *call) {
	p := parseOpts(c.args, lnSpec)
	if c.name == "link" {
		// link FILE1 FILE2: no options but --help and --version.
		p = parsed{operands: c.args}
	}
	targets, dest, into := splitDest(p)
	symbolic := c.name == "ln" && p.has("-s", "--symbolic")
	if !symbolic {
		w.hardLinked(targets, false, c.name)
	}
	if dest == nil {
		// ln TARGET makes a link named after it in the current directory.
		for _, t := range targets {
			if t.known() {
				w.addPath(filepath.Base(t.s), w.writes, c.name)
			} else {
				w.incomplete("dynamic target of ln")
			}
		}
	} else {
		w.copyDest(c, targets, *dest, into, false)
	}
	if symbolic {
		// After the writes above: they name the link, not its target.
		deref := !p.has("-n", "--no-dereference", "-T", "--no-target-directory")
		w.symlinked(targets, dest, into, deref, p.has("-r", "--relative"), c.name)
	}
}

// maxMadeLinks bounds the links one Parse follows (see symlinked).
const maxMadeLinks = 256

// linkPlaces returns where links to (or copies of) srcs are made, given
// the destination: below it when it is a directory (into, -t, or one that
// exists, or one the command line made, unless deref is false: ln -n, -T),
// else at it; without a destination, in the current directory. A place
// that is not static is left out.
func (w *walker) linkPlaces(src field, dest *field, into, deref bool) []string {
	if dest != nil && !dest.known() {
		return nil
	}
	below := func() []string {
		if !src.known() {
			return nil
		}
		base := filepath.Base(src.s)
		if base == "/" || base == "." || base == ".." {
			return nil
		}
		if dest == nil {
			return []string{base}
		}
		return []string{dest.s + "/" + base}
	}
	switch {
	case dest == nil || into:
		return below()
	case deref && w.isDir(dest.s):
		return below()
	case deref && w.madeHere(dest.s):
		// A directory made earlier in the command line (mkdir d &&
		// ln -s /etc d): not on disk yet, so both are possible.
		return append(below(), dest.s)
	}
	return []string{dest.s}
}

// madeHere reports whether the command line wrote p before (mkdir, a
// redirection): it may be a directory when a later command runs.
func (w *walker) madeHere(p string) bool {
	cp, err := w.canonical(p)
	return err == nil && w.writes[cp]
}

func (w *walker) isDir(p string) bool {
	cp, err := w.canonical(p)
	if err != nil {
		return false
	}
	st, err := os.Stat(cp)
	return err == nil && st.IsDir()
}

// symlinked records the symbolic links ln -s or cp -s makes, each with
// the target as written (ln -r: the target's canonical path, as the link
// will reach it), so that the later paths of the command line that go
// through one resolve through its target as they will once it exists
// (`ln -s /etc e && rm -rf e/` removes /etc; see canonpath.Links). A target
// only known at run time leaves the paths through the link unresolved.
func (w *walker) symlinked(targets []field, dest *field, into, deref, relative bool, what string) {
	for _, t := range targets {
		target := ""
		if t.known() {
			if t.s == "" {
				continue // refused by symlink(2)
			}
			target = t.s
			if relative {
				abs, err := w.canonical(target)
				if err != nil {
					abs = ""
				}
				target = abs
			}
		}
		w.madeLinks(w.linkPlaces(t, dest, into, deref), target, what)
	}
}

// madeLinks records that symbolic links to target are made at places.
func (w *walker) madeLinks(places []string, target, what string) {
	for _, at := range places {
		if strings.HasPrefix(at, "~") {
			at = "./" + at
		}
		key, err := w.resolve(at, true)
		if err != nil {
			continue
		}
		if len(w.links) >= maxMadeLinks {
			// Later paths through the link would not be followed.
			w.incomplete(fmt.Sprintf("%s: more than %d links made", what, maxMadeLinks))
			w.unknownCode(fmt.Sprintf("%s: more than %d links made: paths through the rest are not followed", what, maxMadeLinks))
			return
		}
		if w.links == nil {
			w.links = canonpath.Links{}
		}
		w.links[key] = target
	}
}

// carryLinks: mv, and cp when it copies a link as a link (-P, -d, -a, or
// -r without -L), put each source that is a symbolic link, on disk or
// made earlier in the command line, at the destination too, with the same
// target: `ln -s /etc e && mv e f && rm -rf f/` removes /etc.
func (w *walker) carryLinks(srcs []field, dest *field, into, deref bool) {
	if dest == nil || !dest.known() {
		return
	}
	for _, s := range srcs {
		if !s.known() {
			continue
		}
		p := s.s
		if strings.HasPrefix(p, "~") {
			p = "./" + p
		}
		key, err := w.resolve(p, true)
		if err != nil {
			continue
		}
		target, ok := w.links[key]
		if !ok {
			fi, err := os.Lstat(key)
			if err != nil || fi.Mode()&os.ModeSymlink == 0 {
				continue
			}
			if target, err = os.Readlink(key); err != nil {
				continue
			}
		}
		w.madeLinks(w.linkPlaces(s, dest, into, deref), target, "link copied")
	}
}

// rmShort names rm's short options by their long form.
var rmShort = map[string]string{"-r": "--recursive", "-R": "--recursive", "-f": "--force", "-i": "--interactive", "-I": "--interactive", "-d": "--dir", "-v": "--verbose", "-p": "--parents"}

// rmLong are GNU rm's long options; it accepts any unambiguous prefix
// of one (`rm --rec` is `rm --recursive`).
var rmLong = []string{"--dir", "--force", "--help", "--interactive", "--no-preserve-root", "--one-file-system", "--preserve-root", "--recursive", "--verbose", "--version"}

func removeFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{})
	opts := normOptions(p, rmShort)
	for i, o := range opts {
		opts[i] = expandLong(o, rmLong)
	}
	w.setOptions(c, opts)
	w.removeTo(p.operands, w.deletes, true, c.name)
	w.fromFind(p.operands, c.name)
}

// fromFind: a remover run by find -exec with the match ({}) as an operand
// removes what find finds below its starting points, which Parse records
// in their place.
func (w *walker) fromFind(operands []field, name string) {
	if w.findRoots == nil {
		return
	}
	for _, f := range operands {
		if !f.known() && findMatchWord(f.raw) {
			roots := w.findRoots
			w.findRoots = nil
			w.addBelow(roots, w.findSet, w.findNames, true, true, "find -exec "+name)
			w.findRoots = roots
			return
		}
	}
}

// findListing reports whether a find's output is a listing (see
// inputListing): its expression (from args[expr]) prints with -print0
// and nothing else, and it follows no links (-L, -H, -follow), which
// could lead below a starting point to anywhere.
func findListing(args []field, expr int) bool {
	print0 := false
	for i, f := range args {
		if !f.known() {
			if i >= expr {
				continue
			}
			return false
		}
		switch f.s {
		case "-L", "-H", "-follow":
			return false
		case "-print0":
			print0 = i >= expr
		case "-print", "-printf", "-ls", "-fprint", "-fprint0", "-fprintf", "-fls", "-exec", "-execdir", "-ok", "-okdir", "-delete":
			if i >= expr {
				return false
			}
		}
	}
	return print0
}

// findFiltered reports whether a find expression has a test, so that what
// its actions act on is some of the entries below the starting points
// rather than all of them, the starting points included. Options (-depth,
// -maxdepth N, -xdev ...), actions and operators are not tests; anything
// else that starts with - is (-name, -type, -mtime, -mindepth, ...).
func findFiltered(expr []field) bool {
	for i := 0; i < len(expr); i++ {
		f := expr[i]
		if !f.known() {
			return true
		}
		switch f.s {
		case "(", ")", "!", ",", "-not", "-a", "-and", "-o", "-or", "-true",
			"-depth", "-d", "-mount", "-xdev", "-follow", "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race",
			"-daystart", "-warn", "-nowarn", "-delete", "-print", "-print0", "-ls", "-quit", "-prune":
		case "-maxdepth", "-regextype", "-fprint", "-fprint0", "-fls", "-printf":
			i++
		case "-fprintf":
			i += 2
		case "-exec", "-execdir", "-ok", "-okdir":
			for i++; i < len(expr) && !(expr[i].known() && (expr[i].s == ";" || expr[i].s == "+")); i++ {
			}
		default:
			return true
		}
	}
	return false
}

// normOptions renders parsed options as the program reads them: short
// ones named by their long form where short has it, values dropped.
func normOptions(p parsed, short map[string]string) []string {
	var out []string
	for _, o := range p.opts {
		name := o.name
		if long, ok := short[name]; ok {
			name = long
		}
		out = append(out, name)
	}
	return out
}

// expandLong spells a long option in full when it is an unambiguous
// prefix of one of known (an exact name wins), as getopt_long reads it;
// anything else is returned as written.
func expandLong(o string, known []string) string {
	name, value, hasValue := strings.Cut(o, "=")
	if !strings.HasPrefix(name, "--") || len(name) < 3 {
		return o
	}
	match := ""
	for _, k := range known {
		if k == name {
			return o
		}
		if strings.HasPrefix(k, name) {
			if match != "" {
				return o // ambiguous
			}
			match = k
		}
	}
	if match == "" {
		return o
	}
	if hasValue {
		return match + "=" + value
	}
	return match
}

// setOptions records a command's options (and subcommand) on its fact.
func (w *walker) setOptions(c *call, opts []string) {
	if c.idx >= 0 && c.idx < len(w.facts.Commands) {
		cmd := &w.facts.Commands[c.idx]
		cmd.Options = append(cmd.Options, opts...)
	}
}

func shredFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "ns", long: []string{"iterations", "size", "random-source"}})
	w.pathsTo(p.operands, w.writes, c.name)
	if p.has("-u", "--remove", "--zero") || c.name == "wipe" {
		w.removeTo(p.operands, w.deletes, false, c.name)
	}
}

func ddFiles(w *walker, c *call) {
	for _, f := range c.args {
		if !f.known() {
			w.incomplete("dynamic operand of dd")
			continue
		}
		k, v, ok := strings.Cut(f.s, "=")
		if !ok {
			continue
		}
		vf := field{s: v, static: true, raw: f.raw}
		switch k {
		case "if":
			w.path(vf, w.reads, "dd")
		case "of":
			w.path(vf, w.writes, "dd")
		}
	}
}

// chmodFiles: the mode is the first operand that is not an option (and
// may itself start with '-', as in chmod -x file), unless --reference.
func chmodFiles(w *walker, c *call) {
	haveMode := false
	for _, f := range c.args {
		if f.known() && strings.HasPrefix(f.s, "--") {
			if ref, ok := strings.CutPrefix(f.s, "--reference="); ok {
				w.path(field{s: ref, static: true}, w.reads, c.name)
				haveMode = true
			}
			continue
		}
		if f.known() && len(f.s) > 1 && f.s[0] == '-' && strings.Trim(f.s[1:], "Rvcf") == "" {
			continue
		}
		if !haveMode {
			haveMode = true
			continue
		}
		w.path(f, w.writes, c.name)
	}
}

func chownFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{})
	files := p.operands
	refs := p.values("--reference")
	if len(refs) == 0 && len(files) > 0 {
		files = files[1:]
	}
	w.pathsTo(refs, w.reads, c.name)
	w.pathsTo(files, w.writes, c.name)
}

func chattrFiles(w *walker, c *call) {
	for _, f := range c.args {
		if f.known() && f.s != "" && strings.ContainsRune("+-=", rune(f.s[0])) {
			continue
		}
		w.path(f, w.writes, c.name)
	}
}

func setfaclFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "mMxX", long: []string{"modify", "modify-file", "remove", "remove-file", "set", "set-file"}})
	w.pathsTo(p.values("-M", "-X", "--modify-file", "--remove-file", "--set-file"), w.reads, c.name)
	w.pathsTo(p.operands, w.writes, c.name)
}

// patchFiles: patch FILE [PATCH] changes FILE; without FILE it changes
// whatever files the patch names, below the directory it runs in (-d):
// GNU patch refuses names with .. or a leading /, so that directory is
// what it may rewrite.
func patchFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "iopBdDFrzVYgx", long: []string{"input", "output", "strip", "prefix", "directory", "ifdef", "fuzz", "reject-file", "suffix", "version-control", "basename-prefix", "get", "debug", "quoting-style"}})
	w.pathsTo(p.values("-i", "--input"), w.reads, c.name)
	if len(p.operands) > 1 {
		w.path(p.operands[1], w.reads, c.name)
	}
	dir := w.saveDir()
	defer w.restoreDir(dir)
	// -d applies to the files patched and written, not to the patch read.
	for _, d := range p.values("-d", "--directory") {
		w.cd(d)
	}
	w.pathsTo(p.values("-o", "--output", "-r", "--reject-file"), w.writes, c.name)
	if len(p.operands) > 0 {
		w.path(p.operands[0], w.writes, c.name)
		return
	}
	w.incomplete("patch: the files it changes are named in the patch")
	if !p.has("--dry-run") && len(p.values("-o", "--output")) == 0 {
		w.treeHere(c.name)
	}
}

// tarSpec is GNU tar's; getopt_long takes any unambiguous prefix of a
// long option (tar --dir is --directory).
var tarSpec = optSpec{
	withValue: "fCTXbHKLNgVIF",
	long: []string{"file", "directory", "files-from", "exclude-from", "blocking-factor", "format", "owner", "group", "mode", "transform",
		"xform", "exclude", "use-compress-program", "to-command", "newer", "after-date", "label", "suffix", "checkpoint-action",
		"info-script", "new-volume-script", "strip-components", "warning", "index-file", "mtime", "sort", "owner-map", "group-map",
		"quoting-style", "level", "listed-incremental", "record-size", "tape-length", "rsh-command", "rmt-command", "pax-option",
		"starting-file", "newer-mtime", "exclude-tag", "exclude-tag-all", "exclude-tag-under", "exclude-ignore",
		"exclude-ignore-recursive", "volno-file", "hole-detection", "sparse-version", "xattrs-include", "xattrs-exclude",
		"quote-chars", "no-quote-chars", "clamp-mtime"},
	longOptional: []string{"checkpoint", "backup", "atime-preserve", "occurrence", "one-top-level", "verbatim-files-from"},
	longFlags: []string{"create", "extract", "get", "list", "append", "update", "catenate", "concatenate", "delete", "diff", "compare",
		"test-label", "absolute-names", "gzip", "gunzip", "ungzip", "bzip2", "xz", "zstd", "lzip", "lzma", "lzop", "compress", "uncompress",
		"verbose", "keep-old-files", "overwrite", "no-same-owner", "same-owner", "preserve-permissions", "same-permissions",
		"no-same-permissions", "preserve", "wildcards", "no-wildcards", "recursion", "no-recursion", "dereference", "one-file-system",
		"skip-old-files", "keep-newer-files", "unlink-first", "recursive-unlink", "remove-files", "totals", "exclude-vcs",
		"exclude-vcs-ignores", "exclude-caches", "exclude-caches-all", "exclude-caches-under", "exclude-backups", "auto-compress",
		"no-auto-compress", "sparse", "numeric-owner", "help", "version", "usage", "interactive", "confirmation", "to-stdout",
		"xattrs", "no-xattrs", "acls", "no-acls", "selinux", "no-selinux", "null", "no-null", "verify", "show-transformed-names",
		"show-stored-names", "full-time", "utc", "incremental", "multi-volume", "seek", "no-seek", "force-local", "posix",
		"old-archive", "portability", "hard-dereference", "ignore-case", "no-ignore-case", "anchored", "no-anchored",
		"wildcards-match-slash", "no-wildcards-match-slash", "unquote", "no-unquote", "restrict", "delay-directory-restore",
		"no-delay-directory-restore", "ignore-failed-read", "ignore-zeros", "ignore-command-error", "keep-directory-symlink",
		"preserve-order", "same-order", "no-overwrite-dir", "overwrite-dir", "check-device", "no-check-device", "block-number",
		"check-links", "show-defaults", "show-omitted-dirs", "show-snapshot-field-ranges", "no-verbatim-files-from", "read-full-records",
		"modification-time", "touch"},
	gnu: true,
}

// tarFiles: -c reads the operands and writes the archive; -x reads the
// archive and writes into -C (or the current directory), wherever the
// archive's own paths point.
func tarFiles(w *walker, c *call) {
	args := c.args
	// The first argument may be old-style bundled letters without a dash.
	if len(args) > 0 && args[0].known() && args[0].s != "" && !strings.HasPrefix(args[0].s, "-") {
		a := args[0]
		a.s = "-" + a.s
		args = append([]field{a}, args[1:]...)
	}
	p := parseOpts(args, tarSpec)
	w.unknownOpts(c.name, p)
	dir := w.saveDir()
	for _, d := range p.values("-C", "--directory") {
		w.cd(d)
	}
	archives := p.values("-f", "--file")
	switch {
	case p.has("-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate", "--concatenate"):
		w.restoreDir(dir)
		w.pathsTo(archives, w.writes, c.name)
		for _, d := range p.values("-C", "--directory") {
			w.cd(d)
		}
		w.pathsTo(p.operands, w.reads, c.name)
		w.pathsTo(p.values("-T", "--files-from", "-X", "--exclude-from"), w.reads, c.name)
	case p.has("-x", "--extract", "--get"):
		if !p.has("-O", "--to-stdout", "--to-command") {
			if w.dirKnown {
				w.addPath(".", w.writes, c.name)
			}
			w.treeHere(c.name + " -x")
		} else {
			// tar -xO ARCHIVE MEMBER prints the member: a read of a
			// file of that name, so git archive HEAD | tar -xO .env
			// reads .env as cat .env does.
			w.pathsTo(p.operands, w.reads, c.name)
		}
		if p.has("-P", "--absolute-names") {
			// Members named /etc/x or ../x are written where they say.
			w.unresolvedWrite(w.writes, "the archive's own paths (tar --absolute-names)")
		}
		w.restoreDir(dir)
		w.pathsTo(archives, w.reads, c.name)
		w.incomplete("tar extracts wherever the archive's paths point")
	default:
		w.restoreDir(dir)
		w.pathsTo(archives, w.reads, c.name)
	}
	w.restoreDir(dir)
	for _, prog := range p.values("--use-compress-program", "-I", "--to-command", "--info-script", "-F", "--new-volume-script", "--rsh-command", "--rmt-command") {
		w.nestedString(prog, "tar program")
	}
	// --checkpoint-action=exec=CMD runs CMD through the shell at each
	// checkpoint; the other actions (echo, dot, ttyout...) print.
	for _, a := range p.values("--checkpoint-action") {
		if !a.known() {
			w.incomplete("tar --checkpoint-action only known at run time")
			w.unknownCode(a.raw)
			continue
		}
		if cmd, ok := strings.CutPrefix(a.s, "exec="); ok {
			w.nestedString(field{s: cmd, static: true, raw: cmd}, "tar --checkpoint-action")
		}
	}
}

func zipFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "bnOPtxiZ", long: []string{"temp-path", "suffixes", "output-file", "password", "exclude", "include"}})
	if len(p.operands) == 0 {
		return
	}
	w.path(p.operands[0], w.writes, c.name)
	w.pathsTo(p.operands[1:], w.reads, c.name)
	w.pathsTo(p.values("-O", "--output-file"), w.writes, c.name)
	// -TT CMD (--unzip-command) tests the archive with CMD, run through
	// the shell; parseOpts reads -TT as -T twice, so it is looked for
	// here.
	for i, f := range c.args {
		if !f.known() {
			continue
		}
		name, val, hasVal := strings.Cut(f.s, "=")
		if f.s == "-TT" || name == "--unzip-command" {
			switch {
			case hasVal:
				w.nestedString(field{s: val, static: true, raw: val}, "zip -TT")
			case i+1 < len(c.args):
				w.nestedString(c.args[i+1], "zip -TT")
			}
		}
	}
}

// unzipFiles: unzip extracts below -d, else the current directory,
// whatever the archive holds there (see tree).
func unzipFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "dxP"})
	if len(p.operands) > 0 {
		w.path(p.operands[0], w.reads, c.name)
	}
	if p.has("-p", "-c") && len(p.operands) > 1 {
		// unzip -p ARCHIVE MEMBER prints the member (see tarFiles).
		w.pathsTo(p.operands[1:], w.reads, c.name)
	}
	if p.has("-l", "-t", "-v", "-z", "-Z", "-p", "-c") {
		return
	}
	if d := p.values("-d"); len(d) > 0 {
		w.pathsTo(d, w.writes, c.name)
		for _, f := range d {
			if f.known() {
				w.tree(f.s, c.name)
			}
		}
	} else {
		if w.dirKnown {
			w.addPath(".", w.writes, c.name)
		}
		w.treeHere(c.name)
	}
	if p.has("-:") {
		// -: keeps ../ in member names: they land outside the directory.
		w.incomplete("unzip -: writes wherever the archive's paths point")
		w.unresolvedWrite(w.writes, "the archive's own paths (unzip -:)")
	}
}

// compressFiles: gzip and friends replace each operand with a compressed
// (or decompressed) file unless told to keep it or write to stdout.
func compressFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "SbT", long: []string{"suffix", "threads", "memlimit", "format"}})
	w.pathsTo(p.operands, w.reads, c.name)
	if p.has("-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test") {
		return
	}
	w.pathsTo(p.operands, w.writes, c.name)
	if !p.has("-k", "--keep") {
		w.removeTo(p.operands, w.deletes, false, c.name)
	}
}

// opensslFiles: openssl's options are single-dash words.
func opensslFiles(w *walker, c *call) {
	args := c.args
	if len(args) > 0 && args[0].known() && (args[0].s == "s_client" || args[0].s == "s_time") {
		// s_client sends its standard input to the server it connects
		// to, as nc does.
		w.uploadStdin(c, "openssl "+args[0].s)
	}
	for i := 0; i+1 < len(args); i++ {
		if !args[i].known() {
			continue
		}
		switch args[i].s {
		case "-in", "-inkey", "-key", "-kfile", "-CAfile", "-cert", "-signkey", "-certfile", "-config", "-rand", "-paramfile", "-peerkey":
			w.path(args[i+1], w.reads, "openssl")
			i++
		case "-out", "-keyout":
			w.path(args[i+1], w.writes, "openssl")
			i++
		case "-pass", "-passin", "-passout":
			if f := args[i+1]; f.known() {
				if p, ok := strings.CutPrefix(f.s, "file:"); ok {
					w.path(field{s: p, static: true}, w.reads, "openssl")
				}
			}
			i++
		case "-connect":
			if args[i+1].known() {
				w.urls[args[i+1].s] = true
			}
			i++
		}
	}
}

func writeDevices(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "tLbcCEIJmNoOrUgGs", long: []string{"type", "label", "block-size"}})
	for _, f := range p.operands {
		// Operands that are not paths (partition numbers, sizes) are
		// recorded only when they look like one.
		if !f.known() || strings.Contains(f.s, "/") {
			w.path(f, w.writes, c.name)
		}
	}
}

// findFiles: the paths before the expression are read; -delete removes
// what matches below them; -exec and -ok run another command for each
// match, which is recorded with find as its wrapper.
func findFiles(w *walker, c *call) {
	args := c.args
	i := 0
	// Leading options -H -L -P -O3 -D debug.
	for i < len(args) && args[i].known() && (args[i].s == "-H" || args[i].s == "-L" || args[i].s == "-P" || strings.HasPrefix(args[i].s, "-O") || args[i].s == "-D") {
		if args[i].s == "-D" {
			i++
		}
		i++
	}
	// A -D with its value missing (find -D) must not step past the end.
	i = min(i, len(args))
	var roots []field
	for ; i < len(args); i++ {
		f := args[i]
		if f.known() && (strings.HasPrefix(f.s, "-") || f.s == "(" || f.s == "!" || f.s == ")") {
			break
		}
		roots = append(roots, f)
	}
	if len(roots) == 0 {
		roots = []field{{s: ".", static: true, raw: "."}}
	}
	w.pathsTo(roots, w.reads, "find")
	cmd := w.facts.Commands[c.idx]
	// What -delete and -exec rm remove: the starting points and all below
	// them, or, when a test picks entries, only some entries below them.
	removed := w.deletes
	if findFiltered(args[i:]) {
		removed = w.below
	}
	names := findNameFilter(args[i:])
	if findListing(args, i) {
		w.noteListing(roots, removed, names)
	}
	for ; i < len(args); i++ {
		f := args[i]
		if !f.known() {
			continue
		}
		switch f.s {
		case "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fls", "-fprintf":
			w.setOptions(c, []string{f.s})
		}
		switch f.s {
		case "-delete":
			// find does not follow a starting point that is a link
			// (without -H or -L): it deletes the link.
			w.addBelow(roots, removed, names, true, true, "find -delete")
			w.incomplete("find -delete removes whatever matches")
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if i+1 < len(args) {
				w.path(args[i+1], w.writes, "find "+f.s)
				i++
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && !(args[j].known() && (args[j].s == ";" || args[j].s == "+")) {
				j++
			}
			sub := make([]field, 0, j-i-1)
			runsShell := j > i+1 && args[i+1].known() && isShellName(baseName(args[i+1].s))
			for _, a := range args[i+1 : j] {
				if a.known() && strings.Contains(a.s, "{}") {
					if runsShell && a.s != "{}" {
						// find puts the match into the script text
						// (sh -c 'rm -rf {}'): there it is a word
						// that is not static.
						a = field{s: strings.ReplaceAll(a.s, "{}", `"$__vouch_find_match"`), static: true, raw: a.raw}
					} else {
						// Replaced by each matching path.
						a = field{raw: a.raw}
					}
				}
				sub = append(sub, a)
			}
			inner := ctx{wrappers: append(append([]string(nil), cmd.Wrappers...), "find")}
			if len(sub) > 0 {
				// The matched paths stand where {} is; unknown here,
				// but below the starting points.
				dir := w.saveDir()
				if f.s == "-execdir" || f.s == "-okdir" {
					w.dirKnown = false
				}
				saveRoots, saveSet, saveNames := w.findRoots, w.findSet, w.findNames
				w.findRoots, w.findSet, w.findNames = roots, removed, names
				w.simple(sub, nil, false, nil, inner)
				w.findRoots, w.findSet, w.findNames = saveRoots, saveSet, saveNames
				w.restoreDir(dir)
			}
			i = j
		}
	}
}

// isShellName reports whether a program runs a string of shell code it is
// given (sh -c, eval).
func isShellName(name string) bool {
	switch name {
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "rbash", "eval", "su", "runuser":
		return true
	}
	return false
}

func changeDir(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{})
	var target field
	switch {
	case len(p.operands) == 0 && c.name == "cd":
		home, ok := w.varValue("HOME")
		if !ok && !w.varForgotten("HOME") && w.opts.Home != "" {
			home, ok = w.opts.Home, true
		}
		if !ok {
			w.dirKnown = false
			w.incomplete("cd to an unknown home directory")
			w.movedFrom(dirState{})
			return
		}
		target = field{s: home, static: true}
	case len(p.operands) == 0:
		return
	default:
		target = p.operands[0]
	}
	old := w.dirBefore()
	defer func() { w.movedFrom(old) }()
	if target.known() && target.s == "-" && c.name == "cd" {
		// cd - goes back to OLDPWD, known when a cd before it in the
		// command line set it.
		if prev, ok := w.varValue("OLDPWD"); ok && prev != "" {
			target = field{s: prev, static: true}
		}
	}
	if target.known() && (target.s == "-" || strings.HasPrefix(target.s, "+") || (c.name == "pushd" && strings.HasPrefix(target.s, "-"))) {
		// cd - and pushd +N go back to a directory Parse may not know.
		w.dirKnown = false
		w.incomplete("cd to a previous directory")
		return
	}
	if c.name == "pushd" {
		w.dirStack = append(w.dirStack, w.cwd())
	}
	if target.known() && w.vars["CDPATH"] != "" && !strings.HasPrefix(target.s, "/") &&
		!strings.HasPrefix(target.s, "./") && !strings.HasPrefix(target.s, "../") && target.s != "." && target.s != ".." {
		// CDPATH makes a bare name mean a directory under any of its
		// entries.
		w.dirKnown = false
		return
	}
	w.cd(target)
	if w.dirKnown {
		// A cd to a directory that is not there fails and leaves the
		// shell where it was (and `cd x; rm -rf y` then removes the
		// old directory's y): unless this command line made it, where
		// later commands run is not known (a later relative path says
		// so).
		if st, err := os.Stat(w.dir); (err != nil || !st.IsDir()) && !w.writes[w.dir] {
			w.dirKnown = false
		}
	}
}

// dirBefore is the directory a cd leaves, canonical.
func (w *walker) dirBefore() dirState {
	if !w.dirKnown {
		return dirState{}
	}
	return dirState{dir: w.cwd(), known: true}
}

// movedFrom follows what cd, pushd and popd do to PWD and OLDPWD: OLDPWD
// becomes the directory left (old), PWD the one reached. Either is only
// known when both directories are; a move that may not happen (in an if,
// after &&) leaves them unknown.
func (w *walker) movedFrom(old dirState) {
	w.setVar("OLDPWD", old.dir, old.known && w.dirKnown && old.dir != "")
	delete(w.vars, "PWD")
	if w.cond > 0 || !w.dirKnown {
		w.forget("PWD")
	} else {
		delete(w.forgotten, "PWD")
	}
}

// forgetVars: read, unset, mapfile, getopts and printf -v set or clear
// variables to values Parse cannot know.
func forgetVars(w *walker, c *call) {
	if dynamicVarName(c) {
		// read "$n", printf -v "$n": any variable, IFS included.
		w.anyVar()
	}
	var inputs []string
	if c.name == "read" || c.name == "mapfile" || c.name == "readarray" {
		// read D < f: D holds f's text from here on.
		inputs = w.stdinInputs(c)
	}
	for _, f := range c.args {
		if !f.known() {
			continue
		}
		name, _, _ := strings.Cut(f.s, "=")
		name, _, _ = strings.Cut(name, "[")
		if c.name == "printf" && strings.HasPrefix(name, "-v") {
			name = name[2:] // printf -vNAME
		}
		if isName(name) {
			w.setVar(name, "", false)
			w.noteVarInputs(name, inputs)
		}
	}
}

// dynamicVarName reports whether read, mapfile, getopts, printf -v or let
// assigns a variable whose name is only known at run time. Only name
// operands count: a prompt or a format only known at run time sets
// nothing.
func dynamicVarName(c *call) bool {
	var valued string // options whose value is no name
	switch c.name {
	case "read":
		valued = "dinNptu"
	case "mapfile", "readarray":
		valued = "dnOsuCc"
	case "getopts":
		return len(c.args) > 1 && !c.args[1].known()
	case "let":
		for _, f := range c.args {
			if name, _, _ := strings.Cut(f.raw, "="); !f.known() && !isName(strings.Trim(name, `"'`)) {
				return true
			}
		}
		return false
	case "printf":
		for i, f := range c.args {
			switch {
			case !f.known():
				// -v"$n", or else the format: -v comes first.
				return strings.HasPrefix(f.raw, "-v")
			case f.s == "-v":
				return i+1 < len(c.args) && !c.args[i+1].known()
			case f.s == "--" || !strings.HasPrefix(f.s, "-"):
				return false
			}
		}
		return false
	default:
		return false
	}
	opts := true
	for i := 0; i < len(c.args); i++ {
		f := c.args[i]
		if opts && f.known() && f.s == "--" {
			opts = false
			continue
		}
		if opts && f.known() && len(f.s) > 1 && f.s[0] == '-' {
			if j := strings.IndexAny(f.s[1:], valued); j >= 0 && j+2 == len(f.s) {
				i++ // the value is the next word
			}
			continue
		}
		if !f.known() && !(opts && strings.HasPrefix(f.raw, "-")) {
			return true
		}
	}
	return false
}

func popDir(w *walker, c *call) {
	old := w.dirBefore()
	defer func() { w.movedFrom(old) }()
	if len(w.dirStack) == 0 {
		w.dirKnown = false
		w.incomplete("popd to an unknown directory")
		return
	}
	w.dir = w.dirStack[len(w.dirStack)-1]
	w.dirStack = w.dirStack[:len(w.dirStack)-1]
}

// vouchInit: vouch init writes its scaffold at the repository root (the
// git top level, or --root DIR): with --guard the guard policy and the
// hooks in .claude/settings.json; otherwise vouch.yaml, the rulespec and
// .vouch/.gitignore, and with --write the Stop hook in
// .claude/settings.json, the CI job and the pre-commit hook (in
// .git/hooks, or where core.hooksPath says). --force overwrites.
func vouchInit(w *walker, c *call) {
	i := 0
	for i < len(c.args) && c.args[i].known() && strings.HasPrefix(c.args[i].s, "-") {
		i++
	}
	if i >= len(c.args) || !c.args[i].known() || c.args[i].s != "init" {
		return
	}
	var root *field
	guard, write := false, false
	args := c.args[i+1:]
	for j := 0; j < len(args); j++ {
		f := args[j]
		if !f.known() {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(f.s, "-"), "=")
		if !strings.HasPrefix(f.s, "-") {
			continue
		}
		on := !hasVal || val == "true" || val == "1"
		switch name {
		case "guard":
			guard = on
		case "write":
			write = on
		case "root":
			if hasVal {
				v := field{s: val, static: true, raw: f.raw}
				root = &v
			} else if j+1 < len(args) {
				j++
				root = &args[j]
			}
		}
	}
	dir := w.repoRoot()
	if root != nil {
		if !root.known() {
			w.incomplete("vouch init --root only known at run time")
			w.unresolvedWrite(w.writes, "vouch init --root "+root.raw)
			return
		}
		dir = root.s
	}
	var files []string
	if guard {
		files = []string{".vouch/guard.yaml", ".claude/settings.json"}
	} else {
		files = []string{"vouch.yaml", "analysis/rulespec.yaml", ".vouch/.gitignore"}
		if write {
			files = append(files, ".claude/settings.json", ".github/workflows/vouch.yml", ".git/hooks/pre-commit")
		}
	}
	for _, f := range files {
		w.addPath(filepath.Join(dir, f), w.writes, "vouch init")
	}
}

// mountFiles: mount --bind SRC DEST (also -B, --rbind, -R, -o bind or
// rbind) makes SRC reachable under DEST, for reading and writing, so
// what a later command does under DEST is done to SRC, which vouch
// cannot follow: the source counts as read and written. Other mounts
// (a device on a directory) are left to the program's own rules.
func mountFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "otLUNO", long: []string{"options", "types", "label", "uuid", "namespace", "test-opts", "source", "target", "target-prefix", "map-users", "map-groups"}})
	bind := p.has("-B", "--bind", "-R", "--rbind")
	for _, o := range p.values("-o", "--options") {
		for _, opt := range strings.Split(o.s, ",") {
			if opt == "bind" || opt == "rbind" {
				bind = true
			}
		}
	}
	ops := append(p.values("--source"), p.operands...)
	ops = append(ops, p.values("--target")...)
	if len(ops) > 0 && !p.has("-a", "--all") {
		// Whatever is mounted (a bind, a tmpfs, a device) hides what
		// lay below the mount point and puts other files in its place:
		// the mount point (the last operand, or --target) is a tree
		// written.
		w.mountPoint(ops[len(ops)-1], c.name)
	}
	if !bind {
		return
	}
	if len(ops) < 2 {
		w.incomplete("mount --bind without a source and a target")
		return
	}
	w.bindSource(ops[0], ops[1], false, "mount --bind")
}

// umountFiles: umount DIR... uncovers what lay below each mount point,
// so each is a tree written, as mount's target is.
func umountFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "tOFN", long: []string{"types", "test-opts", "namespace"}})
	if p.has("-a", "--all") {
		w.incomplete(c.name + " -a unmounts whatever is mounted")
		w.unresolvedWrite(w.writes, c.name+" -a")
	}
	for _, f := range p.operands {
		w.mountPoint(f, c.name)
	}
}

// mountPoint records a mount point as a path written and a tree whose
// contents the command replaces.
func (w *walker) mountPoint(f field, what string) {
	w.path(f, w.writes, what)
	if f.static && !f.glob && f.s != "" {
		w.tree(f.s, what)
	}
}

// bindSource records what a bind mount (or a sandbox's bind of a path
// to another name) exposes: the source, read, and written too unless
// readOnly. A path bound to itself renames nothing, so what is done
// through it is already seen under its own name.
func (w *walker) bindSource(src, dest field, readOnly bool, what string) {
	if src.known() && dest.known() && filepath.Clean(src.s) == filepath.Clean(dest.s) {
		return
	}
	w.path(src, w.reads, what)
	if !readOnly {
		w.path(src, w.writes, what)
	}
}
