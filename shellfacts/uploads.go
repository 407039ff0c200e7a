package shellfacts

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// upload records a local file a command sends over the network: it is
// read, and it is one of Facts.Uploads.
func (w *walker) upload(f field, what string) {
	got := map[string]bool{}
	w.path(f, got, what)
	if !f.static {
		w.readTail(f)
	}
	for p := range got {
		w.reads[p] = true
		w.uploads[p] = true
	}
	if !f.static && len(got) == 0 {
		// A file only known at run time ("$X", $(ls | head -1)) may be
		// any file, a secret included: it is still a file sent away.
		w.uploads["{file known at run time: "+f.raw+"}"] = true
	}
}

// runTimeFile returns, for a value only known at run time whose static
// start already marks a file to send (curl -d "@$F", -F "f=@$F"), a
// field standing for that file; ok is false for other values: "$DATA"
// and -F "k=$V" post text unless the variable itself starts with @,
// which is not taken as given here.
func runTimeFile(v field, marked func(prefix string) bool) (field, bool) {
	if v.static {
		return field{}, false
	}
	if prefix, _ := beforeFirstUnknown(v.raw); !marked(prefix) {
		return field{}, false
	}
	return field{raw: v.raw}, true
}

// uploadStdin records what a command sends when it sends its standard
// input: the file redirected there (gh gist create - < f), or, fed by
// another command (cat f | gh gist create -, < <(cat f)), "{input of
// WHAT}", whose contents the command line does not name. A here-document
// or here-string is text written in the command line, not a file, and
// /dev/null sends nothing (openssl s_client -connect h:443 < /dev/null
// is how a certificate is looked at).
func (w *walker) uploadStdin(c *call, what string) {
	w.uploadInput(c, what, true)
}

// uploadInput is uploadStdin; with anyProducer false, a pipe counts only
// when a plain cat passes a file on (cat f | mail): for ssh and mail,
// which are also handed command output and messages (git ls-files | ssh
// h 'xargs ls'), a producer's output is not taken for a file's contents.
func (w *walker) uploadInput(c *call, what string, anyProducer bool) {
	if r := lastStdin(c.redirs); r != nil {
		if r.Op == syntax.WordHdoc && r.Word != nil {
			// <<< "$(cat f)": the files the here-string's
			// substitutions read.
			if fs := w.redirWord(r); len(fs) == 1 {
				for _, p := range fs[0].inputs {
					w.uploads[p] = true
				}
			}
			return
		}
		if (r.Op != syntax.RdrIn && r.Op != syntax.RdrInOut) || r.Word == nil {
			return
		}
		if fs := w.redirWord(r); len(fs) == 1 && fs[0].from == "" {
			if fs[0].known() && fs[0].s == "/dev/null" {
				return
			}
			w.upload(fs[0], what)
			return
		}
	} else if w.facts.Commands[c.idx].PipeFrom == "" || c.pipeKnown {
		// No pipe, or the static text of an echo or printf written in
		// the command line (echo "build done" | mail ...): no file.
		return
	}
	if c.pipeFile != nil {
		w.upload(*c.pipeFile, what)
		return
	}
	if anyProducer {
		w.uploads["{input of "+what+"}"] = true
	}
}

// ghArgs: the GitHub CLI. gh gist create FILE..., gist edit -a FILE,
// release upload TAG FILE..., release create TAG FILE..., api -F
// key=@FILE and --input FILE, workflow run -F key=@FILE, secret set and
// variable set -f FILE send files to GitHub; --body-file and -F of the
// other commands (issue create, pr create, release create --notes-file
// ...) read a file whose text they post.
//
// The command group and subcommand are found as gh's command library
// (cobra) finds them: an option before them without =, other than
// --help and --version, takes the next word as its value (gh -R o/r
// gist create, gh --repo o/r release upload).
func ghArgs(w *walker, c *call) {
	var words []int
	for i := 0; i < len(c.args); i++ {
		f := c.args[i]
		if !f.known() {
			break
		}
		if f.s == "--" {
			break
		}
		if !strings.HasPrefix(f.s, "-") {
			words = append(words, i)
			if len(words) == 2 {
				break
			}
			continue
		}
		if len(words) == 1 && c.args[words[0]].s == "api" {
			// gh api's options come before or after its endpoint.
			continue
		}
		long := strings.HasPrefix(f.s, "--") && len(f.s) > 2
		if !strings.Contains(f.s, "=") && (long || len(f.s) == 2) && f.s != "--help" && f.s != "--version" && f.s != "-h" {
			i++
		}
	}
	if len(words) == 0 {
		return
	}
	group, sub := c.args[words[0]].s, ""
	rest := c.args[words[0]+1:]
	if len(words) == 2 && group != "api" {
		sub, rest = c.args[words[1]].s, c.args[words[1]+1:]
	}
	what := "gh " + strings.TrimSpace(group+" "+sub)
	sent := false
	// text posts the file whose text a command posts (an issue's or a
	// pull request's body, release notes): to a repository the command
	// line names (-R, --repo, GH_REPO), which may be anyone's, it is a
	// file sent away as a gist's is; to the checkout's own repository,
	// where the agent's pull requests belong, it is only read.
	named := ghRepoNamed(c.args) || slices.ContainsFunc(w.facts.Commands[c.idx].Env, func(e string) bool { return strings.HasPrefix(e, "GH_REPO=") })
	text := func(f field) {
		stdin := f.known() && f.s == "-"
		switch {
		case named && stdin:
			w.uploadStdin(c, what)
			sent = true
		case named:
			w.upload(f, what)
			sent = true
		case !stdin:
			w.path(f, w.reads, what)
		}
	}
	switch group + " " + sub {
	case "gist create", "gist new":
		p := parseOpts(rest, optSpec{withValue: "dfR", long: []string{"desc", "filename", "repo"}})
		stdin := len(p.operands) == 0
		for _, f := range p.operands {
			if f.known() && f.s == "-" {
				stdin = true
			} else {
				w.upload(f, what)
			}
		}
		if stdin {
			// gh gist create - (and with no file, when its input is
			// not a terminal) posts its standard input.
			w.uploadStdin(c, what)
		}
		sent = true
	case "gist edit":
		p := parseOpts(rest, optSpec{withValue: "adf", long: []string{"add", "desc", "filename"}})
		for _, f := range p.values("-a", "--add") {
			w.upload(f, what)
			sent = true
		}
	case "release upload", "release create", "release new", "release edit":
		p := parseOpts(rest, optSpec{withValue: "nFtR", long: []string{"notes", "notes-file", "title", "target", "discussion-category", "notes-start-tag", "repo", "tag"}})
		for _, f := range p.values("-F", "--notes-file") {
			text(f)
		}
		if sub == "edit" {
			break
		}
		if len(p.operands) > 1 {
			for _, f := range p.operands[1:] {
				// FILE#label: the text after # names the asset.
				if f.known() {
					if i := strings.IndexByte(f.s, '#'); i > 0 {
						f.s = f.s[:i]
					}
				}
				w.upload(f, what)
				sent = true
			}
		}
	case "api ", "workflow run":
		p := parseOpts(rest, optSpec{withValue: "FfHXqtp", long: []string{"field", "raw-field", "header", "method", "jq", "template", "hostname", "preview", "input", "cache", "ref", "repo", "json"}})
		for _, f := range p.values("-F", "--field") {
			if f.known() {
				if _, v, ok := strings.Cut(f.s, "="); ok && strings.HasPrefix(v, "@") && v != "@-" {
					w.upload(field{s: v[1:], static: true, raw: f.raw}, what)
					sent = true
				}
			}
		}
		for _, f := range p.values("--input") {
			if f.known() && f.s == "-" {
				w.uploadStdin(c, what)
			} else {
				w.upload(f, what)
			}
			sent = true
		}
	case "secret set", "variable set":
		p := parseOpts(rest, optSpec{withValue: "befouvrR", long: []string{"body", "env-file", "env", "org", "user", "visibility", "repos", "app", "repo"}})
		for _, f := range p.values("-f", "--env-file") {
			w.upload(f, what)
			sent = true
		}
	case "ssh-key add", "gpg-key add":
		p := parseOpts(rest, optSpec{withValue: "tw", long: []string{"title", "type"}})
		if len(p.operands) > 0 {
			w.path(p.operands[0], w.reads, what)
		}
	default:
		p := parseOpts(rest, optSpec{withValue: "F", long: []string{"body-file"}})
		for _, f := range p.values("-F", "--body-file") {
			text(f)
		}
	}
	if sent {
		w.urls["github.com"] = true
	}
}

// ghRepoNamed reports whether a gh command line names the repository it
// acts on (-R o/r, --repo o/r, --repo=o/r, -Ro/r), before or after its
// command.
func ghRepoNamed(args []field) bool {
	for _, f := range args {
		if !f.known() {
			continue
		}
		if f.s == "--" {
			return false
		}
		if f.s == "--repo" || strings.HasPrefix(f.s, "--repo=") || strings.HasPrefix(f.s, "-R") {
			return true
		}
	}
	return false
}

// cloudRemote reports whether an operand of a storage copy names remote
// storage (s3://, gs://, and rclone's remote:path).
func cloudRemote(name, s string) bool {
	if name == "rclone" {
		if strings.HasPrefix(s, "/") || strings.HasPrefix(s, ".") || strings.HasPrefix(s, "~") {
			return false
		}
		i := strings.IndexByte(s, ':')
		return i >= 0 && !strings.Contains(s[:i], "/")
	}
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "s3://") || strings.HasPrefix(l, "gs://")
}

// cloudCopy reads the operands of a copy to or from remote storage (aws
// s3 cp, gsutil cp, gcloud storage cp, rclone copy): the local ones
// before the last remote one are sent there (and removed, for a move); a
// local one after a remote one is written, a tree when the copy is
// recursive. - is stdin or stdout.
func (w *walker) cloudCopy(c *call, ops []field, recursive, move bool) {
	last := -1
	for i, f := range ops {
		if f.known() && cloudRemote(c.name, f.s) {
			last = i
			w.urls[f.s] = true
		}
	}
	for i, f := range ops {
		switch {
		case f.known() && (cloudRemote(c.name, f.s) || f.s == "-"):
		case i < last:
			w.upload(f, c.name)
			if move {
				w.removeTo([]field{f}, w.deletes, true, c.name)
			}
		case last >= 0 && i > last:
			if !f.known() {
				w.incomplete("dynamic destination of " + c.name)
				w.unresolvedWrite(w.writes, f.raw)
				continue
			}
			w.path(f, w.writes, c.name)
			if recursive {
				w.tree(f.s, c.name)
			}
		default:
			// No remote operand: a local copy, or operands Parse did not
			// tell apart from option values.
			w.path(f, w.reads, c.name)
		}
	}
}

// awsFlags are the aws CLI options (s3 and global) that take no value;
// every other --option does.
var awsFlags = map[string]bool{
	"dryrun": true, "quiet": true, "recursive": true, "no-guess-mime-type": true, "only-show-errors": true,
	"no-progress": true, "follow-symlinks": true, "no-follow-symlinks": true, "ignore-glacier-warnings": true,
	"force-glacier-transfer": true, "no-overwrite": true, "delete": true, "exact-timestamps": true,
	"size-only": true, "debug": true, "no-verify-ssl": true, "no-paginate": true, "no-sign-request": true,
	"no-cli-pager": true, "cli-auto-prompt": true, "no-cli-auto-prompt": true, "human-readable": true,
	"summarize": true, "request-payer": true, "sse": true, "force": true,
}

// awsArgs: aws s3 cp, mv and sync copy between local files and S3 (see
// cloudCopy); s3api put-object and upload-part --body FILE send FILE. A
// parameter given as file://PATH or fileb://PATH is read from PATH.
func awsArgs(w *walker, c *call) {
	var ops []field
	values := map[string][]field{}
	args := c.args
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() || !strings.HasPrefix(f.s, "--") || f.s == "--" {
			ops = append(ops, f)
			continue
		}
		name, val, eq := strings.Cut(f.s[2:], "=")
		if awsFlags[name] && !eq {
			continue
		}
		v, next, ok := optionValue(args, i, val, eq)
		if !ok {
			continue
		}
		i = next
		values[name] = append(values[name], v)
		if v.known() {
			for _, pre := range []string{"file://", "fileb://"} {
				if p, ok := strings.CutPrefix(v.s, pre); ok {
					w.path(w.homeField(p, v.raw), w.reads, "aws")
				}
			}
		}
	}
	w.pathsTo(values["ca-bundle"], w.reads, "aws")
	if len(ops) < 2 || !ops[0].known() || !ops[1].known() {
		return
	}
	switch ops[0].s + " " + ops[1].s {
	case "s3 cp", "s3 mv", "s3 sync":
		w.cloudCopy(c, ops[2:], ops[1].s == "sync" || hasWord(args, "--recursive"), ops[1].s == "mv")
	case "s3api put-object", "s3api upload-part":
		for _, f := range values["body"] {
			w.upload(f, "aws "+ops[1].s)
		}
	}
}

// optionValue is the value of the option at args[i]: val when it was
// written --name=val (eq), else the next argument. next is the index of
// the last argument the option used; ok is false when its separate value
// is missing.
func optionValue(args []field, i int, val string, eq bool) (v field, next int, ok bool) {
	if eq {
		return field{s: val, static: true, raw: args[i].raw}, i, true
	}
	if i+1 >= len(args) {
		return field{}, i, false
	}
	return args[i+1], i + 1, true
}

// homeField is p as a field, with a leading ~/ expanded to the home
// directory (aws expands it in file:// parameters).
func (w *walker) homeField(p, raw string) field {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && w.opts.Home != "" {
		p = w.opts.Home + "/" + rest
	}
	return field{s: p, static: true, raw: raw}
}

func hasWord(fs []field, s string) bool {
	for _, f := range fs {
		if f.known() && f.s == s {
			return true
		}
	}
	return false
}

// uploadFromInput records a copy whose local sources are named on its
// standard input (gsutil cp -I, gcloud storage cp -I): the files sent
// are not known, so the upload is of "{files named on the input of
// what}", which a policy refusing uploads refuses.
func (w *walker) uploadFromInput(what string) {
	w.incomplete(what + " uploads files named on its input")
	w.uploads["{files named on the input of "+what+"}"] = true
}

// inputCopyUploads reports whether a copy that reads its sources from
// stdin (-I) may send them: its destination, the last operand, is
// remote storage or not known.
func inputCopyUploads(name string, ops []field) bool {
	if len(ops) == 0 {
		return true
	}
	d := ops[len(ops)-1]
	return !d.known() || cloudRemote(name, d.s)
}

// gsutilArgs: gsutil [global options] cp|mv|rsync [options] SRC... DST
// copies between local files and Cloud Storage (see cloudCopy); cp -I
// and mv -I read the sources' names from stdin.
func gsutilArgs(w *walker, c *call) {
	g := parseOpts(c.args, optSpec{withValue: "hiuo", posix: true})
	if len(g.operands) == 0 || !g.operands[0].known() {
		return
	}
	switch cmd := g.operands[0].s; cmd {
	case "cp", "mv", "rsync":
		p := parseOpts(g.operands[1:], optSpec{withValue: "ajLsxyz"})
		w.pathsTo(p.values("-L"), w.writes, c.name)
		if cmd != "rsync" && p.has("-I") && inputCopyUploads(c.name, p.operands) {
			w.uploadFromInput("gsutil " + cmd + " -I")
		}
		w.cloudCopy(c, p.operands, cmd == "rsync" || p.has("-r", "-R"), cmd == "mv")
	}
}

// gcloudValued are the gcloud options (global, and gcloud storage's)
// that take a value; any other is taken as a flag, so that a value
// taken for an operand is at worst one more file copied.
var gcloudValued = map[string]bool{
	"--project": true, "--account": true, "--billing-project": true, "--configuration": true,
	"--impersonate-service-account": true, "--verbosity": true, "--format": true, "--flatten": true,
	"--trace-token": true, "--access-token-file": true, "--flags-file": true, "--content-type": true,
	"--cache-control": true, "--storage-class": true, "--exclude": true, "--additional-headers": true,
	"--predefined-acl": true, "--manifest-path": true,
}

// gcloudArgs: gcloud [alpha|beta] storage cp|mv|rsync SRC... DST (see
// cloudCopy); -I (--read-paths-from-stdin) reads the sources' names
// from stdin. --flags-file F reads more options, any of them, from F.
func gcloudArgs(w *walker, c *call) {
	var ops []field
	rec, fromInput := false, false
	args := c.args
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() || !strings.HasPrefix(f.s, "-") || f.s == "-" {
			ops = append(ops, f)
			continue
		}
		name, val, eq := strings.Cut(f.s, "=")
		switch name {
		case "-r", "-R", "--recursive":
			rec = true
		case "-I", "--read-paths-from-stdin":
			fromInput = true
		}
		if !gcloudValued[name] {
			continue
		}
		v, next, ok := optionValue(args, i, val, eq)
		if !ok {
			continue
		}
		raw := f.raw
		if !eq {
			raw += " " + v.raw
		}
		i = next
		switch name {
		case "--flags-file":
			w.path(v, w.reads, "gcloud "+name)
			w.incomplete("gcloud --flags-file reads its options from a file")
			w.unknownCode("gcloud " + raw)
		case "--access-token-file":
			w.path(v, w.reads, "gcloud "+name)
		case "--manifest-path":
			w.path(v, w.writes, "gcloud "+name)
		}
	}
	if len(ops) > 0 && ops[0].known() && (ops[0].s == "alpha" || ops[0].s == "beta") {
		ops = ops[1:]
	}
	if len(ops) < 2 || !ops[0].known() || !ops[1].known() || ops[0].s != "storage" {
		return
	}
	switch ops[1].s {
	case "cp", "mv", "rsync":
		if fromInput && ops[1].s != "rsync" && inputCopyUploads(c.name, ops[2:]) {
			w.uploadFromInput("gcloud storage " + ops[1].s + " -I")
		}
		w.cloudCopy(c, ops[2:], rec || ops[1].s == "rsync", ops[1].s == "mv")
	}
}

// rcloneValued are rclone options that take a value (any other is taken
// as a flag).
var rcloneValued = map[string]bool{
	"--config": true, "--exclude": true, "--include": true, "--filter": true, "--exclude-from": true,
	"--include-from": true, "--filter-from": true, "--files-from": true, "--files-from-raw": true,
	"--transfers": true, "--checkers": true, "--bwlimit": true, "--log-file": true, "--log-level": true,
	"--max-age": true, "--min-age": true, "--max-size": true, "--min-size": true, "--max-depth": true,
	"--backup-dir": true, "--suffix": true, "--stats": true, "--timeout": true, "--contimeout": true,
	"--retries": true, "--low-level-retries": true, "--tpslimit": true, "--user-agent": true,
	"--password-command": true, "--order-by": true, "--max-transfer": true, "--cutoff-mode": true,
	"--compare-dest": true, "--copy-dest": true, "--multi-thread-streams": true, "--multi-thread-cutoff": true,
	"--buffer-size": true, "--header": true, "--header-upload": true, "--header-download": true, "--bind": true,
	"--ca-cert": true, "--client-cert": true, "--client-key": true, "--track-renames-strategy": true,
	"--exclude-if-present": true, "--streaming-upload-cutoff": true,
}

// rcloneArgs: rclone copy|copyto|sync|move|moveto|bisync SRC DST copies
// between local files and remotes (see cloudCopy).
func rcloneArgs(w *walker, c *call) {
	var ops []field
	args := c.args
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() || !strings.HasPrefix(f.s, "-") || f.s == "-" {
			ops = append(ops, f)
			continue
		}
		name, val, eq := strings.Cut(f.s, "=")
		if !rcloneValued[name] {
			continue
		}
		v, next, ok := optionValue(args, i, val, eq)
		if !ok {
			continue
		}
		i = next
		switch name {
		case "--config", "--exclude-from", "--include-from", "--filter-from", "--files-from", "--files-from-raw",
			"--ca-cert", "--client-cert", "--client-key":
			w.path(v, w.reads, "rclone "+name)
		case "--log-file":
			w.path(v, w.writes, "rclone "+name)
		case "--password-command":
			w.simpleFromString(v, "rclone --password-command")
		}
	}
	if len(ops) == 0 || !ops[0].known() {
		return
	}
	switch cmd := ops[0].s; cmd {
	case "copy", "copyto", "sync", "move", "moveto", "bisync":
		w.cloudCopy(c, ops[1:], cmd == "copy" || cmd == "sync" || cmd == "move" || cmd == "bisync", cmd == "move" || cmd == "moveto")
	}
}

// sendsArgs reports whether a program sends what its arguments say over
// the network as data: HTTP clients (a body, a header, a URL), raw socket
// and DNS tools (a name looked up carries its labels to the resolver),
// ssh (the remote command) and mail. gh, cloud CLIs and git post text
// to the service they are configured for and are not among them: `gh pr
// create --body "$(cat notes.md)"` is the same post as --body-file.
func sendsArgs(name string) bool {
	switch name {
	case "curl", "wget", "wget2", "http", "https", "xh", "xhs", "httpie", "aria2c",
		"nc", "ncat", "netcat", "socat", "telnet", "openssl",
		"dig", "nslookup", "host", "drill", "kdig", "ping", "ping6", "traceroute", "tracepath",
		"ssh", "autossh", "mosh", "ftp", "lftp", "tftp",
		"mail", "mailx", "s-nail", "sendmail", "mutt", "msmtp", "swaks":
		return true
	}
	return false
}

// sentInputs records as uploads the files read by the substitutions in
// the arguments of a program that sends its arguments (curl -d "$(cat
// f)", dig "$(base64 f).example.com"): the file's contents go out as
// @f's would.
func (w *walker) sentInputs(name string, args []field) {
	if !sendsArgs(name) {
		return
	}
	for _, a := range args {
		for _, p := range a.inputs {
			w.uploads[p] = true
		}
	}
}

// mailArgs: mail programs send their standard input (the message), and
// the files -a/-A attach (mailx, s-nail, mailutils, mutt), as mail.
func mailArgs(w *walker, c *call) {
	w.uploadInput(c, c.name, false)
	for i := 0; i < len(c.args); i++ {
		f := c.args[i]
		if !f.known() {
			continue
		}
		switch {
		case (f.s == "-a" || f.s == "-A" || f.s == "--attach") && i+1 < len(c.args):
			w.upload(c.args[i+1], c.name)
			i++
		case strings.HasPrefix(f.s, "--attach="):
			w.upload(field{s: strings.TrimPrefix(f.s, "--attach="), static: true, raw: f.raw}, c.name)
		}
	}
}

// stdinInputs returns the files whose text a command reads on standard
// input: the file redirected there (read D < f), or those a here-string's
// substitutions read (read D <<< "$(cat f)").
func (w *walker) stdinInputs(c *call) []string {
	r := lastStdin(c.redirs)
	if r == nil || r.Word == nil {
		return nil
	}
	fs := w.redirWord(r)
	if len(fs) != 1 {
		return nil
	}
	switch r.Op {
	case syntax.RdrIn, syntax.RdrInOut:
		got := map[string]bool{}
		w.path(fs[0], got, c.name)
		return slices.Concat(sortedKeys(got), fs[0].inputs)
	case syntax.WordHdoc:
		return fs[0].inputs
	}
	return nil
}
