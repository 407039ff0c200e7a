package shellfacts

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// inputKind says where the text a program reads through a file argument
// comes from (see inputOf).
type inputKind int

const (
	// inputFile: a file the command line names, whose contents Parse
	// does not know (its read is recorded by the caller or by the
	// redirection that opens it).
	inputFile inputKind = iota
	// inputText: text written in the command line (a here-document, a
	// here-string, a static echo piped in), or nothing at all (the
	// terminal, which no command line types into).
	inputText
	// inputUnseen: text from a place Parse cannot see: another program
	// through a pipe or a process substitution, a descriptor opened
	// outside the command, a here-document that is not static.
	inputUnseen
)

// inputOf returns what a program reads through the file argument f: its
// standard input when f is "-" (and dash says the program reads "-" so)
// or /dev/stdin, another descriptor when f names one (/dev/fd/3), else
// the file f itself.
func (w *walker) inputOf(c *call, f field, dash bool) (string, inputKind) {
	if !f.known() {
		return "", inputUnseen
	}
	fd, ok := fdPath(f.s)
	if dash && f.s == "-" {
		fd, ok = "0", true
	}
	if !ok {
		return "", inputFile
	}
	return w.descriptorInput(c, fd)
}

// descriptorInput returns what a program reads on its descriptor fd.
func (w *walker) descriptorInput(c *call, fd string) (string, inputKind) {
	var last *syntax.Redirect
	if fd == "0" {
		last = lastStdin(c.redirs)
	} else {
		for _, r := range c.redirs {
			if r.N != nil && r.N.Value == fd {
				last = r
			}
		}
	}
	switch {
	case last == nil && fd == "0":
		if c.pipeKnown {
			return c.pipeText, inputText
		}
		if w.facts.Commands[c.idx].PipeFrom != "" {
			return "", inputUnseen
		}
		return "", inputText // the terminal
	case last == nil:
		return "", inputUnseen
	case last.Op == syntax.Hdoc || last.Op == syntax.DashHdoc || last.Op == syntax.WordHdoc:
		if text, static, _ := w.stdinText([]*syntax.Redirect{last}); static {
			return text, inputText
		}
		return "", inputUnseen
	case (last.Op == syntax.RdrIn || last.Op == syntax.RdrInOut) && last.Word != nil && !soleProcIn(last.Word):
		if fs := w.fieldsQuiet(last.Word); len(fs) == 1 && fs[0].known() && fs[0].s == "/dev/null" {
			return "", inputText
		}
		return "", inputFile
	}
	return "", inputUnseen
}

// maxConfigDepth bounds config files that name config files (curl -K
// inside a config).
const maxConfigDepth = 4

// curlConfig reads curl's configuration text (-K, --config) as curl's
// parseconfig does, into the command-line arguments it amounts to: one
// option a line, with or without its leading dashes (url = x, --url x,
// -T f); after a name without dashes the value follows white space, '='
// or ':'; a value in double quotes may hold spaces and the escapes \",
// \\, \t, \n, \r and \v; otherwise it ends at white space. Lines whose
// first non-blank character is '#' are comments.
func curlConfig(text, raw string) []field {
	var out []field
	add := func(s string) {
		out = append(out, field{s: s, static: true, raw: raw})
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimLeft(line, " \t\r\f\v")
		if line == "" || line[0] == '#' {
			continue
		}
		dashed := line[0] == '-'
		sep := func(c byte) bool { return !dashed && (c == '=' || c == ':') }
		i := 0
		for i < len(line) && !isConfigSpace(line[i]) && !sep(line[i]) {
			i++
		}
		name := line[:i]
		for i < len(line) && (isConfigSpace(line[i]) || sep(line[i])) {
			i++
		}
		rest := line[i:]
		var param string
		hasParam := false
		if strings.HasPrefix(rest, `"`) {
			param, hasParam = unquoteConfig(rest[1:]), true
		} else {
			j := 0
			for j < len(rest) && !isConfigSpace(rest[j]) {
				j++
			}
			param, hasParam = rest[:j], j > 0
		}
		switch {
		case !dashed:
			if hasParam {
				add("--" + name + "=" + param)
			} else {
				add("--" + name)
			}
		case strings.HasPrefix(name, "--") && hasParam:
			add(name + "=" + param)
		default:
			add(name)
			if hasParam {
				add(param)
			}
		}
	}
	return out
}

func isConfigSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'
}

// unquoteConfig reads a double-quoted value of a curl config line, from
// after its opening quote to the closing one (or the line's end).
func unquoteConfig(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			break
		}
		if c == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 't':
				c = '\t'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 'v':
				c = '\v'
			default:
				c = s[i]
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}
