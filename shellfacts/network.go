package shellfacts

import (
	"net/netip"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/vouch-dev/vouch/canonpath"
)

// findURL returns the URL inside s, from its scheme on, and whether there
// is one ("https://", "ftp://"...: a letter, then letters, digits, + - .,
// then "://"). It finds "--url=https://x" as well as "https://x".
func findURL(s string) (string, bool) {
	i := strings.Index(s, "://")
	if i <= 0 {
		return "", false
	}
	start := i
	for start > 0 {
		c := s[start-1]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.' {
			start--
			continue
		}
		break
	}
	if start == i {
		return "", false
	}
	c := s[start]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return "", false
	}
	return s[start:], true
}

// addURL records a network target; a file:// URL is a read of that file.
func (w *walker) addURL(u string, what string) {
	if strings.HasPrefix(strings.ToLower(u), "file://") {
		if pu, err := url.Parse(u); err == nil && pu.Path != "" {
			w.addPath(pu.Path, w.reads, what)
			return
		}
		w.addPath(u[len("file://"):], w.reads, what)
		return
	}
	w.urls[u] = true
}

// noNetwork lists programs that only print or search text: a URL among
// their arguments is data, not a place they connect to.
func noNetwork(name string) bool {
	switch name {
	case "echo", "printf", "print", ":", "true", "false", "test", "[", "grep", "egrep", "fgrep", "rg", "ag", "ack",
		"sed", "awk", "gawk", "mawk", "jq", "yq", "tr", "cut", "sort", "uniq", "head", "tail", "cat", "less", "more",
		"wc", "tee", "read", "declare", "local", "export", "readonly", "typeset", "set", "unset", "alias", "trap",
		"git", "eval", "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "cd", "pushd", "ls", "mkdir",
		"rm", "cp", "mv", "touch", "chmod", "chown", "logger", "notify-send", "xdg-open", "open", "column", "diff":
		return true
	}
	return false
}

// anyURLs records URLs among the arguments of programs that may connect
// to them (package managers, scripts, anything not known to be text-only).
func (w *walker) anyURLs(name string, args []field) {
	if name == "" || noNetwork(name) {
		return
	}
	for _, f := range args {
		if !f.known() {
			continue
		}
		if u, ok := findURL(f.s); ok {
			w.addURL(u, name)
		}
	}
}

func (w *walker) urlArgs(c *call, fs []field) {
	for _, f := range fs {
		if !f.known() {
			w.incomplete("dynamic network target of " + c.name)
			continue
		}
		if f.s == "" {
			continue
		}
		if u, ok := findURL(f.s); ok {
			w.addURL(u, c.name)
			continue
		}
		w.urls[f.s] = true
	}
}

// curlArgs: operands are URLs (curl accepts bare host names); data and
// upload options that name a file with @ or -T read it, which is how
// files leave the machine.
func curlArgs(w *walker, c *call) {
	curlArgsDepth(w, c, 0)
}

// curlConfigFile reads the configuration -K FILE gives curl: text written
// in the command line (curl -K - <<< 'upload-file = f', --config
// /dev/stdin) is parsed and analysed as the options it holds (depth
// counts configs within configs); a file or a stream Parse cannot read
// may hold any option, so it is code only known at run time.
func (w *walker) curlConfigFile(c *call, name string, v field, depth int) {
	if v.known() && v.s == "/dev/null" {
		return
	}
	text, kind := w.inputOf(c, v, true)
	switch {
	case kind == inputText && depth < maxConfigDepth:
		curlArgsDepth(w, &call{name: c.name, args: curlConfig(text, v.raw), idx: c.idx}, depth+1)
		return
	case kind == inputFile:
		w.path(v, w.reads, "curl "+name)
	}
	w.incomplete("curl reads options from a config it cannot see")
	w.unknownCode("curl " + name + " " + v.raw)
}

func curlArgsDepth(w *walker, c *call, depth int) {
	p := w.parseCurlOpts(c.args, optSpec{
		withValue: "AbcCdDeEFHKmorTuUwxXyYzQtPh",
		long: []string{"user-agent", "cookie", "cookie-jar", "continue-at", "data", "data-ascii", "data-binary", "data-raw",
			"data-urlencode", "dump-header", "referer", "cert", "form", "form-string", "header", "config", "max-time",
			"output", "range", "upload-file", "user", "proxy-user", "write-out", "proxy", "request", "speed-limit",
			"speed-time", "time-cond", "quote", "telnet-option", "ftp-port", "url", "json", "key", "cacert", "capath",
			"connect-timeout", "retry", "resolve", "connect-to", "output-dir", "netrc-file", "trace", "trace-ascii",
			"stderr", "unix-socket", "abstract-unix-socket", "proto", "proto-redir", "max-filesize", "interface",
			"local-port", "oauth2-bearer", "aws-sigv4", "variable", "expand-url", "etag-save", "etag-compare", "hsts",
			"alt-svc", "crlfile", "pinnedpubkey", "preproxy", "proxy-cacert", "socks4", "socks4a", "socks5",
			"socks5-hostname", "noproxy", "retry-delay", "retry-max-time", "header-file", "libcurl", "mail-from",
			"mail-rcpt", "mail-auth", "key-type", "cert-type", "ciphers", "tls-max", "doh-url", "dns-servers"},
	})
	w.urlArgs(c, p.operands)
	for _, u := range p.values("--url") {
		w.urlArgs(c, []field{u})
	}
	// --output-dir DIR puts -o's relative files and -O's in DIR.
	var outDir *field
	if d := p.values("--output-dir"); len(d) > 0 {
		outDir = &d[len(d)-1]
	}
	inDir := func(f field) field {
		if outDir == nil || (f.known() && (f.s == "-" || strings.HasPrefix(f.s, "/"))) {
			return f
		}
		j := field{s: strings.TrimSuffix(outDir.s, "/") + "/" + f.s, static: outDir.static && f.static, raw: outDir.raw + "/" + f.raw}
		if !outDir.known() || !f.known() {
			j.static = false
		}
		return j
	}
	if p.has("-O", "--remote-name", "--remote-name-all") {
		// -O saves each URL under the last part of its path (with -J,
		// the name the server gives, without its directories, when it
		// gives one), in the current directory or --output-dir.
		urls := append(append([]field(nil), p.operands...), p.values("--url")...)
		for _, u := range urls {
			if !u.known() {
				w.path(inDir(field{raw: "{file named after " + u.raw + "}"}), w.writes, "curl -O")
				continue
			}
			rest := u.s
			if i := strings.Index(rest, "://"); i >= 0 {
				rest = rest[i+3:]
			}
			rest, _, _ = strings.Cut(rest, "?")
			rest, _, _ = strings.Cut(rest, "#")
			if i := strings.LastIndexByte(rest, '/'); i >= 0 && i+1 < len(rest) {
				w.path(inDir(field{s: rest[i+1:], static: true, raw: rest[i+1:]}), w.writes, "curl -O")
			}
		}
	}
	for _, o := range p.opts {
		if !o.hasVal {
			continue
		}
		v := o.val
		switch o.name {
		case "-d", "--data", "--data-ascii", "--data-binary", "--json":
			if v.known() && strings.HasPrefix(v.s, "@") {
				w.upload(field{s: v.s[1:], static: true, raw: v.raw}, "curl "+o.name)
			} else if f, ok := runTimeFile(v, dataFileMark); ok {
				w.upload(f, "curl "+o.name)
			}
		case "--data-urlencode":
			if v.known() {
				if _, file, ok := strings.Cut(v.s, "@"); ok && !strings.Contains(v.s[:strings.Index(v.s, "@")], "=") {
					w.upload(field{s: file, static: true, raw: v.raw}, "curl "+o.name)
				}
			}
		case "-F", "--form":
			if v.known() {
				if _, val, ok := strings.Cut(v.s, "="); ok && (strings.HasPrefix(val, "@") || strings.HasPrefix(val, "<")) {
					file, _, _ := strings.Cut(val[1:], ";")
					w.upload(field{s: file, static: true, raw: v.raw}, "curl "+o.name)
				}
			} else if f, ok := runTimeFile(v, formFileMark); ok {
				w.upload(f, "curl "+o.name)
			}
		case "-T", "--upload-file":
			w.upload(v, "curl "+o.name)
		case "-K", "--config":
			w.curlConfigFile(c, o.name, v, depth)
		case "--netrc-file", "-E", "--cert", "--key", "--cacert", "--header-file", "--etag-compare":
			w.path(v, w.reads, "curl "+o.name)
		case "-H", "--header":
			if v.known() && strings.HasPrefix(v.s, "@") {
				w.path(field{s: v.s[1:], static: true, raw: v.raw}, w.reads, "curl "+o.name)
			}
		case "-b", "--cookie":
			if v.known() && !strings.Contains(v.s, "=") {
				w.path(v, w.reads, "curl "+o.name)
			}
		case "-o", "--output":
			w.path(inDir(v), w.writes, "curl "+o.name)
		case "-c", "--cookie-jar", "-D", "--dump-header", "--trace", "--trace-ascii", "--stderr", "--etag-save", "--libcurl":
			w.path(v, w.writes, "curl "+o.name)
		case "-x", "--proxy", "--preproxy", "--socks5", "--socks5-hostname", "--socks4", "--socks4a", "--doh-url":
			w.urlArgs(c, []field{v})
		}
	}
}

func wgetArgs(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "OoaiPtTwQUeBDIXlAR", long: wgetLong, longFlags: wgetLongFlags, gnu: true})
	w.unknownOpts(c.name, p)
	w.urlArgs(c, p.operands)
	w.pathsTo(p.values("-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "--save-cookies"), w.writes, c.name)
	w.pathsTo(p.values("-i", "--input-file", "--load-cookies", "--certificate", "--private-key", "--ca-certificate"), w.reads, c.name)
	// -e runs a wgetrc command, which may name a file to post
	// (post_file) as the options do; a startup file (--config, else
	// WGETRC) may hold any of them.
	for _, e := range p.values("-e", "--execute") {
		if !e.known() {
			w.incomplete("wget -e with a command that is not static")
			w.unknownCode("wget -e " + e.raw)
			continue
		}
		w.wgetCommands(e.s, e.raw)
	}
	if cfg := p.values("--config"); len(cfg) > 0 {
		for _, f := range cfg {
			w.wgetConfig(c, f, "wget --config")
		}
	} else if !p.has("--no-config") {
		for _, e := range w.facts.Commands[c.idx].Env {
			if v, ok := strings.CutPrefix(e, "WGETRC="); ok {
				w.wgetConfig(c, field{s: v, static: v != "", raw: e}, "WGETRC")
			}
		}
	}
	for _, f := range p.values("--use-askpass") {
		w.nestedString(f, "wget --use-askpass")
	}
	for _, f := range p.values("--post-file", "--body-file") {
		w.upload(f, c.name)
	}
	if len(p.values("-i", "--input-file")) > 0 {
		w.incomplete("wget reads its URLs from a file")
	}
	if d := p.values("-P", "--directory-prefix"); len(d) > 0 {
		w.pathsTo(d, w.writes, c.name)
	}
}

// httpieArgs: `http [METHOD] URL [items]`; items name@file, name=@file and
// name:=@file upload or embed files.
func httpieArgs(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "aAvpPo", long: []string{"auth", "auth-type", "output", "print", "session", "session-read-only", "verify", "cert", "cert-key", "proxy", "timeout", "boundary", "format-options", "style", "pretty"}})
	ops := p.operands
	if len(ops) > 1 && ops[0].known() && isMethod(ops[0].s) {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		return
	}
	w.urlArgs(c, ops[:1])
	for _, it := range ops[1:] {
		if !it.known() {
			w.incomplete("dynamic request item of " + c.name)
			continue
		}
		for _, sep := range []string{":=@", "=@", "@"} {
			if i := strings.Index(it.s, sep); i >= 0 && !strings.ContainsAny(it.s[:i], "=:") {
				w.upload(field{s: it.s[i+len(sep):], static: true, raw: it.raw}, c.name)
				break
			}
		}
	}
	w.pathsTo(p.values("-o", "--output"), w.writes, c.name)
	w.pathsTo(p.values("--cert", "--cert-key"), w.reads, c.name)
}

func isMethod(s string) bool {
	switch strings.ToUpper(s) {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT":
		return s == strings.ToUpper(s) || s == strings.ToLower(s)
	}
	return false
}

// netcatArgs: the first operand is the host; socat's addresses carry it
// after the address type.
func netcatArgs(w *walker, c *call) {
	if c.name == "telnet" {
		// telnet sends its standard input to the host, as nc does.
		w.uploadStdin(c, "telnet")
	}
	if c.name == "socat" {
		for _, f := range c.args {
			if !f.known() {
				w.incomplete("dynamic address of socat")
				continue
			}
			if strings.HasPrefix(f.s, "-") {
				continue
			}
			typ, rest, ok := strings.Cut(f.s, ":")
			if !ok {
				continue
			}
			switch strings.ToUpper(typ) {
			case "TCP", "TCP4", "TCP6", "UDP", "UDP4", "UDP6", "SSL", "OPENSSL", "TCP-CONNECT", "UDP-CONNECT", "PROXY", "SOCKS4", "SOCKS4A", "SOCKS5":
				host, _, _ := strings.Cut(rest, ",")
				w.urls[host] = true
			case "OPEN", "CREATE", "GOPEN", "FILE":
				path, _, _ := strings.Cut(rest, ",")
				w.addPath(path, w.reads, "socat")
				if strings.ToUpper(typ) != "OPEN" {
					w.addPath(path, w.writes, "socat")
				}
			case "EXEC", "SYSTEM":
				cmd, _, _ := strings.Cut(rest, ",")
				w.nestedString(field{s: cmd, static: true}, "socat "+strings.ToUpper(typ))
			}
		}
		return
	}
	p := parseOpts(c.args, optSpec{withValue: "pswiqxXeTIOmbcP", long: []string{"source", "source-port", "wait", "proxy", "proxy-type", "exec", "sh-exec", "lua-exec", "output", "hex-dump", "idle-timeout", "send-only"}})
	if len(p.operands) > 0 {
		w.urlArgs(c, p.operands[:1])
	}
	for _, e := range p.values("-e", "--exec") {
		w.simpleFromString(e, c.name+" -e")
	}
	for _, e := range p.values("-c", "--sh-exec") {
		w.nestedString(e, c.name+" -c")
	}
	w.pathsTo(p.values("-o", "--output", "-x", "--hex-dump"), w.writes, c.name)
}

// simpleFromString runs a program named by a plain string (nc -e
// /bin/sh), split on spaces, not through a shell.
func (w *walker) simpleFromString(f field, what string) {
	if !f.known() {
		w.incomplete(what + " with a program that is not static")
		return
	}
	var fs []field
	for _, s := range strings.Fields(f.s) {
		fs = append(fs, field{s: s, static: true, raw: s})
	}
	if len(fs) == 0 {
		return
	}
	w.depth++
	w.simple(fs, nil, false, nil, ctx{})
	w.depth--
}

var sshSpec = optSpec{withValue: "bcDEeFIiJLlmOoPpQRSWwB", posix: true}

// autosshSpec adds autossh's own -M port to ssh's options.
var autosshSpec = optSpec{withValue: "bcDEeFIiJLlMmOoPpQRSWwB", posix: true}

// sshArgs: the destination is a network target; a remote command runs on
// the other machine, so its files are not local facts, unless the
// destination is this machine (localhost, a loopback address): then the
// command runs here, as the same user unless another is named, in the
// home directory, and it is analysed as a nested script. OpenSSH reads
// options after the destination too.
func sshArgs(w *walker, c *call) {
	spec := sshSpec
	if c.name == "autossh" {
		spec = autosshSpec
	}
	p := parseOpts(c.args, spec)
	var dest *field
	var command []field
	if len(p.operands) > 0 {
		dest = &p.operands[0]
		w.urlArgs(c, p.operands[:1])
		after := parseOpts(p.operands[1:], spec)
		p.opts = append(p.opts, after.opts...)
		command = after.operands
	}
	// -i names a key ssh authenticates with: ssh reads it but sends
	// only a signature, never the key, so it is not a read for the
	// rules on secrets (ssh -i ~/.ssh/id_rsa host is everyday use); a
	// key sent anywhere is a scp or rsync source, which is read.
	for _, f := range p.values("-F") {
		p.opts = append(p.opts, w.sshConfigFile(c, f)...)
	}
	w.pathsTo(p.values("-E"), w.writes, c.name)
	for _, j := range p.values("-J") {
		w.urlArgs(c, []field{j})
	}
	host, user := "", ""
	var remoteCommand []field
	for _, o := range p.values("-o") {
		w.sshOption(o)
		if !o.known() {
			// -o "$OPT" may be a RemoteCommand, run here when the
			// destination is this machine.
			remoteCommand = append(remoteCommand, o)
			continue
		}
		k, v, ok := sshConfigLine(o.s)
		if !ok {
			continue
		}
		switch k {
		case "hostname":
			host = v
		case "user":
			user = v
		case "remotecommand":
			// The command ssh runs there when none is given on the
			// command line, as a string for the remote shell.
			if v != "" && !strings.EqualFold(v, "none") {
				remoteCommand = append(remoteCommand, field{s: v, static: true, raw: o.raw})
			}
		}
	}
	if len(command) == 0 {
		command = remoteCommand
	}
	if dest == nil || c.name == "mosh" || p.has("-N", "-O") {
		return
	}
	// ssh sends its standard input to the remote command (or, with -W,
	// to the forwarded port): a file redirected there goes out as scp
	// would send it. To this machine the command is walked below.
	if p.has("-W", "-s") || !dest.known() {
		w.uploadInput(c, c.name, false)
		return
	}
	h, u := sshDestination(dest.s)
	if host == "" {
		host = h
	}
	if user == "" {
		user = u
	}
	for _, l := range p.values("-l") {
		user = "?"
		if l.known() {
			user = l.s
		}
	}
	if !localHost(host) {
		w.uploadInput(c, c.name, false)
		return
	}
	w.sshLocal(c, command, user)
}

// sshDestination splits an ssh destination ([user@]host or
// ssh://[user@]host[:port]) into its host and user.
func sshDestination(d string) (host, user string) {
	if rest, ok := strings.CutPrefix(strings.ToLower(d), "ssh://"); ok {
		d = d[len(d)-len(rest):]
		if i := strings.IndexByte(d, '/'); i >= 0 {
			d = d[:i]
		}
		if i := strings.LastIndexByte(d, '@'); i >= 0 {
			user, d = d[:i], d[i+1:]
		}
		if strings.HasPrefix(d, "[") {
			if i := strings.IndexByte(d, ']'); i > 0 {
				return d[1:i], user
			}
		}
		if i := strings.LastIndexByte(d, ':'); i >= 0 && strings.Count(d, ":") == 1 {
			d = d[:i]
		}
		return d, user
	}
	if i := strings.LastIndexByte(d, '@'); i >= 0 {
		user, d = d[:i], d[i+1:]
	}
	return strings.TrimSuffix(strings.TrimPrefix(d, "["), "]"), user
}

// localHost reports whether a host name or address is this machine:
// localhost (and names below .localhost), a loopback or unspecified IPv4
// or IPv6 address, in any notation the resolver accepts (127.1,
// 0x7f000001, 2130706433, ::ffff:127.0.0.1).
func localHost(h string) bool {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	switch h {
	case "localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback":
		return true
	}
	if strings.HasSuffix(h, ".localhost") {
		return true
	}
	if ip, err := netip.ParseAddr(h); err == nil {
		ip = ip.Unmap()
		return ip.IsLoopback() || ip.IsUnspecified()
	}
	if a, ok := inetAton(h); ok {
		return a>>24 == 127 || a == 0
	}
	return false
}

// inetAton reads an IPv4 address as inet_aton does: one to four parts,
// each decimal, octal (0...) or hexadecimal (0x...), the last filling the
// remaining bytes.
func inetAton(s string) (uint32, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 || s == "" {
		return 0, false
	}
	var a uint64
	for i, p := range parts {
		if p == "" || strings.ContainsAny(p, "_+-") {
			return 0, false
		}
		base := 10
		switch {
		case strings.HasPrefix(p, "0x"):
			base, p = 16, p[2:]
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		if p == "" && base == 16 {
			return 0, false
		}
		n := uint64(0)
		if p != "" {
			var err error
			if n, err = strconv.ParseUint(p, base, 32); err != nil {
				return 0, false
			}
		}
		if i < len(parts)-1 {
			if n > 255 {
				return 0, false
			}
			a = a<<8 | n
			continue
		}
		bits := uint(8 * (4 - i))
		if bits < 32 && n >= 1<<bits {
			return 0, false
		}
		a = a<<bits | n
	}
	return uint32(a), true
}

// sshLocal analyses what ssh runs on this machine: the remote command,
// joined with spaces and run by the user's shell in the home directory
// (another user's home is not known), or with no command a login shell
// reading its script on stdin.
func (w *walker) sshLocal(c *call, command []field, user string) {
	what := "ssh " + c.name
	if c.name == "ssh" {
		what = "ssh to this machine"
	}
	st := w.saveDir()
	defer w.restoreDir(st)
	w.vars = map[string]string{}
	if user == "" && w.opts.Home != "" {
		w.cd(field{s: w.opts.Home, static: true, raw: "~"})
	} else {
		w.dirKnown = false
	}
	if len(command) == 0 {
		if lastStdin(c.redirs) != nil || w.facts.Commands[c.idx].PipeFrom != "" || c.pipeKnown {
			w.stdinScript(c, what)
		}
		return
	}
	words := make([]string, 0, len(command))
	for _, f := range command {
		if !f.known() {
			w.incomplete(what + " with a command that is not static")
			w.unknownCode(what + " " + f.raw)
			return
		}
		words = append(words, f.s)
	}
	w.script(strings.Join(words, " "), w.depth+1, what)
	// A shell run there reads its script from ssh's stdin.
	if len(words) > 0 && isShellName(baseName(strings.Fields(words[0] + " x")[0])) {
		if lastStdin(c.redirs) != nil || w.facts.Commands[c.idx].PipeFrom != "" || c.pipeKnown {
			w.stdinScript(c, what)
		}
	}
}

// sshConfigFile reads the configuration file -F names: text written in
// the command line (ssh -F /dev/stdin <<< '...', -F /dev/fd/3 3<<EOF)
// becomes the -o options its lines amount to, whatever Host or Match
// block they are in; a file (other than /dev/null and the files ssh
// reads anyway, ~/.ssh/config and /etc/ssh/ssh_config) or a stream Parse
// cannot read may hold a ProxyCommand, LocalCommand or
// KnownHostsCommand, which run here, so it is code only known at run
// time.
func (w *walker) sshConfigFile(c *call, f field) []opt {
	if f.known() && f.s == "/dev/null" {
		return nil
	}
	text, kind := w.inputOf(c, f, false)
	if kind == inputText {
		var out []opt
		for _, line := range strings.Split(text, "\n") {
			if _, _, ok := sshConfigLine(line); ok {
				out = append(out, opt{name: "-o", val: field{s: line, static: true, raw: f.raw}, hasVal: true})
			}
		}
		return out
	}
	if kind == inputFile {
		if f.known() && !f.glob {
			p := w.addPath(f.s, w.reads, c.name)
			if p != "" && (p == "/etc/ssh/ssh_config" || w.opts.Home != "" && p == w.homeSSHConfig()) {
				// The files ssh reads anyway.
				return nil
			}
		} else {
			w.path(f, w.reads, c.name)
		}
	}
	w.incomplete(c.name + " reads a configuration it cannot see")
	w.unknownCode(c.name + " -F " + f.raw)
	return nil
}

// homeSSHConfig is the canonical path of the user's ~/.ssh/config.
func (w *walker) homeSSHConfig() string {
	p, err := canonpath.CanonicalFromLinks(w.opts.Home+"/.ssh/config", w.cwd(), w.links)
	if err != nil {
		return ""
	}
	return p
}

// sshOption looks at -o ProxyCommand=... and friends, which run local
// commands.
func (w *walker) sshOption(o field) {
	if !o.known() {
		return
	}
	k, v, ok := sshConfigLine(o.s)
	if !ok {
		return
	}
	switch k {
	case "proxycommand", "localcommand", "knownhostscommand":
		w.nestedString(field{s: v, static: true}, "ssh "+k)
	case "userknownhostsfile", "globalknownhostsfile":
		w.addPath(v, w.reads, "ssh "+k)
		// IdentityFile and CertificateFile are what ssh authenticates
		// with, never sent (see sshArgs): not reads.
	case "match":
		// Match exec "command" runs the command here to test the
		// condition (in a config file; ssh refuses Match in -o).
		words := sftpWords(v)
		for i, m := range words {
			if (strings.EqualFold(m, "exec") || strings.EqualFold(m, "!exec")) && i+1 < len(words) {
				w.nestedString(field{s: words[i+1], static: true, raw: o.raw}, "ssh Match exec")
			}
		}
	case "include":
		// More configuration, from files Parse does not read.
		w.incomplete("ssh includes a configuration it cannot see")
		w.unknownCode("ssh Include " + v)
	}
}

// sshConfigLine splits one line of ssh configuration (an -o option, a
// line of an ssh_config file) as OpenSSH's readconf.c does: leading
// white space is skipped, the keyword ends at the first space, tab or
// '=' (a double quote in it starts a quoted part that ends the keyword
// at the next quote), then white space and at most one '=' are skipped
// (a command's value, as parse_command reads it, loses every leading
// '=' and white space). The keyword is lowercased, as OpenSSH matches
// keywords ignoring case; trailing white space is dropped from the
// value. ok is false for an empty line, a comment or an unmatched quote.
func sshConfigLine(line string) (key, value string, ok bool) {
	const ws = " \t\r\n"
	s := strings.TrimLeft(line, ws)
	i := strings.IndexAny(s, ws+"\"=")
	var rest string
	switch {
	case i < 0:
		key = s
	case s[i] == '"':
		t := s[:i] + s[i+1:]
		j := strings.IndexByte(t[i:], '"')
		if j < 0 {
			return "", "", false
		}
		key, rest = t[:i+j], strings.TrimLeft(t[i+j+1:], ws)
	default:
		key, rest = s[:i], strings.TrimLeft(s[i+1:], ws)
		if s[i] != '=' && strings.HasPrefix(rest, "=") {
			rest = strings.TrimLeft(rest[1:], ws)
		}
	}
	if key == "" || strings.HasPrefix(key, "#") {
		return "", "", false
	}
	key = strings.ToLower(key)
	switch key {
	case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
		rest = strings.TrimLeft(rest, ws+"=")
	}
	return key, strings.TrimRight(rest, ws+"\f"), true
}

// remote splits an scp/rsync operand into a remote target ("host:path",
// "user@host:path", "scp://...") or a local path.
func remote(s string) (host string, isRemote bool) {
	if u, ok := findURL(s); ok && strings.HasPrefix(s, u) {
		return s, true
	}
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") {
		return "", false
	}
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", false
	}
	if j := strings.IndexByte(s, '/'); j >= 0 && j < i {
		return "", false
	}
	return s, true
}

// sshClientOpts reads the options scp and sftp share with ssh: -F
// config files (their options join p's), -o options, and the -S program
// they run as ssh.
func (w *walker) sshClientOpts(c *call, p *parsed) {
	for _, f := range p.values("-F") {
		p.opts = append(p.opts, w.sshConfigFile(c, f)...)
	}
	for _, o := range p.values("-o") {
		w.sshOption(o)
	}
	for _, s := range p.values("-S") {
		w.simpleFromString(s, c.name+" -S")
	}
}

func scpArgs(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "cFiJloPSDX"})
	// -i is the key to authenticate with, not a file sent (see sshArgs).
	w.sshClientOpts(c, &p)
	w.transfer(c, p.operands)
}

// transfer: all operands but the last are sources (read when local, and
// uploaded when the destination is remote), the last is the destination
// (written when local); remote ones are targets.
func (w *walker) transfer(c *call, ops []field) {
	toRemote := false
	if n := len(ops); n > 1 && ops[n-1].known() {
		_, toRemote = remote(ops[n-1].s)
	}
	for i, f := range ops {
		if !f.known() {
			w.incomplete("dynamic operand of " + c.name)
			if i == len(ops)-1 && len(ops) > 1 {
				// A destination only known at run time may be a
				// local path, any of them.
				w.unresolvedWrite(w.writes, f.raw)
			}
			continue
		}
		if _, ok := remote(f.s); ok {
			w.urls[f.s] = true
			continue
		}
		switch {
		case i == len(ops)-1 && len(ops) > 1:
			w.path(f, w.writes, c.name)
		case toRemote:
			w.upload(f, c.name)
		default:
			w.path(f, w.reads, c.name)
		}
	}
}

func rsyncArgs(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "eBfT", long: []string{"rsh", "rsync-path", "exclude", "exclude-from", "include", "include-from", "files-from", "filter", "password-file", "temp-dir", "compare-dest", "copy-dest", "link-dest", "backup-dir", "suffix", "chmod", "chown", "log-file", "partial-dir", "block-size", "max-size", "min-size", "bwlimit", "timeout", "port", "out-format", "log-file-format", "write-batch", "read-batch", "usermap", "groupmap", "iconv"}})
	w.pathsTo(p.values("--exclude-from", "--include-from", "--files-from", "--password-file", "--read-batch"), w.reads, c.name)
	w.pathsTo(p.values("--log-file", "--write-batch"), w.writes, c.name)
	for _, e := range p.values("-e", "--rsh") {
		w.nestedString(e, "rsync -e")
	}
	w.transfer(c, p.operands)
	if p.has("-r", "-a", "--recursive", "--archive") {
		w.syncTrees(c, p)
	}
	if p.has("--remove-source-files") {
		for _, f := range p.operands[:max(len(p.operands)-1, 0)] {
			if f.known() {
				if _, ok := remote(f.s); !ok {
					w.path(f, w.deletes, c.name)
				}
			}
		}
	}
}

// syncTrees records what a recursive rsync to a local destination may
// replace as a whole (see tree; with --delete it also removes what the
// source lacks): the destination itself when a source's contents go into
// it (src/, src/.) or when -R rebuilds the sources' paths below it, else
// the entry named after each source that is not a local file.
func (w *walker) syncTrees(c *call, p parsed) {
	if len(p.operands) < 2 {
		return
	}
	dest := p.operands[len(p.operands)-1]
	if !dest.known() {
		return // transfer recorded it as a write only known at run time
	}
	if _, ok := remote(dest.s); ok {
		return
	}
	for _, s := range p.operands[:len(p.operands)-1] {
		src := s.s
		if _, ok := remote(src); ok {
			// host:dir copies dir into dest; host: copies the home
			// directory's contents.
			_, src, _ = strings.Cut(src, ":")
			if src == "" {
				src = "./"
			}
		}
		base := path.Base(src)
		switch {
		case !s.known() || strings.HasSuffix(src, "/") || base == "." || base == "/" || p.has("-R", "--relative"):
			w.tree(dest.s, c.name)
		case src == s.s && w.isFile(src):
			// A local file is copied as a file (transfer recorded
			// it).
		default:
			w.tree(path.Join(dest.s, base), c.name)
		}
	}
}

func ftpArgs(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "PpcefuT"})
	if len(p.operands) > 0 {
		w.urlArgs(c, p.operands[:1])
	}
}

// dataFileMark reports whether curl -d's value starts with its file
// mark, @.
func dataFileMark(prefix string) bool { return strings.HasPrefix(prefix, "@") }

// formFileMark reports whether curl -F's value has its file mark,
// name=@file or name=<file.
func formFileMark(prefix string) bool {
	_, val, ok := strings.Cut(prefix, "=")
	return ok && (strings.HasPrefix(val, "@") || strings.HasPrefix(val, "<"))
}
