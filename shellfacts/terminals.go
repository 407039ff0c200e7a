package shellfacts

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Programs that run a command somewhere else than in the shell that
// starts them: in a pseudo-terminal (script), in a terminal multiplexer's
// window (tmux, screen), or by typing it into a shell that is already
// running (tmux send-keys, screen -X stuff). The command is analysed as
// if it ran here, so the same rules apply to it.

// wrapScript: util-linux script -c CMD runs CMD with $SHELL -c; BSD script
// runs the command given after the typescript file. The typescript file
// is written.
func wrapScript(w *walker, args []field) wrapResult {
	p := parseOpts(args, optSpec{
		withValue: "cEIOBTmo",
		long:      []string{"command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format", "output-limit"},
		abbrev: []string{"append", "command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format",
			"flush", "force", "quiet", "output-limit", "timing", "help", "version"},
	})
	w.pathsTo(p.values("-I", "-O", "-B", "-T", "--log-in", "--log-out", "--log-io", "--log-timing"), w.writes, "script")
	if cs := p.values("-c", "--command"); len(cs) > 0 {
		if len(p.operands) > 0 {
			w.path(p.operands[0], w.writes, "script")
		}
		return wrapResult{after: func() {
			for _, s := range cs {
				w.nestedString(s, "script -c")
			}
		}}
	}
	// BSD: script [-adeFkpqr] [-F pipe] [-t time] [file [command ...]].
	b := parseOpts(args, optSpec{withValue: "FtT", posix: true})
	if len(b.operands) > 0 {
		w.path(b.operands[0], w.writes, "script")
	}
	if len(b.operands) > 1 {
		return wrapResult{ok: true, rest: b.operands[1:]}
	}
	// No command: script runs the user's shell, on script's stdin.
	return wrapResult{ok: true, shell: true}
}

// wrapScreen: GNU screen runs the program after its options in a new
// window (screen -dm cmd args); -X sends a screen command to a running
// session instead (stuff types text into it, screen and exec start
// programs there); -ls, -list and -wipe only list sessions.
func wrapScreen(w *walker, args []field) wrapResult {
	session, command, list := false, false, false
	i := 0
	next := func() (field, bool) {
		if i+1 < len(args) {
			i++
			return args[i], true
		}
		return field{}, false
	}
	// takeSession: -r, -R, -x and -ls take a session name that follows
	// when none was given yet.
	takeSession := func(dashOK bool) {
		if session || i+1 >= len(args) {
			return
		}
		if n := args[i+1]; !dashOK && n.known() && strings.HasPrefix(n.s, "-") {
			return
		}
		i++
		session = true
	}
options:
	for ; i < len(args); i++ {
		f := args[i]
		if !f.known() || len(f.s) < 2 || f.s[0] != '-' {
			break
		}
		switch f.s {
		case "--":
			i++
			break options
		case "--version", "--help":
			return wrapResult{}
		}
		s := f.s[1:]
	letters:
		for j := 0; j < len(s); j++ {
			switch s[j] {
			case 'p', 'c', 'e':
				// The value is the rest of the word or the next one.
				v, ok := field{s: s[j+1:], static: true, raw: f.raw}, j+1 < len(s)
				if !ok {
					v, ok = next()
				}
				if ok && s[j] == 'c' {
					w.path(v, w.reads, "screen -c")
				}
				break letters
			case 'h', 't', 'T', 's':
				next()
			case 'S':
				if !session {
					next()
					session = true
				}
			case 'l':
				if j+1 < len(s) {
					switch s[j+1] {
					case 's', 'i':
						// -ls, -list
						list = true
						takeSession(true)
						break letters
					}
					j++
				}
			case 'L':
				if s[j+1:] == "ogfile" {
					if v, ok := next(); ok {
						w.path(v, w.writes, "screen -Logfile")
					}
					break letters
				}
			case 'w':
				if s[j+1:] != "ipe" {
					return wrapResult{}
				}
				list = true
				takeSession(true)
				break letters
			case 'f':
				if j+1 < len(s) && strings.IndexByte("n0y1a", s[j+1]) >= 0 {
					j++
				}
			case 'r', 'R', 'x':
				takeSession(false)
			case 'X', 'Q':
				command = true
			case 'v':
				return wrapResult{}
			}
		}
	}
	rest := args[min(i, len(args)):]
	switch {
	case list:
		return wrapResult{}
	case command:
		// -d takes a session name only when it is the last argument,
		// which the command words here are not; -X with -d, -r or -x
		// still sends the command.
		return wrapResult{after: func() { w.screenCommand(rest) }}
	case len(rest) == 0:
		return wrapResult{}
	}
	// screen -dm NAME with nothing after it takes NAME as the session's
	// name and starts a shell; it is taken as the program here, which
	// at worst reports a command that does not run.
	return wrapResult{ok: true, rest: rest}
}

// screenCommand follows the screen command that -X sends to a session:
// stuff types its string into the session's window, screen starts a
// program in a new window, exec one in the current window, eval runs
// more screen commands, source and readbuf read files. What runs there
// runs in the session's directory, which is not known.
func (w *walker) screenCommand(args []field) {
	if len(args) == 0 {
		return
	}
	name := args[0]
	if !name.known() {
		w.incomplete("screen -X with a command that is not static")
		w.unknownCode("screen -X " + name.raw)
		return
	}
	rest := args[1:]
	switch name.s {
	case "stuff":
		var k keyboard
		for _, f := range rest {
			if !f.known() {
				w.incomplete("screen stuff with text that is not static")
				w.unknownCode("screen -X stuff " + f.raw)
				continue
			}
			k.typeText(screenEscapes(f.s))
		}
		w.typed(&k, "screen -X stuff")
	case "screen":
		w.screenWindow(rest)
	case "exec":
		i := 0
		if len(rest) > 0 && rest[0].known() && rest[0].s != "" && strings.Trim(rest[0].s, ".|!:") == "" {
			if strings.Contains(rest[0].s, "!") {
				// The program's output is typed into the window.
				w.incomplete("screen exec types a program's output into a window")
				w.unknownCode("screen -X exec " + rest[0].s)
			}
			i = 1
		}
		if i < len(rest) {
			w.nestedArgv(rest[i:], "screen -X exec", "screen", false)
		}
	case "eval":
		for _, f := range rest {
			if !f.known() {
				w.incomplete("screen eval of a command that is not static")
				w.unknownCode("screen -X eval " + f.raw)
				continue
			}
			w.script("screen -X "+f.s, w.depth+1, "screen eval")
		}
	case "at":
		// at [identifier][#|*|%] command [args]: the command runs in
		// the windows or displays named.
		if len(rest) > 1 {
			w.screenCommand(rest[1:])
		}
	case "register":
		// register [-e encoding] key string
		r := rest
		if len(r) > 2 && r[0].known() && r[0].s == "-e" {
			r = r[2:]
		}
		if len(r) >= 2 && r[0].known() {
			w.setPasteBuf("screen:"+r[0].s, pasteBuf{text: screenEscapes(r[1].s), known: r[1].known()})
		}
	case "readreg":
		// readreg [-e encoding] [register [filename]]
		r := rest
		if len(r) > 2 && r[0].known() && r[0].s == "-e" {
			r = r[2:]
		}
		reg := "."
		if len(r) > 0 && r[0].known() {
			reg = r[0].s
		}
		if len(r) > 1 {
			w.path(r[len(r)-1], w.reads, "screen readreg")
		}
		w.setPasteBuf("screen:"+reg, pasteBuf{})
	case "paste":
		// paste [registers [dest_reg]]: with a destination the text
		// goes to a register, not the window.
		if len(rest) != 1 {
			if len(rest) > 1 && rest[1].known() {
				w.setPasteBuf("screen:"+rest[1].s, pasteBuf{})
			}
			if len(rest) == 0 {
				w.incomplete("screen paste without a register")
				w.unknownCode("screen -X paste")
			}
			return
		}
		if !rest[0].known() {
			w.incomplete("screen paste of registers that are not static")
			w.unknownCode("screen -X paste " + rest[0].raw)
			return
		}
		var k keyboard
		for _, r := range rest[0].s {
			b, ok := w.pasteBufs["screen:"+string(r)]
			if !ok || !b.known {
				w.incomplete("screen paste types a register that is not known")
				w.unknownCode("screen -X paste " + rest[0].s)
				return
			}
			k.typeText(b.text)
		}
		w.typed(&k, "screen -X paste")
	case "source":
		if len(rest) > 0 {
			w.path(rest[len(rest)-1], w.reads, "screen "+name.s)
		}
		w.incomplete("screen source runs screen commands from a file")
		w.unknownCode("screen -X source")
	case "readbuf":
		if len(rest) > 0 {
			w.path(rest[len(rest)-1], w.reads, "screen "+name.s)
		}
		w.setPasteBuf("screen:.", pasteBuf{})
	case "bufferfile", "logfile":
		// bufferfile [file] names the file readbuf and writebuf use;
		// logfile file (or logfile flush secs) the one log writes.
		if len(rest) == 0 || name.s == "logfile" && rest[0].known() && rest[0].s == "flush" {
			return
		}
		f := rest[0]
		if w.screenFiles == nil {
			w.screenFiles = map[string]field{}
		}
		w.screenFiles[name.s] = f
		if name.s == "logfile" {
			w.screenWrite(f, "screen logfile")
		}
	case "writebuf", "hardcopy", "log":
		// writebuf [-e encoding] [file], hardcopy [-h] [file]: without
		// a file, the bufferfile or hardcopy.N in the hardcopy
		// directory; log [on|off] writes the logfile.
		r := rest
		if len(r) > 1 && r[0].known() && (name.s == "writebuf" && r[0].s == "-e") {
			r = r[2:]
		}
		if len(r) > 0 && r[0].known() && name.s == "hardcopy" && r[0].s == "-h" {
			r = r[1:]
		}
		switch {
		case name.s == "log":
			if len(r) > 0 && r[0].known() && r[0].s == "off" {
				return
			}
			if f, ok := w.screenFiles["logfile"]; ok {
				w.screenWrite(f, "screen log")
				return
			}
		case len(r) > 0:
			w.screenWrite(r[0], "screen "+name.s)
			return
		case name.s == "writebuf":
			if f, ok := w.screenFiles["bufferfile"]; ok {
				w.screenWrite(f, "screen writebuf")
				return
			}
		}
		// The file is screen's default or one named by an earlier
		// command (bufferfile, logfile, hardcopydir): not known here.
		w.incomplete("screen " + name.s + " writes a file not named here")
		w.unresolvedWrite(w.writes, "screen "+name.s)
	case "process":
		// process [key] types a register's text as input to screen
		// itself: screen commands, not followed.
		w.incomplete("screen process types a register into screen")
		w.unknownCode("screen -X process")
	case "bind", "bindkey", "idle":
		// bind [-c class] key [command [args]], bindkey [-d] [-m] [-a]
		// [-k|-t] string [command [args]], idle [timeout [command
		// [args]]]: the command runs when the key is typed or the
		// session idles.
		i := 0
		for i < len(rest) && rest[i].known() && strings.HasPrefix(rest[i].s, "-") && name.s != "idle" {
			if rest[i].s == "-c" {
				i++
			}
			i++
		}
		if i+1 < len(rest) {
			w.screenCommand(rest[i+1:])
		}
	case "backtick":
		// backtick id lifespan autorefresh cmd args: runs cmd.
		if len(rest) > 3 {
			w.nestedArgv(rest[3:], "screen -X backtick", "screen", false)
		}
	case "blankerprg":
		if len(rest) > 0 {
			w.nestedArgv(rest, "screen -X blankerprg", "screen", false)
		}
	case "shell", "defshell":
		// The program new windows run.
		if len(rest) > 0 {
			w.nestedArgv(rest[:1], "screen -X "+name.s, "screen", false)
		}
	case "setenv":
		// The environment of the windows started after it.
		if len(rest) > 1 && rest[0].known() {
			v := rest[1]
			w.envCode([]assignment{{name: rest[0].s, value: v.s, static: v.known(), raw: rest[0].raw + " " + v.raw}})
		}
	}
}

// screenWrite records a file a screen command writes. A name with %
// is expanded by screen (window number, title, time): not known here.
func (w *walker) screenWrite(f field, what string) {
	if f.known() && strings.Contains(f.s, "%") {
		w.incomplete(what + " writes a file whose name screen expands")
		w.unresolvedWrite(w.writes, f.raw)
		return
	}
	w.path(f, w.writes, what)
}

// screenWindow follows screen's own screen command (DoScreen): options
// (-t, -T, -h and the older -k take a value, joined or next), then a
// window number, N or N:title, then the program and its arguments. A
// word with a colon is cut at the last one even when what comes before
// is not a number, and an empty number is window 0.
func (w *walker) screenWindow(rest []field) {
	i := 0
	for ; i < len(rest); i++ {
		f := rest[i]
		if !f.known() || f.s == "" || f.s[0] != '-' {
			break
		}
		if strings.HasPrefix(f.s, "--") {
			i++
			break
		}
		if len(f.s) == 2 && strings.IndexByte("tThk", f.s[1]) >= 0 {
			i++
		}
	}
	if i < len(rest) && rest[i].known() {
		s := rest[i].s
		j := strings.LastIndexByte(s, ':')
		if j >= 0 {
			s = s[:j]
		}
		switch {
		case s == "" || isDigits(s):
			i++
		case j >= 0:
			rest = slices.Clone(rest)
			rest[i].s = s
		}
	}
	if i < len(rest) {
		w.nestedArgv(rest[i:], "screen -X screen", "screen", false)
	}
}

// pasteBuf is a tmux buffer's or screen register's text, when known.
type pasteBuf struct {
	text  string
	known bool
}

// setPasteBuf records a tmux buffer or screen register (at most 64).
func (w *walker) setPasteBuf(name string, b pasteBuf) {
	if w.pasteBufs == nil {
		w.pasteBufs = map[string]pasteBuf{}
	}
	if _, ok := w.pasteBufs[name]; !ok && len(w.pasteBufs) >= 64 {
		return
	}
	w.pasteBufs[name] = b
	if name != "" && !strings.HasPrefix(name, "screen:") {
		// The buffer set last is the one paste-buffer takes without -b.
		w.pasteBufs[""] = b
	}
}

// tmuxBufName is the buffer a tmux command names with -b, "" for the
// most recent one.
func tmuxBufName(p tmuxParsed) string {
	if bs := p.vals['b']; len(bs) > 0 && bs[len(bs)-1].known() {
		return bs[len(bs)-1].s
	}
	return ""
}

// screenEscapes decodes what screen's stuff reads as control characters:
// ^X, \ooo and \\ (and \n, \r, taken as the keys they name).
func screenEscapes(s string) string {
	if !strings.ContainsAny(s, `^\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '^' && i+1 < len(s):
			i++
			if s[i] == '?' {
				b.WriteByte(0x7f)
			} else {
				b.WriteByte(s[i] & 0x1f)
			}
		case c == '\\' && i+1 < len(s):
			i++
			switch d := s[i]; {
			case d == 'n':
				b.WriteByte('\n')
			case d == 'r':
				b.WriteByte('\r')
			case d >= '0' && d <= '7':
				n, j := 0, i
				for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
					n = n*8 + int(s[j]-'0')
				}
				b.WriteByte(byte(n))
				i = j - 1
			default:
				b.WriteByte(d)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// nestedArgv records a program run without a shell from a list of words
// (tmux new-window cmd arg..., screen -X screen cmd), one level deeper.
// It runs in another process: a cd there does not move this shell, and
// when dirKnown is false it runs in a directory not known here.
func (w *walker) nestedArgv(fs []field, what, wrapper string, dirKnown bool) {
	if w.depth+1 > w.opts.MaxDepth {
		w.incomplete(what + " nested too deeply")
		w.unknownCode(what + " nested deeper than " + strconv.Itoa(w.opts.MaxDepth) + " levels")
		return
	}
	st := w.saveDir()
	if !dirKnown {
		w.dirKnown = false
	}
	w.depth++
	w.simple(fs, nil, false, nil, ctx{wrappers: []string{wrapper}})
	w.depth--
	w.restoreDir(st)
}

// nestedStringIn is nestedString for a command run in a directory this
// command line does not show (a tmux window's, a running shell's): its
// relative paths are unresolved.
func (w *walker) nestedStringIn(f field, what string, dirKnown bool) {
	st := w.saveDir()
	if !dirKnown {
		w.dirKnown = false
	}
	w.nestedString(f, what)
	w.restoreDir(st)
}

// keyboard follows what keys typed into a terminal make the shell there
// run: text accumulates on the current line, Enter (CR or LF) enters it,
// a backspace takes a character back, ^C and ^U drop the line. Keys
// whose effect cannot be told from here (Tab completion, arrows and
// history, Escape and other control keys) make it unknown.
type keyboard struct {
	done    []byte
	line    []byte
	unknown string
}

func (k *keyboard) typeByte(c byte) {
	switch {
	case c == '\r' || c == '\n':
		k.done = append(append(k.done, k.line...), '\n')
		k.line = k.line[:0]
	case c == 0x7f || c == 0x08:
		if len(k.line) > 0 {
			_, n := utf8.DecodeLastRune(k.line)
			k.line = k.line[:len(k.line)-n]
		}
	case c == 0x03 || c == 0x15:
		k.line = k.line[:0]
	case c < 0x20:
		k.unknownKey("^" + string(rune(c|0x40)))
	default:
		k.line = append(k.line, c)
	}
}

func (k *keyboard) typeText(s string) {
	for i := 0; i < len(s); i++ {
		k.typeByte(s[i])
	}
}

func (k *keyboard) unknownKey(name string) {
	if k.unknown == "" {
		k.unknown = name
	}
}

// text is every line entered and the one still being typed: the last
// runs once something enters it, in this call or a later one.
func (k *keyboard) text() string {
	return string(k.done) + string(k.line)
}

// tmuxC0 are tmux's names for control characters.
var tmuxC0 = map[string]byte{
	"[NUL]": 0x00, "[SOH]": 0x01, "[STX]": 0x02, "[ETX]": 0x03, "[EOT]": 0x04, "[ENQ]": 0x05, "[ASC]": 0x06,
	"[BEL]": 0x07, "[BS]": 0x08, "TAB": 0x09, "[LF]": 0x0a, "[VT]": 0x0b, "[FF]": 0x0c, "ENTER": 0x0d,
	"[SO]": 0x0e, "[SI]": 0x0f, "[DLE]": 0x10, "[DC1]": 0x11, "[DC2]": 0x12, "[DC3]": 0x13, "[DC4]": 0x14,
	"[NAK]": 0x15, "[SYN]": 0x16, "[ETB]": 0x17, "[CAN]": 0x18, "[EM]": 0x19, "[SUB]": 0x1a, "ESCAPE": 0x1b,
	"[FS]": 0x1c, "[GS]": 0x1d, "[RS]": 0x1e, "[US]": 0x1f, "SPACE": ' ', "BSPACE": 0x7f, "KPENTER": 0x0d,
	"KP/": '/', "KP*": '*', "KP-": '-', "KP+": '+', "KP.": '.', "KP0": '0', "KP1": '1', "KP2": '2', "KP3": '3',
	"KP4": '4', "KP5": '5', "KP6": '6', "KP7": '7', "KP8": '8', "KP9": '9',
}

// tmuxNamedKeys are tmux's other key names (arrows, function and editing
// keys), which move the cursor or recall history.
var tmuxNamedKeys = map[string]bool{
	"F1": true, "F2": true, "F3": true, "F4": true, "F5": true, "F6": true, "F7": true, "F8": true, "F9": true,
	"F10": true, "F11": true, "F12": true, "IC": true, "INSERT": true, "DC": true, "DELETE": true, "HOME": true,
	"END": true, "NPAGE": true, "PAGEDOWN": true, "PGDN": true, "PPAGE": true, "PAGEUP": true, "PGUP": true,
	"BTAB": true, "UP": true, "DOWN": true, "LEFT": true, "RIGHT": true,
}

// tmuxKey types one argument of tmux send-keys as tmux reads it: a key
// name (Enter, C-m, BSpace, Up, 0x0d, with C-, M- and S- or ^ modifiers)
// or, when it names no key, its text.
func (k *keyboard) tmuxKey(s string) {
	rest, ctrl, other := s, false, false
	for len(rest) > 2 && rest[1] == '-' {
		switch rest[0] {
		case 'C', 'c':
			ctrl = true
		case 'M', 'm', 'S', 's':
			other = true
		default:
			// Not a modifier: tmux sends the whole word as text.
			k.typeText(s)
			return
		}
		rest = rest[2:]
	}
	if len(rest) >= 2 && rest[0] == '^' {
		ctrl, rest = true, rest[1:]
	}
	var c byte
	if _, n := utf8.DecodeRuneInString(rest); n == len(rest) && rest != "" {
		if rest == s {
			k.typeText(s)
			return
		}
		if len(rest) != 1 {
			k.unknownKey(s)
			return
		}
		c = rest[0]
	} else if v, ok := tmuxC0[strings.ToUpper(rest)]; ok {
		c = v
	} else if h, ok := strings.CutPrefix(strings.ToLower(rest), "0x"); ok {
		n, err := strconv.ParseUint(h, 16, 32)
		if err != nil || n >= 0x80 {
			k.unknownKey(s)
			return
		}
		c = byte(n)
	} else if tmuxNamedKeys[strings.ToUpper(rest)] {
		k.unknownKey(s)
		return
	} else {
		if rest == s {
			k.typeText(s)
		} else {
			k.unknownKey(s)
		}
		return
	}
	switch {
	case other:
		k.unknownKey(s)
		return
	case ctrl && c == '?':
		c = 0x7f
	case ctrl && c >= 0x40:
		c &= 0x1f
	case ctrl:
		k.unknownKey(s)
		return
	}
	if c < 0x20 && strings.IndexByte("\r\n\x08\x03\x15", c) < 0 {
		// Tab, Escape, C-a...: named as written.
		k.unknownKey(s)
		return
	}
	k.typeByte(c)
}

// typed analyses what a keyboard typed into a shell that runs elsewhere
// (a tmux pane, a screen window): in a directory not known here, with
// its own variables.
func (w *walker) typed(k *keyboard, what string) {
	if k.unknown != "" {
		w.incomplete(what + " types keys whose effect is not known")
		w.unknownCode(what + " " + k.unknown)
	}
	text := k.text()
	if strings.TrimSpace(text) == "" {
		return
	}
	st := w.saveDir()
	w.vars = map[string]string{}
	w.dirKnown = false
	w.script(text, w.depth+1, what)
	w.restoreDir(st)
}

// tmuxCmd is one of tmux's commands: its name, alias and flags (getopt
// letters, : after one that takes a value, :: an optional one).
type tmuxCmd struct{ name, alias, flags string }

// tmuxCommands is tmux's command table (3.6, with new-pane and
// switch-mode from its master branch): tmux accepts a command's alias or
// any prefix of exactly one name.
var tmuxCommands = []tmuxCmd{
	{"attach-session", "attach", "c:dEf:rt:x"}, {"bind-key", "bind", "nrN:T:"},
	{"break-pane", "breakp", "abdPF:n:s:t:Wx:X:y:Y:"}, {"capture-pane", "capturep", "ab:CeE:FHJLMNpPqRS:Tt:"},
	{"choose-buffer", "", "F:f:K:kNO:rt:yZ"}, {"choose-client", "", "F:f:hiK:kNO:rt:yZ"},
	{"choose-tree", "", "F:f:GhK:kNO:rst:wyZ"}, {"clear-history", "clearhist", "Ht:"},
	{"clear-prompt-history", "clearphist", "T:"}, {"clock-mode", "", "t:"},
	{"command-prompt", "", "1CbeFiklI:NPp:t:T:"}, {"confirm-before", "confirm", "bc:p:t:y"},
	{"copy-mode", "", "dekHMqSs:t:u"}, {"customize-mode", "", "F:f:kNt:yZ"}, {"delete-buffer", "deleteb", "b:"},
	{"detach-client", "detach", "aE:s:t:P"}, {"display-menu", "menu", "b:c:C:H:s:S:MOt:T:x:y:"},
	{"display-message", "display", "aCc:d:lINpt:F:v"}, {"display-panes", "displayp", "d:kNs:t:Z"},
	{"display-popup", "popup", "Bb:Cc:d:e:Eh:kNs:S:t:T:w:x:y:"}, {"find-window", "findw", "CiNrt:TZ"},
	{"has-session", "has", "t:"}, {"if-shell", "if", "bFt:"}, {"join-pane", "joinp", "bdfhvp:l:s:t:"},
	{"kill-pane", "killp", "af:t:"}, {"kill-server", "", ""}, {"kill-session", "", "aCgf:t:"},
	{"kill-window", "killw", "af:t:"}, {"last-pane", "lastp", "det:Z"}, {"last-window", "last", "t:"},
	{"link-window", "linkw", "abdks:t:"}, {"list-buffers", "lsb", "F:f:O:r"}, {"list-clients", "lsc", "F:f:O:rt:"},
	{"list-commands", "lscm", "F:"}, {"list-keys", "lsk", "1aF:NO:P:rT:"}, {"list-panes", "lsp", "aF:f:O:rst:"},
	{"list-sessions", "ls", "F:f:O:r"}, {"list-windows", "lsw", "aF:f:O:rt:"}, {"load-buffer", "loadb", "b:t:w"},
	{"lock-client", "lockc", "t:"}, {"lock-server", "lock", ""}, {"lock-session", "locks", "t:"},
	{"move-pane", "movep", "bdD::fhMvl:L::P:R::s:t:U::X:Y:z:"}, {"move-window", "movew", "abdkrs:t:"},
	{"new-pane", "newp", "AbB:Cc:de:EfF:hIkl:KLMm:Op:PR:s:S:t:T:vWx:X:y:Y:Z"},
	{"new-session", "new", "Ac:dDe:EF:f:n:Ps:t:x:Xy:"}, {"new-window", "neww", "abc:de:EF:kn:PSt:"},
	{"next-layout", "nextl", "t:"}, {"next-window", "next", "at:"}, {"paste-buffer", "pasteb", "db:prSs:t:"},
	{"pipe-pane", "pipep", "IOot:"}, {"previous-layout", "prevl", "t:"}, {"previous-window", "prev", "at:"},
	{"refresh-client", "refresh", "A:B:cC:Df:r:F:lLRSt:U"}, {"rename-session", "rename", "t:"},
	{"rename-window", "renamew", "t:"}, {"resize-pane", "resizep", "D::L::MR::Tt:U::x:y:Z"},
	{"resize-window", "resizew", "aADLRt:Ux:y:"}, {"respawn-pane", "respawnp", "c:e:Ekt:"},
	{"respawn-window", "respawnw", "c:e:Ekt:"}, {"rotate-window", "rotatew", "Dt:UZ"},
	{"run-shell", "run", "bd:Ct:Es:c:"}, {"save-buffer", "saveb", "ab:"}, {"select-layout", "selectl", "Enopt:"},
	{"select-pane", "selectp", "DdegLlMmP:RT:t:UZ"}, {"select-window", "selectw", "lnpTt:"},
	{"send-keys", "send", "c:FHKlMN:Rt:X"}, {"send-prefix", "", "2t:"}, {"server-access", "", "adglrw"},
	{"set-buffer", "setb", "ab:t:n:w"}, {"set-environment", "setenv", "Fhgrt:u"},
	{"set-hook", "", "agpERTt:uB:w"}, {"set-option", "set", "aFgopqst:uUw"},
	{"set-window-option", "setw", "aFgoqt:u"}, {"show-buffer", "showb", "b:"},
	{"show-environment", "showenv", "hgst:"}, {"show-hooks", "", "BF:gpt:w"}, {"show-messages", "showmsgs", "JTt:"},
	{"show-options", "show", "AgF:Hpqst:vw"}, {"show-prompt-history", "showphist", "T:"},
	{"show-window-options", "showw", "F:gvt:"}, {"source-file", "source", "t:Fnqv"},
	{"split-window", "splitw", "bB:c:de:EfF:hIkl:m:p:PR:s:S:t:T:vWZ"}, {"start-server", "start", ""},
	{"suspend-client", "suspendc", "t:"}, {"swap-pane", "swapp", "dDs:t:UZ"}, {"swap-window", "swapw", "ds:t:"},
	{"switch-client", "switchc", "c:EFlnO:pt:rT:Z"}, {"switch-mode", "", "F:kst:wZ"},
	{"unbind-key", "unbind", "anqT:"}, {"unlink-window", "unlinkw", "kt:"}, {"wait-for", "wait", "EF:LSUlvw:"},
}

// tmuxLookup finds the command tmux runs for a name: the one with that
// alias or name, else the only one whose name it begins. An ambiguous
// prefix is one tmux refuses, unless every command it may name is the
// same to Parse (respawn- is respawn-pane or respawn-window).
func tmuxLookup(name string) (tmuxCmd, bool) {
	var found []tmuxCmd
	for _, c := range tmuxCommands {
		if c.alias == name || c.name == name {
			return c, true
		}
		if name != "" && strings.HasPrefix(c.name, name) {
			found = append(found, c)
		}
	}
	if len(found) == 0 {
		return tmuxCmd{}, false
	}
	for _, c := range found[1:] {
		if tmuxKind(c.name) != tmuxKind(found[0].name) || c.flags != found[0].flags {
			return tmuxCmd{}, false
		}
	}
	return found[0], true
}

// tmuxKind groups the commands that run a shell command the same way.
func tmuxKind(name string) string {
	switch name {
	case "new-session", "new-window", "split-window", "new-pane", "respawn-pane", "respawn-window", "display-popup":
		return "spawn"
	}
	return name
}

// tmuxParsed is a tmux command's arguments read against its flags.
type tmuxParsed struct {
	flags map[byte]bool
	vals  map[byte][]field
	ops   []field
}

func tmuxParse(args []field, template string) tmuxParsed {
	p := tmuxParsed{flags: map[byte]bool{}, vals: map[byte][]field{}}
	i := 0
	for ; i < len(args); i++ {
		f := args[i]
		if !f.known() || len(f.s) < 2 || f.s[0] != '-' {
			break
		}
		if f.s == "--" {
			i++
			break
		}
		s := f.s[1:]
		for j := 0; j < len(s); j++ {
			c := s[j]
			at := strings.IndexByte(template, c)
			p.flags[c] = true
			if at < 0 || at+1 >= len(template) || template[at+1] != ':' {
				continue
			}
			optional := at+2 < len(template) && template[at+2] == ':'
			switch {
			case j+1 < len(s):
				p.vals[c] = append(p.vals[c], field{s: s[j+1:], static: true, raw: f.raw})
			case i+1 < len(args):
				n := args[i+1]
				if optional && n.known() && len(n.s) > 1 && n.s[0] == '-' && (n.s[1] == '-' || isLetter(n.s[1])) {
					break
				}
				i++
				p.vals[c] = append(p.vals[c], n)
			}
			break
		}
	}
	p.ops = args[min(i, len(args)):]
	return p
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// tmuxArgs: tmux [-2CDdhlNquUvV] [-c shell-command] [-f file] [-L name]
// [-S path] [-T features] [command [flags] [; command ...]]. The commands
// that start a program (new-session, new-window, split-window,
// respawn-pane, display-popup, run-shell, if-shell, pipe-pane, detach-client
// -E, -c) have it analysed; send-keys has the keys it types into a pane
// analysed as a script; commands that hold other tmux commands (bind-key,
// if-shell, set-hook, confirm-before, display-menu...) have those
// followed; a #(command) in any argument, which tmux runs when it
// expands the argument as a format, is analysed too.
func tmuxArgs(w *walker, c *call) {
	jobs := 0
	for _, f := range c.args {
		w.tmuxJobs(f, &jobs)
	}
	p := tmuxParse(c.args, "2c:CDdf:hlL:NqS:T:uUvV")
	w.pathsTo(p.vals['f'], w.reads, "tmux -f")
	for _, s := range p.vals['c'] {
		w.nestedString(s, "tmux -c")
	}
	w.tmuxSequence(p.ops, 0)
}

// tmuxJobs analyses the #(shell-command) jobs in a tmux argument (at most
// 16 per command line).
func (w *walker) tmuxJobs(f field, jobs *int) {
	if !f.known() {
		if strings.Contains(f.raw, "#(") {
			w.incomplete("tmux format job that is not static")
			w.unknownCode("tmux " + f.raw)
		}
		return
	}
	s := f.s
	for {
		i := strings.Index(s, "#(")
		if i < 0 {
			return
		}
		if *jobs++; *jobs > 16 {
			w.incomplete("more than 16 tmux format jobs")
			w.unknownCode("tmux: more than 16 #() jobs")
			return
		}
		s = s[i+2:]
		depth, end := 1, len(s)
		for j := 0; j < len(s); j++ {
			switch s[j] {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 0 {
				end = j
				break
			}
		}
		w.nestedStringIn(field{s: s[:end], static: true, raw: "#(" + s[:end] + ")"}, "tmux #()", false)
		s = s[end:]
	}
}

// maxTmuxNesting bounds how deeply tmux commands held by other tmux
// commands' arguments (bind-key k bind-key k ...) are followed.
const maxTmuxNesting = 4

// tmuxSequence runs a list of tmux commands separated by ";" (an argument
// ending in ; ends a command; \; is a literal ;). nesting counts the
// commands that hold this list (bind-key).
func (w *walker) tmuxSequence(args []field, nesting int) {
	if nesting > maxTmuxNesting {
		w.incomplete("tmux commands nested too deeply")
		w.unknownCode("tmux commands nested deeper than " + strconv.Itoa(maxTmuxNesting) + " levels")
		return
	}
	// A command is a slice of args unless a word of it had to change
	// (x\; is x;): then cur holds a copy.
	start := 0
	var cur []field
	for i, f := range args {
		if !f.known() || !strings.HasSuffix(f.s, ";") {
			if cur != nil {
				cur = append(cur, f)
			}
			continue
		}
		s := f.s[:len(f.s)-1]
		if strings.HasSuffix(s, `\`) {
			if cur == nil {
				cur = slices.Clone(args[start:i])
			}
			f.s = s[:len(s)-1] + ";"
			cur = append(cur, f)
			continue
		}
		cmd := cur
		if cmd == nil {
			cmd = args[start:i:i]
		}
		if s != "" {
			f.s = s
			cmd = append(cmd, f)
		}
		w.tmuxCommand(cmd, nesting)
		cur, start = nil, i+1
	}
	if cur == nil {
		cur = args[start:]
	}
	w.tmuxCommand(cur, nesting)
}

func (w *walker) tmuxCommand(args []field, nesting int) {
	if len(args) == 0 {
		return
	}
	if !args[0].known() {
		w.incomplete("tmux command that is not static")
		w.unknownCode("tmux " + args[0].raw)
		return
	}
	// An alias is looked up before the commands: one set earlier in
	// the command line, or one of tmux's own.
	if b, ok := w.tmuxAliases[args[0].s]; ok {
		w.tmuxAliasRun(args[0].s, b, args[1:])
		return
	}
	if words, ok := tmuxDefaultAliases[args[0].s]; ok {
		exp := make([]field, 0, len(words)+len(args)-1)
		for _, s := range words {
			exp = append(exp, field{s: s, static: true, raw: args[0].raw})
		}
		args = append(exp, args[1:]...)
	}
	cmd, ok := tmuxLookup(args[0].s)
	if !ok {
		// Not a command this table holds, or an ambiguous prefix:
		// tmux refuses it, unless it is an alias set outside this
		// command line (command-alias), which runs any command.
		w.incomplete("tmux command that is not known")
		w.unknownCode("tmux " + args[0].raw)
		return
	}
	p := tmuxParse(args[1:], cmd.flags)
	what := "tmux " + cmd.name
	switch cmd.name {
	case "new-session", "new-window", "split-window", "new-pane", "respawn-pane", "respawn-window":
		// new-session started from here runs in this directory; the
		// others in their session's, unless -c says.
		w.tmuxSpawn(p, p.ops, 'c', cmd.name == "new-session", what)
	case "display-popup":
		w.tmuxSpawn(p, p.ops, 'd', false, what)
	case "run-shell":
		if len(p.ops) == 0 {
			return
		}
		if p.flags['C'] {
			w.tmuxString(p.ops[0])
			return
		}
		w.tmuxSpawn(p, p.ops[:1], 'c', false, what)
	case "if-shell":
		if len(p.ops) > 0 && !p.flags['F'] {
			w.nestedStringIn(p.ops[0], what, false)
		}
		for _, f := range p.ops[min(1, len(p.ops)):] {
			w.tmuxString(f)
		}
	case "pipe-pane":
		if len(p.ops) > 0 {
			w.nestedStringIn(p.ops[0], what, false)
			if p.flags['I'] {
				// The command's output is typed into the pane.
				w.incomplete("tmux pipe-pane -I types a program's output into a pane")
				w.unknownCode("tmux pipe-pane -I " + p.ops[0].raw)
			}
		}
	case "detach-client":
		for _, s := range p.vals['E'] {
			w.nestedStringIn(s, what+" -E", false)
		}
	case "send-keys":
		w.tmuxKeys(p)
	case "bind-key":
		if len(p.ops) > 1 {
			w.tmuxSequence(p.ops[1:], nesting+1)
		}
	case "set-hook":
		if len(p.ops) > 1 {
			w.tmuxString(p.ops[1])
		}
	case "confirm-before", "command-prompt", "choose-tree", "choose-client", "choose-buffer", "switch-mode", "display-panes":
		if len(p.ops) > 0 {
			w.tmuxString(p.ops[0])
		}
	case "display-menu":
		// Items are name key command, or a lone separator ("" or -).
		for i := 0; i < len(p.ops); {
			if f := p.ops[i]; f.known() && (f.s == "" || strings.HasPrefix(f.s, "-")) {
				i++
				continue
			}
			if i+2 < len(p.ops) {
				w.tmuxString(p.ops[i+2])
			}
			i += 3
		}
	case "source-file":
		if !p.flags['F'] {
			w.pathsTo(p.ops, w.reads, what)
		}
		// The tmux commands in the file (or on stdin, source-file -)
		// run: they are not followed.
		raw := ""
		for _, f := range p.ops {
			raw += " " + f.raw
		}
		w.incomplete("tmux source-file runs tmux commands from a file")
		w.unknownCode(what + raw)
	case "set-buffer":
		if len(p.ops) == 0 {
			return
		}
		name := tmuxBufName(p)
		f := p.ops[0]
		b := pasteBuf{text: f.s, known: f.known()}
		if p.flags['a'] {
			prev, had := w.pasteBufs[name]
			b = pasteBuf{text: prev.text + f.s, known: had && prev.known && f.known()}
		}
		w.setPasteBuf(name, b)
	case "load-buffer":
		w.pathsTo(p.ops, w.reads, what)
		// The buffer holds a file's contents (or stdin's): pasting it
		// types text that is not known.
		w.setPasteBuf(tmuxBufName(p), pasteBuf{})
	case "paste-buffer":
		name := tmuxBufName(p)
		b, ok := w.pasteBufs[name]
		if !ok || !b.known {
			w.incomplete("tmux paste-buffer types a buffer that is not known")
			w.unknownCode(strings.TrimSpace("tmux paste-buffer " + name))
			return
		}
		text := b.text
		if seps := p.vals['s']; len(seps) > 0 {
			if !seps[0].known() {
				w.incomplete("tmux paste-buffer -s with a separator that is not static")
				w.unknownCode("tmux paste-buffer -s " + seps[0].raw)
				return
			}
			text = strings.ReplaceAll(text, "\n", seps[0].s)
		}
		var k keyboard
		k.typeText(text)
		w.typed(&k, "tmux paste-buffer")
	case "save-buffer":
		w.pathsTo(p.ops, w.writes, what)
	case "set-option", "set-window-option":
		// An option's index, name[N], is a pattern to the shell that
		// tmux gets as written unless a file matches it (name
		// then is a file's, which tmux does not know).
		if len(p.ops) > 1 && p.ops[0].static && !p.flags['u'] {
			w.tmuxOption(p, p.ops[0].s, p.ops[1], what)
		}
	case "set-environment":
		if len(p.ops) > 1 && p.ops[0].known() && !p.flags['u'] && !p.flags['r'] {
			v := p.ops[1]
			w.envCode([]assignment{{name: p.ops[0].s, value: v.s, static: v.known(), raw: p.ops[0].raw + " " + v.raw}})
		}
	}
}

// tmuxDefaultAliases are the command-alias entries tmux starts with.
var tmuxDefaultAliases = map[string][]string{
	"split-pane": {"split-window"}, "splitp": {"split-window"},
	"server-info": {"show-messages", "-JT"}, "info": {"show-messages", "-JT"},
	"choose-window": {"choose-tree", "-w"}, "choose-session": {"choose-tree", "-s"},
}

// tmuxAliasRun runs an alias set earlier in the command line: its
// value is tmux commands, the arguments given added to the last one.
func (w *walker) tmuxAliasRun(name string, b pasteBuf, args []field) {
	s, ok := tmuxCommandLine(b.text)
	if !b.known || !ok {
		w.incomplete("tmux alias that is not known")
		w.unknownCode("tmux " + name)
		return
	}
	for _, f := range args {
		s += " " + f.raw
	}
	w.script("tmux "+s, w.depth+1, "tmux alias")
}

// tmuxCodeOptions are the tmux options whose value runs: "tmux" ones
// hold tmux commands (the hooks, which set-option sets as set-hook
// does), "shell" ones a shell command, "alias" is command-alias.
var tmuxCodeOptions = func() map[string]string {
	m := map[string]string{
		"default-client-command": "tmux", "command-alias": "alias",
		"default-command": "shell", "copy-command": "shell", "lock-command": "shell", "editor": "shell",
	}
	for _, h := range strings.Fields(`alert-activity alert-bell alert-silence client-active client-attached
		client-created client-closed client-detached client-focus-in client-focus-out client-resized
		client-session-changed client-light-theme client-dark-theme command-error marked-pane-changed
		pane-activity pane-bell pane-command-finished pane-command-started pane-created pane-died
		pane-exited pane-focus-in pane-focus-out pane-mode-changed pane-mode-entered pane-mode-exited
		pane-moved pane-prompt-closed pane-prompt-opened pane-resized pane-set-clipboard
		pane-shell-prompt pane-title-changed session-closed session-created session-added-to-group
		session-renamed session-removed-from-group session-window-changed window-created
		window-closed window-layout-changed window-linked window-pane-changed window-renamed
		window-resized window-unzoomed window-zoomed window-unlinked`) {
		m[h] = "tmux"
	}
	return m
}()

// tmuxOptionKinds are the kinds of the code options an option name may
// set: tmux takes any prefix of one option's name (an index, [N],
// after it), and the after-COMMAND hooks are one for each command. A
// prefix of several options is one tmux refuses: taken here as each.
func tmuxOptionKinds(name string) map[string]bool {
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	if name == "" || name[0] == '@' {
		return nil
	}
	if k, ok := tmuxCodeOptions[name]; ok {
		return map[string]bool{k: true}
	}
	kinds := map[string]bool{}
	if strings.HasPrefix(name, "after-") || strings.HasPrefix("after-", name) {
		kinds["tmux"] = true
	}
	for o, k := range tmuxCodeOptions {
		if strings.HasPrefix(o, name) {
			kinds[k] = true
		}
	}
	return kinds
}

// tmuxOption follows set-option NAME VALUE when the option holds code:
// a hook's tmux commands, a shell command, or a command alias, which is
// recorded for the commands after it and analysed as it is set.
func (w *walker) tmuxOption(p tmuxParsed, name string, v field, what string) {
	kinds := tmuxOptionKinds(name)
	if len(kinds) == 0 {
		return
	}
	if p.flags['F'] && (!v.known() || strings.Contains(v.s, "#{")) {
		// -F expands the value as a format first.
		w.incomplete("tmux set-option -F of an option that runs code")
		w.unknownCode(what + " -F " + name + " " + v.raw)
		return
	}
	if kinds["tmux"] {
		w.tmuxString(v)
	}
	if kinds["shell"] {
		w.nestedStringIn(v, what+" "+name, false)
	}
	if !kinds["alias"] {
		return
	}
	if !v.known() {
		w.incomplete("tmux command-alias that is not static")
		w.unknownCode(what + " " + name + " " + v.raw)
		return
	}
	alias, cmds, ok := strings.Cut(v.s, "=")
	if !ok {
		return
	}
	if w.tmuxAliases == nil {
		w.tmuxAliases = map[string]pasteBuf{}
	}
	if _, had := w.tmuxAliases[alias]; had || len(w.tmuxAliases) < 64 {
		w.tmuxAliases[alias] = pasteBuf{text: cmds, known: true}
	}
	w.tmuxString(field{s: cmds, static: true, raw: v.raw})
}

// tmuxSpawn analyses the command a tmux command starts in a new pane (or
// runs): one argument is run by the shell, several are the program and
// its arguments. dir is the flag naming its directory; here says it runs
// in this shell's directory when the flag is not given.
func (w *walker) tmuxSpawn(p tmuxParsed, ops []field, dir byte, here bool, what string) {
	if len(ops) == 0 {
		return
	}
	st := w.saveDir()
	defer w.restoreDir(st)
	known := here
	for _, d := range p.vals[dir] {
		known = d.known() && !strings.Contains(d.s, "#{")
		if known {
			w.cd(d)
		}
	}
	for _, e := range p.vals['e'] {
		if e.known() {
			w.envCode(assignmentsOf([]string{e.s}))
		} else {
			w.incomplete("tmux -e with a value that is not static")
		}
	}
	if len(ops) == 1 {
		w.nestedStringIn(ops[0], what, known && w.dirKnown)
		return
	}
	w.nestedArgv(ops, what, "tmux", known && w.dirKnown)
}

// tmuxString analyses a tmux command given as one string (if-shell's
// commands, bind-key's, run-shell -C...): its words are read as the
// shell would read them, each unquoted ; or newline separating commands.
func (w *walker) tmuxString(f field) {
	if !f.known() {
		w.incomplete("tmux command that is not static")
		w.unknownCode("tmux command " + f.raw)
		return
	}
	s, ok := tmuxCommandLine(f.s)
	if !ok {
		w.incomplete("tmux command block")
		w.unknownCode("tmux command " + f.raw)
		return
	}
	w.script("tmux "+s, w.depth+1, "tmux command")
}

// tmuxCommandLine rewrites a tmux command string for the shell parser:
// an unquoted ; or newline becomes a \; argument (tmux's separator), and
// the characters that are operators to the shell but text to tmux are
// escaped. A { block or a %if is not read (ok is false).
func tmuxCommandLine(s string) (string, bool) {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' && i+1 < len(s) {
				b.WriteByte(c)
				i++
				c = s[i]
			} else if c == quote {
				quote = 0
			}
		case c == '\\' && i+1 < len(s):
			b.WriteByte(c)
			i++
			c = s[i]
		case c == '\'' || c == '"':
			quote = c
		case c == ';' || c == '\n':
			b.WriteString(` \; `)
			continue
		case c == '{' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\n'):
			return "", false
		case c == '%' && (i == 0 || s[i-1] == '\n'):
			return "", false
		case strings.IndexByte("|&<>()`", c) >= 0:
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// tmuxKeys: send-keys types its keys into a pane, whose shell runs each
// line entered. -l types the arguments as text, -H as hexadecimal bytes;
// -X (copy mode), -M (mouse) and -K (the client's key bindings) do not
// type into the pane.
func (w *walker) tmuxKeys(p tmuxParsed) {
	if p.flags['X'] || p.flags['M'] {
		return
	}
	var k keyboard
	if p.flags['K'] {
		k.unknownKey("-K")
	}
	for _, f := range p.ops {
		switch {
		case !f.known():
			w.incomplete("tmux send-keys with keys that are not static")
			w.unknownCode("tmux send-keys " + f.raw)
		case p.flags['H']:
			if c, ok := tmuxHexKey(f.s); ok {
				k.typeByte(c)
			} else {
				// tmux skips it; taken as unknown rather than trust
				// that this reading matches tmux's everywhere.
				k.unknownKey(f.s)
			}
		case p.flags['l']:
			k.typeText(f.s)
		case p.flags['F'] && strings.Contains(f.s, "#{"):
			k.unknownKey(f.s)
		default:
			k.tmuxKey(f.s)
		}
	}
	w.typed(&k, "tmux send-keys")
}

// tmuxHexKey reads a send-keys -H key as tmux does, with strtol base 16:
// leading white space, a sign and a 0x prefix are allowed, and the
// whole word must be read, to a value 0 to 0xff.
func tmuxHexKey(s string) (byte, bool) {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isHex(s[2]) {
		s = s[2:]
	}
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 16, 64)
	if err != nil || n > 0xff || neg && n != 0 {
		return 0, false
	}
	return byte(n), true
}
