package shellfacts

import (
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
