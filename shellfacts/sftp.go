package shellfacts

import (
	"path"
	"strings"
)

// sftpArgs: sftp [options] destination. The destination is a network
// target; its commands come from -b FILE ("-" is stdin) or, without -b,
// from standard input. A batch written in the command line (a
// here-document, a here-string, a static echo) is read command by
// command (see sftpBatch); one Parse cannot see (a file, a pipe) may put
// any local file, so it counts as an upload of files it does not name.
// -S and -D name programs run here.
func sftpArgs(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "BbcDFiJlloPRSs", posix: true})
	w.sshClientOpts(c, &p)
	for _, s := range p.values("-D") {
		w.simpleFromString(s, c.name+" -D")
	}
	for _, j := range p.values("-J") {
		w.urlArgs(c, []field{j})
	}
	if len(p.operands) == 0 {
		return
	}
	w.urlArgs(c, p.operands[:1])
	// sftp host:path fetches path into the current directory, or
	// enters it, with no batch read.
	text, kind := "", inputText
	if bs := p.values("-b"); len(bs) > 0 {
		b := bs[len(bs)-1]
		text, kind = w.inputOf(c, b, true)
		if kind == inputFile {
			w.path(b, w.reads, c.name+" -b")
		}
	} else {
		text, kind = w.descriptorInput(c, "0")
	}
	if kind != inputText {
		w.incomplete(c.name + " reads commands Parse cannot see")
		w.uploads["{files named in the batch of "+c.name+"}"] = true
		return
	}
	w.sftpBatch(c, text)
}

// sftpBatch analyses sftp commands, one a line (a leading - or @, which
// only change error handling and echo, is dropped): put, mput and reput
// send local files (read and uploaded); get, mget and reget write local
// files (into the current local directory when no local path is given);
// lcd changes the local directory later relative paths are taken in;
// lls lists (reads) local directories, lmkdir makes one; !command runs
// a shell command here.
func (w *walker) sftpBatch(c *call, text string) {
	local := ""
	at := func(s string) field {
		if s == "~" || strings.HasPrefix(s, "~/") {
			if w.opts.Home != "" {
				s = w.opts.Home + s[1:]
			}
		}
		if local != "" && !strings.HasPrefix(s, "/") {
			s = path.Join(local, s)
		}
		return field{s: s, static: true, glob: strings.ContainsAny(s, "*?["), pat: s, raw: s}
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimLeft(line, " \t\r")
		line = strings.TrimLeft(line, "-@")
		line = strings.TrimLeft(line, " \t")
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '!' {
			if cmd := strings.TrimSpace(line[1:]); cmd != "" {
				w.nestedString(field{s: cmd, static: true, raw: line}, c.name+" !")
			} else {
				// A bare ! starts an interactive shell.
				w.unknownCode(c.name + " !")
			}
			continue
		}
		words := sftpWords(line)
		if len(words) == 0 {
			continue
		}
		cmd := strings.ToLower(words[0])
		var ops []string
		for _, a := range words[1:] {
			if strings.HasPrefix(a, "-") && len(ops) == 0 {
				continue // put -r, get -p ...
			}
			ops = append(ops, a)
		}
		switch cmd {
		case "put", "reput":
			if len(ops) > 0 {
				w.upload(at(ops[0]), c.name+" "+cmd)
			}
		case "mput":
			for _, o := range ops {
				w.upload(at(o), c.name+" "+cmd)
			}
		case "get", "reget":
			switch {
			case len(ops) > 1:
				w.path(at(ops[1]), w.writes, c.name+" "+cmd)
			case len(ops) == 1:
				if b := path.Base(ops[0]); b != "." && b != "/" && !strings.ContainsAny(b, "*?[") {
					w.path(at(b), w.writes, c.name+" "+cmd)
				}
			}
		case "mget":
			if n := len(ops); n > 1 {
				w.path(at(ops[n-1]), w.writes, c.name+" "+cmd)
			}
		case "lcd", "lchdir":
			if len(ops) > 0 {
				local = at(ops[0]).s
			}
		case "lls", "ldir":
			for _, o := range ops {
				w.path(at(o), w.reads, c.name+" "+cmd)
			}
		case "lmkdir":
			if len(ops) > 0 {
				w.path(at(ops[0]), w.writes, c.name+" "+cmd)
			}
		}
	}
}

// sftpWords splits an sftp command line into words as sftp's makeargv
// does: white space separates them, single and double quotes group, a
// backslash escapes the next character.
func sftpWords(line string) []string {
	var out []string
	var b strings.Builder
	in := false
	var quote byte
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case quote != 0 && ch == quote:
			quote = 0
		case quote == 0 && (ch == '\'' || ch == '"'):
			quote, in = ch, true
		case ch == '\\' && i+1 < len(line) && quote != '\'':
			i++
			b.WriteByte(line[i])
			in = true
		case quote == 0 && (ch == ' ' || ch == '\t'):
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(ch)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}
