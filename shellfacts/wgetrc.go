package shellfacts

import (
	"strings"
)

// wget's parser is getopt_long: it takes any unambiguous prefix of a long
// option (--exec is --execute, --post-f --post-file) and refuses an
// ambiguous one. To resolve prefixes as wget does, parseOpts must know
// its long options that take no value as well as those that do: these
// are wget 1.21's. wget also accepts --no- before any option that is a
// switch (--no-quiet); those are listed where they are documented.

// wgetLong are wget's long options that take a value.
var wgetLong = []string{"execute", "output-file", "append-output", "report-speed", "input-file", "input-metalink", "base",
	"config", "rejected-log", "tries", "retry-on-http-error", "output-document", "start-pos", "progress", "timeout",
	"dns-timeout", "connect-timeout", "read-timeout", "wait", "waitretry", "quota", "bind-address", "limit-rate",
	"restrict-file-names", "prefer-family", "user", "password", "use-askpass", "local-encoding", "remote-encoding",
	"metalink-index", "preferred-location", "directory-prefix", "cut-dirs", "http-user", "http-password",
	"default-page", "header", "compression", "max-redirect", "proxy-user", "proxy-password", "referer", "user-agent",
	"load-cookies", "save-cookies", "post-data", "post-file", "method", "body-data", "body-file", "secure-protocol",
	"certificate", "certificate-type", "private-key", "private-key-type", "ca-certificate", "ca-directory", "crl-file",
	"pinnedpubkey", "random-file", "egd-file", "ciphers", "hsts-file", "ftp-user", "ftp-password", "warc-file",
	"warc-header", "warc-max-size", "warc-dedup", "warc-tempdir", "level", "backups", "accept", "reject",
	"accept-regex", "reject-regex", "regex-type", "domains", "exclude-domains", "follow-tags", "ignore-tags",
	"include-directories", "exclude-directories", "bind-dns-address", "dns-servers"}

// wgetLongFlags are wget's long options that take no value.
var wgetLongFlags = []string{"version", "help", "background", "debug", "quiet", "verbose", "no-verbose", "force-html",
	"no-config", "retry-connrefused", "retry-on-host-error", "no-clobber", "no-netrc", "continue", "show-progress",
	"timestamping", "no-if-modified-since", "no-use-server-timestamps", "server-response", "spider", "random-wait",
	"no-proxy", "no-dns-cache", "ignore-case", "inet4-only", "inet6-only", "ask-password", "no-iri", "unlink",
	"keep-badhash", "metalink-over-http", "xattr", "no-directories", "force-directories", "no-host-directories",
	"protocol-directories", "no-cache", "adjust-extension", "ignore-length", "save-headers", "no-http-keep-alive",
	"no-cookies", "keep-session-cookies", "content-disposition", "content-on-error", "auth-no-challenge",
	"https-only", "no-check-certificate", "no-hsts", "no-remove-listing", "no-glob", "no-passive-ftp",
	"preserve-permissions", "retr-symlinks", "ftps-implicit", "ftps-resume-ssl", "ftps-clear-data-connection",
	"ftps-fallback-to-ftp", "warc-cdx", "no-warc-compression", "no-warc-digests", "no-warc-keep-log", "recursive",
	"delete-after", "convert-links", "convert-file-only", "backup-converted", "mirror", "page-requisites",
	"strict-comments", "follow-ftp", "span-hosts", "relative", "trust-server-names", "no-parent", "no-check-hostname",
	"check-certificate", "passive-ftp", "http-keep-alive", "cookies", "parent", "clobber", "glob", "hsts"}

// wgetCommands applies wgetrc commands (`name = value`, what -e/--execute
// gives one at a time and a --config file holds one a line) as wget
// reads them: the name ignores case, '_' and '-' (post_file, postfile,
// post-file), the value is the rest of the line. Those that name files
// are recorded as their options are: post_file and body_file are
// uploads, output_document, logfile, save_cookies and dir_prefix writes,
// input, load_cookies and the certificate files reads; use_askpass runs
// the program it names.
func (w *walker) wgetCommands(text, raw string) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		name = strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(strings.TrimSpace(name)))
		v := field{s: strings.TrimSpace(value), static: true, raw: raw}
		switch name {
		case "postfile", "bodyfile":
			w.upload(v, "wget "+name)
		case "outputdocument", "logfile", "savecookies", "dirprefix":
			w.path(v, w.writes, "wget "+name)
		case "input", "loadcookies", "certificate", "privatekey", "cacertificate", "crlfile":
			w.path(v, w.reads, "wget "+name)
			if name == "input" {
				w.incomplete("wget reads its URLs from a file")
			}
		case "useaskpass":
			w.nestedString(v, "wget use_askpass")
		}
	}
}

// wgetConfig reads the startup file --config (or WGETRC) names: text
// written in the command line (--config=/dev/stdin <<< 'post_file = f')
// is applied as wgetrc commands; a file or a stream Parse cannot read may
// set any of them (post_file uploads a file), so it is code only known
// at run time, as curl -K FILE is.
func (w *walker) wgetConfig(c *call, v field, what string) {
	if v.known() && (v.s == "/dev/null" || v.s == "") {
		return
	}
	text, kind := w.inputOf(c, v, false)
	switch kind {
	case inputText:
		w.wgetCommands(text, v.raw)
		return
	case inputFile:
		w.path(v, w.reads, what)
	}
	w.incomplete("wget reads commands from a config it cannot see")
	w.unknownCode(what + " " + v.raw)
}
