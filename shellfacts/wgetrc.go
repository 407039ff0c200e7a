package shellfacts

import (
	"strings"
)

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
