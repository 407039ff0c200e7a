package shellfacts

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/vouch-dev/vouch/internal/lazyre"
	"mvdan.cc/sh/v3/syntax"
)

// GNU parallel runs its command once per input: the inputs come after
// ::: on the command line, from files after :::: or -a, or from stdin.
// Unless -q is given it joins the command's words with spaces and hands
// the result to a shell, so a word that holds shell syntax (a quoted
// 'cmd | x', or ';' given as a word) is code; the input is shell-quoted
// and put where a replacement string stands ({}, {.}, {1} ...), or
// appended. With no command, each input is itself a command line.

// parallelRepl matches GNU parallel's replacement strings: {}, {.}, {/},
// {//}, {/.}, {#}, {%}, and the positional {1}, {1.}, {1/} ...
var parallelRepl = lazyre.New(`\{(\.|/|//|/\.|#|%|[0-9]+[./]*)?\}`)

// parallelInput is the inputRepl of parallel: its replacement strings.
const parallelInput = "{parallel}"

// parallelStandIn is what a replacement string or an appended input
// becomes in a command line whose inputs are not known: a quoted
// expansion of a variable the nested analysis does not know, so each is
// one word only known at run time.
const parallelStandIn = `"$parallel_input"`

// parallelMarker stands for a replacement string while parallel's
// command line is checked for quoting around it.
const parallelMarker = "__vouch_parallel_input__"

// maxParallelJobs bounds how many jobs with static inputs are analysed
// one by one; past it the inputs count as not known.
const maxParallelJobs = 32

// parallelSafe matches an input parallel leaves unquoted, so that it
// reads the same wherever in the command line it is put.
var parallelSafe = lazyre.New(`^[A-Za-z0-9_./:=@%+,-]+$`)

func isParallelSep(f field) bool {
	return f.known() && (f.s == ":::" || f.s == "::::" || f.s == ":::+" || f.s == "::::+")
}

// wrapParallel reads GNU parallel's options from their closed table,
// records what they read, write, upload and run, and works out the
// commands it runs.
func wrapParallel(w *walker, args []field) wrapResult {
	p := parseOpts(args, parallelSpec)
	w.unknownOpts("parallel", p)
	w.parallelOptions(p)
	rest := p.operands
	var inputs []field
	for i, f := range rest {
		if isParallelSep(f) {
			inputs, rest = rest[i:], rest[:i]
			break
		}
	}
	// The inputs are static when every one is given with ::: as a
	// static word: the jobs are then known.
	var groups [][]string
	staticIn, files := len(inputs) > 0 && !p.has("-a", "--arg-file"), false
	for _, f := range inputs {
		switch {
		case isParallelSep(f):
			files = strings.HasPrefix(f.s, "::::")
			staticIn = staticIn && !files
			groups = append(groups, nil)
		case files:
			// :::: FILE: each line of FILE is an input.
			if !f.known() || f.s != "-" {
				w.path(f, w.reads, "parallel ::::")
			}
		case !f.known():
			staticIn = false
		default:
			groups[len(groups)-1] = append(groups[len(groups)-1], f.s)
		}
	}
	if p.has("-C", "--colsep", "--csv", "--match") {
		// Each input is split into columns: the words a job gets are
		// not the inputs as written.
		staticIn = false
	}
	var jobs [][]string
	if staticIn {
		jobs = parallelJobs(groups)
		staticIn = jobs != nil
	}
	// Several inputs to a job (-n, -N, -X ...), linked groups, or more
	// replacement strings (--plus): all the inputs are still appended
	// to a plain command, but which lands where in a command line is
	// not worked out, so there they count as not known.
	fill := staticIn && !p.has("-n", "--max-args", "-N", "--max-replace-args", "-m", "-X", "--xargs", "-L", "-l", "--max-lines", "-s",
		"--max-chars", "--header", "--plus", "--link", "--xapply") && !slices.ContainsFunc(inputs, func(f field) bool { return f.known() && strings.HasSuffix(f.s, "+") })
	if len(rest) == 0 {
		return w.parallelNoCommand(p, inputs, fill, jobs)
	}
	customs, ok := w.parallelCustomRepl(p)
	if !ok {
		return wrapResult{}
	}
	r := parallelRepls{customs: customs}
	for _, f := range rest {
		if f.known() && strings.Contains(f.s, "{=") {
			w.incomplete("parallel {= ... =} runs Perl code")
			w.unknownCode("parallel " + f.raw)
		}
	}
	pipe := p.has("--pipe", "--spreadstdin", "--pipe-part", "--pipepart")
	if !p.has("-q", "--quote") {
		if i := slices.IndexFunc(rest, func(f field) bool { return !f.known() }); i >= 0 {
			// A word only known at run time is joined into the
			// command line as shell code.
			w.incomplete("parallel: a word of its command is only known at run time, and the shell parses it")
			w.unknownCode("parallel " + rest[i].raw)
		}
		for i, f := range rest {
			if f.known() && !parallelShellSafe(f.s, i == 0) {
				return w.parallelScript(rest, r, pipe, fill, jobs)
			}
		}
	}
	// Each word reads the same to the shell: the command is its words.
	words := slices.Clone(rest)
	repl := ""
	for i, f := range words[1:] {
		if !f.known() || r.in(f.s) {
			// {}, {.}, {/}, {1} ...: parallel replaces them and
			// appends nothing.
			repl = parallelInput
			words[i+1] = field{raw: f.raw}
		}
	}
	if pipe && repl == "" {
		// --pipe feeds the input on stdin, as data.
		return wrapResult{ok: true, rest: words}
	}
	if staticIn && repl == "" {
		var all []field
		for _, j := range jobs {
			for _, s := range j {
				all = append(all, field{s: s, static: true, raw: s})
			}
		}
		return wrapResult{ok: true, rest: append(words, all...)}
	}
	return wrapResult{ok: true, rest: words, stdinArgs: true, inputRepl: repl}
}

// parallelOptions records what parallel's options touch: files read for
// inputs and logins, files written (--joblog, --results), files sent to
// remote hosts, commands run (--ssh, --compress-program, --limit), Perl
// code (--filter, --rpl, --parens, {= =} in --tagstring), and options
// read from a profile.
func (w *walker) parallelOptions(p parsed) {
	w.pathsTo(p.values("-a", "--arg-file", "--sshloginfile", "--slf"), w.reads, "parallel")
	for _, f := range p.values("--joblog") {
		if f.known() {
			f.s = strings.TrimPrefix(f.s, "+") // +FILE appends
		}
		w.path(f, w.writes, "parallel --joblog")
	}
	for _, f := range p.values("--results", "--res") {
		if f.known() && (parallelRepl().MatchString(f.s) || strings.Contains(f.s, "{=")) {
			w.unresolvedWrite(w.writes, f.raw)
			continue
		}
		w.path(f, w.writes, "parallel --results")
	}
	for _, f := range p.values("--template", "--tmpl") {
		if !f.known() {
			w.incomplete("parallel --template that is not static")
			continue
		}
		src, dst, _ := strings.Cut(f.s, "=")
		w.path(field{s: src, static: true, raw: src}, w.reads, "parallel --template")
		w.unresolvedWrite(w.writes, dst)
	}
	if p.has("-S", "--sshlogin", "--sshloginfile", "--slf") {
		// Jobs run on other hosts: --basefile and --transferfile send
		// files there, --transfer the inputs.
		for _, f := range p.values("--basefile", "--bf", "--transferfile", "--tf") {
			if !f.known() || parallelRepl().MatchString(f.s) {
				w.uploadFromInput("parallel --transferfile")
				continue
			}
			w.upload(f, "parallel --basefile")
		}
		if p.has("--transfer", "--trc") {
			w.uploadFromInput("parallel --transfer")
		}
	}
	for _, name := range []string{"--ssh", "--compress-program", "--decompress-program", "--limit"} {
		for _, s := range p.values(name) {
			w.nestedString(s, "parallel "+name)
		}
	}
	for _, name := range []string{"--filter", "--rpl", "--parens"} {
		for _, f := range p.values(name) {
			w.incomplete("parallel " + name + " takes Perl code")
			w.unknownCode("parallel " + name + " " + f.raw)
		}
	}
	for _, f := range p.values("--tagstring", "--ctagstring", "--header") {
		if !f.known() || strings.Contains(f.s, "{=") {
			w.incomplete("parallel {= ... =} runs Perl code")
			w.unknownCode("parallel " + f.raw)
		}
	}
	for _, f := range p.values("-J", "--profile") {
		w.incomplete("parallel --profile reads more options from a file")
		w.unknownCode("parallel --profile " + f.raw)
	}
}

// parallelCustomRepl returns the replacement strings set by -I and the
// like; ok is false, with the call marked, when one is not known.
func (w *walker) parallelCustomRepl(p parsed) (customs []string, ok bool) {
	for _, o := range p.opts {
		switch o.name {
		case "-I", "-i", "--replace", "-U", "--extensionreplace", "--er", "--basenamereplace", "--bnr", "--basenameextensionreplace",
			"--bner", "--dirnamereplace", "--dnr", "--seqreplace", "--slotreplace":
		default:
			continue
		}
		switch {
		case !o.hasVal:
		case !o.val.known():
			w.incomplete("parallel: a replacement string that is not static")
			w.unknownCode("parallel " + o.name + " " + o.val.raw)
			return nil, false
		case o.val.s != "":
			customs = append(customs, o.val.s)
		}
	}
	return customs, true
}

// parallelNoCommand: with no command, each input is a command line the
// shell runs; with no inputs on the command line, they are read from
// stdin as a shell would read its script.
func (w *walker) parallelNoCommand(p parsed, inputs []field, staticIn bool, jobs [][]string) wrapResult {
	if staticIn {
		return wrapResult{after: func() {
			for _, j := range jobs {
				s := strings.Join(j, " ")
				w.nestedString(field{s: s, static: true, raw: s}, "parallel")
			}
		}}
	}
	if len(inputs) > 0 || p.has("-a", "--arg-file") {
		w.incomplete("parallel runs its inputs as commands, and they are not all static")
		w.unknownCode("parallel running its inputs as commands")
		return wrapResult{}
	}
	return wrapResult{ok: true, shell: true}
}

// parallelScript analyses a command whose words the shell reparses: the
// words joined with spaces, with each job's inputs put in, or stand-ins
// for inputs that are not known. A replacement string inside quotes
// lets an input end the quoting, so with inputs not known (or not plain)
// that is code only known at run time.
func (w *walker) parallelScript(rest []field, r parallelRepls, pipe, staticIn bool, jobs [][]string) wrapResult {
	var words []string
	for _, f := range rest {
		if !f.known() {
			return wrapResult{} // marked by the caller
		}
		words = append(words, f.s)
	}
	script := strings.Join(words, " ")
	hasRepl := r.in(script)
	if hasRepl && parallelReplQuoted(script, r) {
		safe := staticIn
		for _, j := range jobs {
			for _, s := range j {
				safe = safe && parallelSafe().MatchString(s)
			}
		}
		if !safe {
			w.incomplete("parallel: a replacement string inside quotes, where the input can end the quoting")
			w.unknownCode("parallel " + script)
			return wrapResult{}
		}
	}
	var scripts []string
	switch {
	case staticIn:
		for _, j := range jobs {
			s := parallelFill(script, j, r)
			if !hasRepl && !pipe {
				for _, v := range j {
					s += " " + shellQuote(field{s: v, static: true})
				}
			}
			scripts = append(scripts, s)
		}
	default:
		s := r.replace(script, func(string) string { return parallelStandIn })
		if !hasRepl && !pipe {
			s += " " + parallelStandIn
		}
		scripts = append(scripts, s)
	}
	return wrapResult{after: func() {
		for _, s := range scripts {
			w.nestedString(field{s: s, static: true, raw: s}, "parallel")
		}
	}}
}

// parallelShellSafe reports whether the shell reads s, given as a word
// of parallel's command, as that one word: it holds no blank, quote,
// operator, expansion, glob or brace list, nor, as the first word, an
// assignment.
func parallelShellSafe(s string, first bool) bool {
	if strings.ContainsAny(s, " \t\n;&|<>()$`\\\"'*?[]#~!") {
		return false
	}
	if strings.Contains(s, "{") && (strings.Contains(s, ",") || strings.Contains(s, "..")) {
		return false
	}
	return !first || !strings.Contains(s, "=")
}

// parallelRepls are the replacement strings of one parallel call: its
// own ({}, {.} ...) and the custom ones -I and the like set.
type parallelRepls struct{ customs []string }

// in reports whether s holds a replacement string.
func (r parallelRepls) in(s string) bool {
	return parallelRepl().MatchString(s) || slices.ContainsFunc(r.customs, func(c string) bool { return strings.Contains(s, c) })
}

// replace replaces each replacement string in s with what with returns
// for it, left to right.
func (r parallelRepls) replace(s string, with func(string) string) string {
	s = parallelRepl().ReplaceAllStringFunc(s, with)
	if len(r.customs) == 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		n := 0
		for _, c := range r.customs {
			if strings.HasPrefix(s[i:], c) && len(c) > n {
				n = len(c)
			}
		}
		if n == 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		b.WriteString(with(s[i : i+n]))
		i += n
	}
	return b.String()
}

// parallelReplQuoted reports whether a replacement string in script sits
// inside quotes or a here-document, or the script does not parse.
func parallelReplQuoted(script string, r parallelRepls) bool {
	marked := r.replace(script, func(string) string { return parallelMarker })
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(marked), "")
	if err != nil {
		return true
	}
	quoted := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.SglQuoted:
			quoted = quoted || strings.Contains(x.Value, parallelMarker)
		case *syntax.DblQuoted:
			for _, part := range x.Parts {
				if l, ok := part.(*syntax.Lit); ok && strings.Contains(l.Value, parallelMarker) {
					quoted = true
				}
			}
		case *syntax.Redirect:
			if x.Hdoc != nil {
				for _, part := range x.Hdoc.Parts {
					if l, ok := part.(*syntax.Lit); ok && strings.Contains(l.Value, parallelMarker) {
						quoted = true
					}
				}
			}
		}
		return !quoted
	})
	return quoted
}

// parallelFill puts one job's inputs in place of the replacement
// strings, shell-quoted as parallel quotes them: {} is all of them, {N}
// the Nth; . drops the extension, / keeps the base name, // the
// directory; {#} and {%} are the job's and slot's numbers.
func parallelFill(script string, job []string, r parallelRepls) string {
	q := func(s string) string { return shellQuote(field{s: s, static: true}) }
	return r.replace(script, func(m string) string {
		if !parallelRepl().MatchString(m) {
			// A custom one (-I XX): the whole input.
			return q(strings.Join(job, " "))
		}
		inner := m[1 : len(m)-1]
		if inner == "#" || inner == "%" {
			return "1"
		}
		digits := len(inner) - len(strings.TrimLeft(inner, "0123456789"))
		v := strings.Join(job, " ")
		if digits > 0 {
			n, err := strconv.Atoi(inner[:digits])
			if err != nil || n < 1 || n > len(job) {
				return ""
			}
			v = job[n-1]
		}
		switch inner[digits:] {
		case ".":
			v = strings.TrimSuffix(v, path.Ext(v))
		case "/":
			v = path.Base(v)
		case "//":
			v = path.Dir(v)
		case "/.":
			v = path.Base(v)
			v = strings.TrimSuffix(v, path.Ext(v))
		}
		return q(v)
	})
}

// parallelJobs is every combination of one input from each group (the
// jobs parallel runs; :::+ links groups instead, whose jobs are among
// these), nil when there are more than maxParallelJobs.
func parallelJobs(groups [][]string) [][]string {
	jobs := [][]string{nil}
	for _, g := range groups {
		var next [][]string
		for _, j := range jobs {
			for _, s := range g {
				next = append(next, append(slices.Clone(j), s))
				if len(next) > maxParallelJobs {
					return nil
				}
			}
		}
		jobs = next
	}
	if len(jobs) == 1 && jobs[0] == nil {
		return [][]string{}
	}
	return jobs
}
