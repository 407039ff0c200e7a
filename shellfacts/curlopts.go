package shellfacts

// curl's parser, like getopt_long, takes any unambiguous prefix of a long
// option (--upload-fi is --upload-file, --data-bin --data-binary), and
// refuses an ambiguous one (--fo: --form, --form-string, --form-escape).
// To resolve prefixes as curl does, parseOpts must know curl's options
// that take no value as well as those that do: otherwise --crlf would
// be read as --crlfile and take the next word for its value.

// curlLongFlags are curl's long options that take no value.
var curlLongFlags = []string{"anyauth", "append", "basic", "ca-native", "cert-status", "compressed", "compressed-ssh", "create-dirs",
	"crlf", "digest", "disable", "disable-eprt", "disable-epsv", "disallow-username-in-url", "fail", "fail-early", "fail-with-body",
	"false-start", "form-escape", "ftp-create-dirs", "ftp-pasv", "ftp-pret", "ftp-skip-pasv-ip", "ftp-ssl-ccc", "ftp-ssl-control",
	"get", "globoff", "haproxy-protocol", "head", "help", "http0.9", "http1.0", "http1.1", "http2", "http2-prior-knowledge", "http3",
	"http3-only", "ignore-content-length", "include", "insecure", "ipv4", "ipv6", "junk-session-cookies", "list-only", "location",
	"location-trusted", "manual", "mail-rcpt-allowfails", "metalink", "negotiate", "netrc", "netrc-optional", "next", "no-alpn",
	"no-buffer", "no-clobber", "no-keepalive", "no-npn", "no-progress-meter", "no-sessionid", "ntlm", "ntlm-wb", "parallel",
	"parallel-immediate", "path-as-is", "post301", "post302", "post303", "progress-bar", "proxy-anyauth", "proxy-basic",
	"proxy-ca-native", "proxy-digest", "proxy-http2", "proxy-insecure", "proxy-negotiate", "proxy-ntlm", "proxy-ssl-allow-beast",
	"proxy-ssl-auto-client-cert", "proxy-tlsv1", "proxytunnel", "raw", "remote-header-name", "remote-name", "remote-name-all",
	"remote-time", "remove-on-error", "retry-all-errors", "retry-connrefused", "sasl-ir", "show-error", "show-headers", "silent",
	"socks5-basic", "socks5-gssapi", "socks5-gssapi-nec", "ssl", "ssl-allow-beast", "ssl-auto-client-cert", "ssl-no-revoke",
	"ssl-reqd", "ssl-revoke-best-effort", "sslv2", "sslv3", "styled-output", "suppress-connect-headers", "tcp-fastopen",
	"tcp-nodelay", "tftp-no-options", "tlsv1", "tlsv1.0", "tlsv1.1", "tlsv1.2", "tlsv1.3", "tr-encoding", "trace-time", "use-ascii",
	"verbose", "version", "xattr"}

// parseCurlOpts is parseOpts for curl: the spec's long options and
// curlLongFlags resolve abbreviations as curl does, and an ambiguous one
// is unknown code.
func (w *walker) parseCurlOpts(args []field, spec optSpec) parsed {
	spec.gnu = true
	spec.longFlags = append(spec.longFlags[:len(spec.longFlags):len(spec.longFlags)], curlLongFlags...)
	p := parseOpts(args, spec)
	w.unknownOpts("curl", p)
	return p
}
