package shellfacts

import (
	"path"
	"strings"
)

// crontabFiles: crontab FILE (or -, stdin) installs a crontab; the file is
// read. Whether it installs, lists (-l) or removes (-r) is in its options,
// which a policy reads from the command line.
func crontabFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "unsT"})
	w.pathsTo(p.operands, w.reads, c.name)
	w.pathsTo(p.values("-T"), w.reads, c.name)
}

// psOptions records ps's options as procps reads them (Command.Options):
// a word with a dash holds UNIX options (-e: every process), one with two
// a GNU long option, and a word without a dash BSD options, which are
// recorded bare (e: each process's environment). A letter that takes a
// value takes the rest of its word or the next word, which is not
// options: ps -o user has no e.
func psOptions(w *walker, c *call) {
	var opts []string
	args := c.args
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() || f.s == "" {
			continue
		}
		s := f.s
		switch {
		case strings.HasPrefix(s, "--"):
			name, _, eq := strings.Cut(s, "=")
			opts = append(opts, name)
			switch name {
			case "--format", "--pid", "--ppid", "--sort", "--user", "--User", "--group", "--Group", "--sid", "--tty",
				"--quick-pid", "--cols", "--columns", "--width", "--lines", "--rows", "--context", "--deselect-pid":
				if !eq {
					i++
				}
			}
		case strings.HasPrefix(s, "-"):
			i += psLetters(s[1:], "CGgOopqstUun", "-", &opts)
		case isDigits(strings.ReplaceAll(s, ",", "")):
			// ps 123: a list of process ids.
		default:
			i += psLetters(s, "OopqtUk", "", &opts)
		}
	}
	w.setOptions(c, opts)
}

// psLetters appends the options of one word of ps letters (prefix "-" for
// UNIX ones, "" for BSD ones) and returns 1 when the last one takes the
// next word as its value.
func psLetters(s, withValue, prefix string, opts *[]string) int {
	for j := 0; j < len(s); j++ {
		*opts = append(*opts, prefix+s[j:j+1])
		if strings.IndexByte(withValue, s[j]) >= 0 {
			if j+1 == len(s) {
				return 1
			}
			return 0
		}
	}
	return 0
}

// splitFiles: split FILE [PREFIX] reads FILE and writes files named PREFIX
// and a suffix (xaa, xab ... without one), so it writes below PREFIX's
// directory entries whose names are PREFIX's last component, a suffix
// letter or digit, and anything (Facts.WritesBelow, with that name test
// as the filter; --additional-suffix ends it); csplit FILE PATTERN...
// does the same with -f PREFIX (xx by default) and digits (-b FORMAT:
// anything). split --filter runs a command on each piece instead.
func splitFiles(w *walker, c *call) {
	if c.name == "csplit" {
		p := parseOpts(c.args, optSpec{withValue: "bfn", long: []string{"suffix-format", "prefix", "digits"},
			abbrev: []string{"suffix-format", "prefix", "keep-files", "suppress-matched", "digits", "quiet", "silent", "elide-empty-files", "help", "version"}})
		if len(p.operands) > 0 {
			w.path(p.operands[0], w.reads, c.name)
		}
		prefix := field{s: "xx", static: true, raw: "xx"}
		if v := p.values("-f", "--prefix"); len(v) > 0 {
			prefix = v[len(v)-1]
		}
		suffix := "[0-9]*"
		if len(p.values("-b", "--suffix-format")) > 0 {
			suffix = "?*"
		}
		w.writesPrefix(prefix, suffix, c.name)
		return
	}
	long := []string{"suffix-length", "additional-suffix", "bytes", "line-bytes", "lines", "number", "separator", "filter"}
	p := parseOpts(c.args, optSpec{withValue: "abClnt", long: long,
		abbrev: append([]string{"numeric-suffixes", "hex-suffixes", "elide-empty-files", "unbuffered", "verbose", "help", "version"}, long...)})
	in := field{s: "-", static: true, raw: "-"}
	if len(p.operands) > 0 {
		in = p.operands[0]
	}
	w.path(in, w.reads, c.name)
	for _, f := range p.values("--filter") {
		w.nestedString(f, "split --filter")
	}
	if len(p.values("--filter")) > 0 {
		return
	}
	prefix := field{s: "x", static: true, raw: "x"}
	if len(p.operands) > 1 {
		prefix = p.operands[1]
	}
	suffix := "[a-z0-9]*"
	for _, a := range p.values("--additional-suffix") {
		if !a.known() {
			suffix = "?*"
			break
		}
		suffix = "[a-z0-9]*" + escapePattern(a.s)
	}
	w.writesPrefix(prefix, suffix, c.name)
}

// writesPrefix records the files named after a prefix that split and
// csplit write: below the prefix's directory, those whose names are its
// last component followed by suffix (a name test).
func (w *walker) writesPrefix(prefix field, suffix, what string) {
	if !prefix.known() {
		w.path(prefix, w.writes, what)
		return
	}
	dir, base := path.Split(prefix.s)
	if dir == "" {
		dir = "."
	}
	tmp := map[string]bool{}
	w.path(field{s: dir, static: true, raw: prefix.raw}, tmp, what)
	for d := range tmp {
		w.writesBelow[d] = true
		w.belowFilter(d, []string{escapePattern(base) + suffix})
	}
}

// prFiles: pr reads its operands; +FIRST[:LAST] is a page range.
func prFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "DhlNowW", long: []string{"date-format", "header", "length", "first-line-number", "indent", "width", "page-width", "pages", "columns", "sep-string"}})
	for _, f := range p.operands {
		if f.known() && strings.HasPrefix(f.s, "+") && strings.Trim(f.s[1:], "0123456789:") == "" {
			continue
		}
		w.path(f, w.reads, c.name)
	}
}

// ptxFiles: ptx reads its operands (with -G, the second is the output)
// and the word lists its options name.
func ptxFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "bFgiMoSWw", long: []string{"break-file", "flag-truncation", "gap-size", "ignore-file", "macro-name", "only-file", "sentence-regexp", "word-regexp", "width"}})
	w.pathsTo(p.values("-b", "--break-file", "-i", "--ignore-file", "-o", "--only-file"), w.reads, c.name)
	ops := p.operands
	if p.has("-G", "--traditional") && len(ops) > 1 {
		w.path(ops[1], w.writes, c.name)
		ops = ops[:1]
	}
	w.pathsTo(ops, w.reads, c.name)
}

// uuencodeFiles: uuencode [-m] [FILE] NAME reads FILE; NAME is only the
// name written into the output.
func uuencodeFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{})
	if len(p.operands) > 1 {
		w.path(p.operands[0], w.reads, c.name)
	}
}

// dos2unixFiles: dos2unix and friends convert their operands in place
// (with -n, pairs of input and output files).
func dos2unixFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "c", long: []string{"convmode", "add-eol"}})
	w.pathsTo(p.operands, w.reads, c.name)
	w.pathsTo(p.operands, w.writes, c.name)
}
