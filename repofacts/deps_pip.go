package repofacts

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/vouch-dev/vouch/internal/lazyre"
)

// This file reads requirements files as pip's parse_requirements does
// (pip/_internal/req/req_file.py), and setup.cfg as setuptools does
// (configparser with its defaults, setuptools.config.setupcfg): a line
// split, joined or commented out differently from the tool would hide a
// dependency from vouch that the tool installs.

// errNoFile is an include's error when the file does not exist.
var errNoFile = fs.ErrNotExist

// pipText decodes a requirements file as pip's auto_decode does: a
// UTF-8 or UTF-16 byte order mark, else a "# coding:" line in the first
// two, else UTF-8 (the locale's encoding, UTF-8 on every CI vouch
// targets). Other encodings are an error, not a guess.
func pipText(file string, data []byte) (string, error) {
	switch {
	case bytes.HasPrefix(data, utf8BOM):
		data = data[3:]
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}), bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		be := data[0] == 0xfe
		data = data[2:]
		if len(data)%2 != 0 {
			return "", &manifestError{file: file, msg: "UTF-16 text with an odd number of bytes"}
		}
		u := make([]uint16, len(data)/2)
		for i := range u {
			if be {
				u[i] = uint16(data[2*i])<<8 | uint16(data[2*i+1])
			} else {
				u[i] = uint16(data[2*i+1])<<8 | uint16(data[2*i])
			}
		}
		return string(utf16.Decode(u)), nil
	default:
		first := bytes.SplitN(data, []byte("\n"), 3)
		for _, line := range first[:min(2, len(first))] {
			m := codingRE().FindSubmatch(line)
			if !bytes.HasPrefix(line, []byte("#")) || m == nil {
				continue
			}
			switch enc := strings.ReplaceAll(strings.ToLower(string(m[1])), "_", "-"); enc {
			case "utf-8", "utf8", "u8", "ascii", "us-ascii":
			case "latin-1", "latin1", "iso-8859-1", "iso8859-1", "l1", "8859", "cp819", "latin":
				r := make([]rune, len(data))
				for i, b := range data {
					r[i] = rune(b)
				}
				return string(r), nil
			default:
				return "", &manifestError{file: file, line: 1, msg: fmt.Sprintf("encoding %q: vouch reads requirements files in UTF-8, UTF-16 or Latin-1", m[1])}
			}
			break
		}
	}
	if !utf8.Valid(data) {
		line, col := lineCol(data, invalidUTF8(data))
		return "", &manifestError{file: file, line: line, col: col, msg: "not valid UTF-8 (pip cannot decode it either)"}
	}
	return string(data), nil
}

var codingRE = lazyre.New(`coding[:=]\s*([-\w.]+)`)

func invalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// pySpace is Python's str.isspace: Unicode white space and the
// separators \x1c-\x1f.
func pySpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

func pyStrip(s string) string { return strings.TrimFunc(s, pySpace) }

// pySplitLines is Python's str.splitlines: \n, \r, \r\n, \v, \f,
// \x1c-\x1e, \x85, \u2028 and \u2029 end a line.
func pySplitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		end := -1
		switch r {
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			end = i + n
		case '\r':
			end = i + n
			if end < len(s) && s[end] == '\n' {
				end++
			}
		}
		if end < 0 {
			i += n
			continue
		}
		out = append(out, s[start:i])
		start, i = end, end
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

type pipLine struct {
	n    int
	text string
}

// pipIsComment is COMMENT_RE.match: the line is a comment from its start.
func pipIsComment(l string) bool { return strings.HasPrefix(strings.TrimLeftFunc(l, pySpace), "#") }

// pipStripComment is COMMENT_RE.sub("", line): everything from the first
// '#' at the start of the line or after white space.
func pipStripComment(l string) string {
	for i, r := range l {
		if i == 0 && r == '#' {
			return ""
		}
		if !pySpace(r) || (i > 0 && pySpace(lastRune(l[:i]))) {
			continue
		}
		if rest := strings.TrimLeftFunc(l[i:], pySpace); strings.HasPrefix(rest, "#") {
			return l[:i]
		}
	}
	return l
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// pipLines is pip's preprocess, less environment variables (left as
// written): split, join lines ending in a backslash, drop comments and
// blank lines.
func pipLines(text string) []pipLine {
	var joined []pipLine
	var cur []string
	primary := 0
	for i, line := range pySplitLines(text) {
		n := i + 1
		if !strings.HasSuffix(line, `\`) || pipIsComment(line) {
			if pipIsComment(line) {
				line = " " + line
			}
			if len(cur) > 0 {
				joined = append(joined, pipLine{primary, strings.Join(append(cur, line), "")})
				cur = nil
			} else {
				joined = append(joined, pipLine{n, line})
			}
			continue
		}
		if len(cur) == 0 {
			primary = n
		}
		cur = append(cur, strings.Trim(line, `\`))
	}
	if len(cur) > 0 {
		joined = append(joined, pipLine{primary, strings.Join(cur, "")})
	}
	out := joined[:0]
	for _, l := range joined {
		if t := pyStrip(pipStripComment(l.text)); t != "" {
			out = append(out, pipLine{l.n, t})
		}
	}
	return out
}

// pipBreak is break_args_options: the words before the first one that
// starts with '-' are the requirement, the rest its options.
func pipBreak(line string) (args, opts string) {
	toks := strings.Split(line, " ")
	i := 0
	for i < len(toks) && !strings.HasPrefix(toks[i], "-") {
		i++
	}
	return strings.Join(toks[:i], " "), strings.Join(toks[i:], " ")
}

// shlexSplit is Python's shlex.split (POSIX mode, no comments).
func shlexSplit(s string) ([]string, error) {
	var out []string
	var tok strings.Builder
	in := false // a token has started (an empty quoted one counts)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t' || r == '\r' || r == '\n':
			if in {
				out = append(out, tok.String())
				tok.Reset()
				in = false
			}
		case r == '\\':
			if i+1 >= len(rs) {
				return nil, errors.New("no escaped character")
			}
			i++
			tok.WriteRune(rs[i])
			in = true
		case r == '\'':
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j >= len(rs) {
				return nil, errors.New("no closing quotation")
			}
			tok.WriteString(string(rs[i+1 : j]))
			i, in = j, true
		case r == '"':
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				if rs[j] == '\\' && j+1 < len(rs) && (rs[j+1] == '\\' || rs[j+1] == '"') {
					j++
				}
				tok.WriteRune(rs[j])
			}
			if j >= len(rs) {
				return nil, errors.New("no closing quotation")
			}
			i, in = j, true
		default:
			tok.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, tok.String())
	}
	return out, nil
}

// pipOption is an option pip accepts in a requirements file.
type pipOption struct {
	short, long string
	value       bool
}

// pipOptions are SUPPORTED_OPTIONS and SUPPORTED_OPTIONS_REQ, one parser
// for both as in pip's build_parser; dest is the first long name.
var pipOptions = []pipOption{
	{"-i", "--index-url", true}, {"", "--pypi-url", true}, {"", "--extra-index-url", true}, {"", "--no-index", false},
	{"-c", "--constraint", true}, {"-r", "--requirement", true}, {"-e", "--editable", true}, {"-f", "--find-links", true},
	{"", "--no-binary", true}, {"", "--only-binary", true}, {"", "--prefer-binary", false}, {"", "--require-hashes", false},
	{"", "--pre", false}, {"", "--trusted-host", true}, {"", "--use-feature", true},
	{"", "--global-option", true}, {"", "--hash", true}, {"-C", "--config-settings", true},
}

// pipOpt is one parsed option: its long name (--pypi-url as
// --index-url) and value.
type pipOpt struct{ name, value string }

// pipParseOptions is optparse on an options string: short options with
// an attached or following value, long ones with =value or a following
// value, abbreviated long options when unambiguous; arguments that are
// not options are ignored, as pip ignores them.
func pipParseOptions(toks []string) ([]pipOpt, error) {
	var out []pipOpt
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		var o *pipOption
		val, hasVal := "", false
		switch {
		case t == "--":
			return out, nil
		case strings.HasPrefix(t, "--"):
			name, v, eq := strings.Cut(t, "=")
			var match []*pipOption
			for k := range pipOptions {
				if pipOptions[k].long == name {
					match = []*pipOption{&pipOptions[k]}
					break
				}
				if strings.HasPrefix(pipOptions[k].long, name) {
					match = append(match, &pipOptions[k])
				}
			}
			if len(match) > 1 {
				return nil, fmt.Errorf("ambiguous option: %s", name)
			}
			if len(match) == 0 {
				return nil, fmt.Errorf("no such option: %s", name)
			}
			o, val, hasVal = match[0], v, eq
			if hasVal && !o.value {
				return nil, fmt.Errorf("%s option does not take a value", o.long)
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for k := range pipOptions {
				if pipOptions[k].short == t[:2] {
					o = &pipOptions[k]
				}
			}
			if o == nil {
				return nil, fmt.Errorf("no such option: %s", t[:2])
			}
			if len(t) > 2 {
				val, hasVal = t[2:], true
			}
		default:
			continue
		}
		if o.value && !hasVal {
			if i+1 >= len(toks) {
				return nil, fmt.Errorf("%s option requires 1 argument", t)
			}
			i++
			val = toks[i]
		}
		name := o.long
		if name == "--pypi-url" {
			name = "--index-url"
		}
		out = append(out, pipOpt{name, val})
	}
	return out, nil
}

// requirements reads a requirements file as pip does. A requirement is
// recorded by its name, or, for a URL, path or archive, by its #egg= name
// (a wheel's file name) or as written; an editable install (-e) the
// same. The first -r of a line is read (relative to the file, inside the
// root, at most maxIncludeDepth deep); -c constraint files declare
// nothing. --index-url, --extra-index-url and --find-links are recorded
// by their URL: each is a place packages now come from.
func (c *collector) requirements(file string, data []byte, include includeReader, depth int, seen map[string]bool) error {
	seen[file] = true
	text, err := pipText(file, data)
	if err != nil {
		return err
	}
	for _, l := range pipLines(text) {
		args, optText := pipBreak(l.text)
		toks, err := shlexSplit(optText)
		if err != nil {
			return &manifestError{file: file, line: l.n, msg: "could not split options: " + err.Error()}
		}
		opts, err := pipParseOptions(toks)
		if err != nil {
			return &manifestError{file: file, line: l.n, msg: err.Error()}
		}
		if args != "" {
			c.pipRequirement(file, args, "")
			continue
		}
		var req, con, edit []string
		for _, o := range opts {
			switch o.name {
			case "--requirement":
				req = append(req, o.value)
			case "--constraint":
				con = append(con, o.value)
			case "--editable":
				edit = append(edit, o.value)
			}
		}
		switch {
		case len(edit) > 0:
			c.pipRequirement(file, edit[0], "-e ")
		case len(req) > 0:
			if err := c.pipInclude(file, l.n, req[0], include, depth, seen); err != nil {
				return err
			}
		case len(con) > 0:
			// A constraint file limits versions; it adds nothing.
		default:
			for _, o := range opts {
				switch o.name {
				case "--index-url", "--extra-index-url", "--find-links":
					c.add(file, EcoPython, o.value, o.name, o.name+" "+o.value)
				}
			}
		}
	}
	return nil
}

var pipSchemeRE = lazyre.New(`(?i)^(http|https|file):`)

func (c *collector) pipInclude(file string, line int, target string, include includeReader, depth int, seen map[string]bool) error {
	if pipSchemeRE().MatchString(target) {
		// pip fetches it; vouch cannot see inside, so it is the dependency.
		c.add(file, EcoPython, target, "-r", "-r "+target)
		return nil
	}
	if include == nil {
		return nil
	}
	p, err := includePath(file, target)
	if err != nil {
		return &manifestError{file: file, line: line, msg: "-r " + ShownPath(target) + ": " + err.Error()}
	}
	if seen[p] {
		return nil // a cycle, or read already: nothing new
	}
	if depth+1 > maxIncludeDepth {
		return &manifestError{file: file, line: line, msg: fmt.Sprintf("-r %s: requirements files nested more than %d deep", ShownPath(target), maxIncludeDepth)}
	}
	data, err := include(p)
	if err != nil {
		return &manifestError{file: file, line: line, msg: "-r " + ShownPath(target) + ": " + includeErrText(p, err)}
	}
	return c.requirements(p, data, include, depth+1, seen)
}

func includeErrText(p string, err error) string {
	if errors.Is(err, errNoFile) {
		return ShownPath(p) + " does not exist"
	}
	return err.Error()
}

// includePath resolves an included file's name against the including
// file's directory; it must stay inside the root.
func includePath(file, target string) (string, error) {
	if path.IsAbs(target) {
		return "", errors.New("an absolute path; vouch reads included files only inside the repository root")
	}
	p := path.Join(path.Dir(file), target)
	if p == ".." || strings.HasPrefix(p, "../") || p == "." {
		return "", errors.New("outside the repository root; vouch reads included files only inside it")
	}
	return p, nil
}

var pipVCSSchemes = []string{"git+", "hg+", "svn+", "bzr+"}

// pipRequirement records one requirement line (or -e value, prefix
// "-e "): a PEP 508 requirement by its name (name @ URL with the URL as
// origin), a URL, path or archive by pipLinkName, with itself as origin.
func (c *collector) pipRequirement(file, req, prefix string) {
	if prefix == "" {
		if n, v, origin := pep508(req); origin != "" || !isPipURL(req) && !looksLikePipPath(req) {
			c.add(file, EcoPython, n, v, origin)
			return
		}
	}
	loc := req
	if prefix == "" {
		sep := ";"
		if isPipURL(req) {
			sep = "; "
		}
		loc, _, _ = strings.Cut(req, sep)
		loc = pyStrip(loc)
	}
	c.add(file, EcoPython, pipLinkName(loc), prefix+req, prefix+loc)
}

// isPipURL is pip's is_url: a scheme pip or one of its VCS backends knows.
func isPipURL(s string) bool {
	scheme, _, ok := strings.Cut(s, ":")
	if !ok {
		return false
	}
	scheme = strings.ToLower(scheme)
	switch scheme {
	case "http", "https", "file", "ftp", "git", "hg", "svn", "bzr":
		return true
	}
	for _, p := range pipVCSSchemes {
		if strings.HasPrefix(scheme, p) {
			return true
		}
	}
	return false
}

// looksLikePipPath: a path or an archive pip installs from a file.
func looksLikePipPath(s string) bool {
	if strings.ContainsAny(s, `/\`) || strings.HasPrefix(s, ".") {
		return true
	}
	low := strings.ToLower(s)
	for _, ext := range []string{".whl", ".zip", ".tar.gz", ".tgz", ".tar", ".tar.bz2", ".tbz", ".tar.xz", ".txz", ".tar.lz", ".tlz"} {
		if strings.HasSuffix(low, ext) {
			return !strings.Contains(s, "@") // name @ file.zip is PEP 508
		}
	}
	return false
}

// pipLinkName is the name pip gives a URL or path requirement before it
// builds it: the #egg= fragment, a wheel's file name, else the text.
func pipLinkName(loc string) string {
	if _, frag, ok := strings.Cut(loc, "#"); ok {
		for _, kv := range strings.Split(frag, "&") {
			if v, ok := strings.CutPrefix(kv, "egg="); ok {
				if n, _, _ := pep508(v); isDistName(n) {
					return n
				}
			}
		}
	}
	base := loc
	if i := strings.IndexAny(base, "?#"); i >= 0 {
		base = base[:i]
	}
	base = path.Base(base)
	if strings.HasSuffix(strings.ToLower(base), ".whl") {
		if n, _, _ := strings.Cut(base, "-"); isDistName(n) {
			return n
		}
	}
	return loc
}

// --- setup.cfg ---

// setupCfg reads setup.cfg as setuptools does: configparser (full-line
// # and ; comments, = or : delimiters, indented continuation lines,
// [DEFAULT] inherited, %(name)s interpolation, case-sensitive names),
// then [options] install_requires (a "file:" list read as lines),
// setup_requires and tests_require, and every key of
// [options.extras_require]; a one-line value is split at ';'.
func (c *collector) setupCfg(file string, data []byte, include includeReader) error {
	ini, err := parseINI(file, bytes.TrimPrefix(data, utf8BOM))
	if err != nil {
		return err
	}
	read := func(section, key string, files bool) error {
		v, ok, err := ini.get(section, key)
		if err != nil || !ok {
			return err
		}
		if spec, isFile := strings.CutPrefix(v, "file:"); isFile && files {
			var parts []string
			for _, f := range strings.Split(spec, ",") {
				f = pyStrip(f)
				p, err := includePath(file, f)
				if err != nil {
					return &manifestError{file: file, msg: fmt.Sprintf("[%s] %s: file: %s: %v", section, key, ShownPath(f), err)}
				}
				if include == nil {
					continue
				}
				b, err := include(p)
				if errors.Is(err, errNoFile) {
					continue // setuptools skips a file that is not there
				}
				if err != nil {
					return &manifestError{file: file, msg: fmt.Sprintf("[%s] %s: file: %s: %v", section, key, ShownPath(f), err)}
				}
				parts = append(parts, string(bytes.TrimPrefix(b, utf8BOM)))
			}
			v = strings.Join(parts, "\n")
		}
		var items []string
		if strings.Contains(v, "\n") {
			items = pySplitLines(v)
		} else {
			items = strings.Split(v, ";")
		}
		for _, it := range items {
			it = pyStrip(it)
			if it == "" || files && strings.HasPrefix(it, "#") {
				continue
			}
			n, ver, origin := pep508(it)
			c.add(file, EcoPython, n, ver, origin)
		}
		return nil
	}
	for _, k := range []string{"install_requires", "install-requires"} {
		if err := read("options", k, true); err != nil {
			return err
		}
	}
	for _, k := range []string{"setup_requires", "setup-requires", "tests_require", "tests-require"} {
		if err := read("options", k, false); err != nil {
			return err
		}
	}
	for _, k := range ini.keys("options.extras_require") {
		if err := read("options.extras_require", k, true); err != nil {
			return err
		}
	}
	return nil
}

// ini is a configparser document: sections of options, values joined.
type ini struct {
	file     string
	defaults map[string]string
	sections map[string]map[string]string
}

var iniSection = lazyre.New(`^\[(.+)\]`)
var iniOption = lazyre.New(`^(.*?)\s*([=:])\s*(.*)$`)

// parseINI is configparser.ConfigParser(strict=True) reading with
// optionxform = str, as setuptools reads setup.cfg.
func parseINI(file string, data []byte) (*ini, error) {
	d := &ini{file: file, defaults: map[string]string{}, sections: map[string]map[string]string{}}
	text := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
	var cur map[string][]string
	var curName, opt string
	vals := map[string]map[string][]string{}
	indent := 0
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		t := pyStrip(line)
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";") {
			continue // a comment ends nothing, and adds no empty line
		}
		if t == "" {
			if cur != nil && opt != "" && cur[opt] != nil {
				cur[opt] = append(cur[opt], "")
			}
			continue
		}
		lead := utf8.RuneCountInString(line) - utf8.RuneCountInString(strings.TrimLeftFunc(line, pySpace))
		if cur != nil && opt != "" && lead > indent {
			if cur[opt] != nil {
				cur[opt] = append(cur[opt], t)
			}
			continue
		}
		indent = lead
		if m := iniSection().FindStringSubmatch(t); m != nil {
			curName, opt = m[1], ""
			if _, dup := vals[curName]; dup && curName != "DEFAULT" {
				return nil, &manifestError{file: file, line: n, msg: fmt.Sprintf("section %q already exists", curName)}
			}
			if vals[curName] == nil {
				vals[curName] = map[string][]string{}
			}
			cur = vals[curName]
			continue
		}
		if cur == nil {
			return nil, &manifestError{file: file, line: n, msg: "an option before any [section] header"}
		}
		m := iniOption().FindStringSubmatch(t)
		if m == nil || m[1] == "" {
			return nil, &manifestError{file: file, line: n, msg: "neither a [section], an option (name = value) nor a continuation line"}
		}
		opt = strings.TrimRightFunc(m[1], pySpace)
		if _, dup := cur[opt]; dup {
			return nil, &manifestError{file: file, line: n, msg: fmt.Sprintf("option %q in section %q already exists", opt, curName)}
		}
		cur[opt] = []string{pyStrip(m[3])}
	}
	for name, opts := range vals {
		m := map[string]string{}
		for k, v := range opts {
			m[k] = strings.TrimRightFunc(strings.Join(v, "\n"), pySpace)
		}
		if name == "DEFAULT" {
			d.defaults = m
		} else {
			d.sections[name] = m
		}
	}
	return d, nil
}

func (d *ini) raw(section, key string) (string, bool) {
	if v, ok := d.sections[section][key]; ok {
		return v, true
	}
	if _, ok := d.sections[section]; !ok {
		return "", false
	}
	v, ok := d.defaults[key]
	return v, ok
}

// keys are a section's option names with [DEFAULT]'s, sorted.
func (d *ini) keys(section string) []string {
	if _, ok := d.sections[section]; !ok {
		return nil
	}
	m := map[string]bool{}
	for k := range d.sections[section] {
		m[k] = true
	}
	for k := range d.defaults {
		m[k] = true
	}
	return sortedKeys(m)
}

// get is an option's value after BasicInterpolation.
func (d *ini) get(section, key string) (string, bool, error) {
	v, ok := d.raw(section, key)
	if !ok {
		return "", false, nil
	}
	out, err := d.interpolate(section, key, v, 1)
	return out, true, err
}

func (d *ini) interpolate(section, key, v string, depth int) (string, error) {
	if depth > 10 {
		return "", &manifestError{file: d.file, msg: fmt.Sprintf("[%s] %s: interpolation nested too deeply", section, key)}
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(v, '%')
		if i < 0 {
			b.WriteString(v)
			return b.String(), nil
		}
		b.WriteString(v[:i])
		v = v[i:]
		switch {
		case strings.HasPrefix(v, "%%"):
			b.WriteByte('%')
			v = v[2:]
		case strings.HasPrefix(v, "%("):
			end := strings.Index(v, ")s")
			if end < 0 {
				return "", &manifestError{file: d.file, msg: fmt.Sprintf("[%s] %s: bad interpolation %q", section, key, v)}
			}
			ref := v[2:end]
			rv, ok := d.raw(section, ref)
			if !ok {
				return "", &manifestError{file: d.file, msg: fmt.Sprintf("[%s] %s: %%(%s)s names no option", section, key, ref)}
			}
			if strings.Contains(rv, "%") {
				var err error
				if rv, err = d.interpolate(section, ref, rv, depth+1); err != nil {
					return "", err
				}
			}
			b.WriteString(rv)
			v = v[end+2:]
		default:
			return "", &manifestError{file: d.file, msg: fmt.Sprintf("[%s] %s: '%%' must be followed by '%%' or '('", section, key)}
		}
	}
}
