// Package yamldoc reads the YAML files people write for vouch (rulespecs,
// rule tests, vouch.yaml) strictly: one document, known keys only, no
// duplicates, and every problem reported at once with its file:line:col.
//
// Envelopes are not read here: they come from agents and need the size,
// depth and alias limits of the envelope package.
package yamldoc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/vouch-dev/vouch/internal/lazyre"
	"github.com/vouch-dev/vouch/internal/safeopen"
	"github.com/vouch-dev/vouch/internal/yamlfast"
	"github.com/vouch-dev/vouch/suggest"
)

// Pos is a 1-based position in a file; zero means unknown.
type Pos struct {
	Line int `json:"line,omitempty"`
	Col  int `json:"column,omitempty"`
}

// Error is one problem found in an input file, positioned where that is
// known: the one positioned error type of every vouch loader (rulespec,
// envelope, vouch.yaml, architecture files, test files), so callers show
// and annotate problems without converting between types. Its JSON form
// is {"file", "line", "column", "message"}.
type Error struct {
	File string `json:"file,omitempty"`
	Pos
	Msg string `json:"message"`
	// Err is the underlying cause, if any, so errors.Is(err,
	// fs.ErrNotExist) still works for a missing file.
	Err error `json:"-"`
}

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Error formats the problem as file:line:col: message, leaving out what is
// not known rather than inventing it.
func (e *Error) Error() string {
	file := shownFile(e.File)
	switch {
	case e.File == "" && e.Line == 0:
		return e.Msg
	case e.File == "":
		// A parser that was handed bytes knows the position, not the
		// file: its caller sets File when it knows it.
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	case e.Line == 0:
		return file + ": " + e.Msg
	case e.Col == 0:
		return fmt.Sprintf("%s:%d: %s", file, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", file, e.Line, e.Col, e.Msg)
}

// shownFile is the file name f as Error prints it: quoted as Go quotes
// it when it holds a rune that is not printable (a newline, a terminal
// escape), since a file name the work chose would otherwise forge lines
// of the output.
func shownFile(f string) string {
	if !utf8.ValidString(f) {
		return strconv.Quote(f)
	}
	for _, r := range f {
		if !strconv.IsPrint(r) {
			return strconv.Quote(f)
		}
	}
	return f
}

// ErrorList is every problem found in one file, in file order.
type ErrorList []*Error

// Error joins the problems one per line.
func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap returns the problems, so errors.Is and errors.As look into each.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// Sort orders the problems by position, keeping the order of problems at
// the same place.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		if l[i].Line != l[j].Line {
			return l[i].Line < l[j].Line
		}
		return l[i].Col < l[j].Col
	})
}

// ReadFile reads path, refusing files over max bytes without reading them
// whole, and anything but a regular file (a named pipe would block the
// read forever). what names the kind of file in messages ("rulespec").
func ReadFile(path, what string, max int64) ([]byte, error) {
	f, err := ReadFileIn(path, what, max, "")
	if err != nil {
		return nil, err
	}
	return f.Data, nil
}

// ReadFileIn is ReadFile for a path that must lie under root (opened
// through an os.Root, so no symlink leads out); root "" opens the path as
// given. It returns the exact bytes read and their sha256.
func ReadFileIn(path, what string, max int64, root string) (*safeopen.File, error) {
	return ReadFileAt("", path, what, max, root)
}

// ReadFileAt is ReadFileIn for a path and root taken relative to dir
// instead of the working directory ("" is the working directory), for a
// server that answers for a client working elsewhere. Messages name path
// and root as given, so they read exactly as ReadFileIn's run in dir.
func ReadFileAt(dir, path, what string, max int64, root string) (*safeopen.File, error) {
	openRoot := root
	if root != "" {
		openRoot = At(dir, root)
	}
	f, err := safeopen.Read(At(dir, path), safeopen.Options{Root: openRoot, MaxBytes: max})
	switch {
	case errors.Is(err, safeopen.ErrTooLarge):
		return nil, ErrorList{{File: path, Msg: fmt.Sprintf("%s is larger than %d bytes", what, max)}}
	case errors.Is(err, safeopen.ErrOutsideRoot):
		return nil, ErrorList{{File: path, Msg: fmt.Sprintf("cannot read %s: it resolves to outside the repository root %s; keep it inside the repository, or name it on the command line", what, root), Err: err}}
	case err != nil:
		return nil, ErrorList{{File: path, Msg: "cannot read " + what + ": " + safeopen.Reason(err), Err: err}}
	}
	f.Path = path
	return f, nil
}

// At is path taken relative to dir: path itself when it is absolute or
// dir is "" (the working directory).
func At(dir, path string) string {
	if dir == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// Reason is an OS error without the path, which the message already names.
func Reason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

var yamlLine = lazyre.New(`^yaml: line (\d+): (.*)$`)

// Decode parses data as exactly one YAML document and returns its root
// value, or nil for an empty document (no content, or just null). A second
// document is an error: yaml.Unmarshal would silently drop it and anything
// written there. what names the kind of file in messages.
func Decode(file string, data []byte, what string) (doc *yaml.Node, err error) {
	// The fast path answers only for one document it builds exactly as
	// yaml.v3 would; anything else, errors included, is yaml.v3's.
	if root, ok := yamlfast.Parse(data); ok {
		return docValue(root), nil
	}
	// yaml.v3 panics on some malformed input; that is bad input, not a
	// crash.
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, ErrorList{{File: file, Msg: fmt.Sprintf("not valid YAML: %v", r)}}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil && err != io.EOF {
		return nil, ErrorList{syntaxError(file, data, err)}
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == io.EOF:
	case err != nil:
		return nil, ErrorList{syntaxError(file, data, err)}
	default:
		e := &Error{File: file, Pos: Pos{next.Line, next.Column},
			Msg: "the " + what + " holds more than one YAML document; remove the '---' separator and keep everything in one document"}
		if len(next.Content) > 0 {
			e.Pos = Pos{next.Content[0].Line, next.Content[0].Column}
		}
		return nil, ErrorList{e}
	}
	return docValue(&root), nil
}

// docValue is the root value of a decoded document, or nil for an empty
// document (no content, or just null).
func docValue(root *yaml.Node) *yaml.Node {
	if root.Kind == 0 || len(root.Content) == 0 || IsNull(root.Content[0]) {
		return nil
	}
	return root.Content[0]
}

// syntaxError positions one of yaml.v3's syntax errors. yaml.v3 reports a
// line but no column, so none is invented, except for the errors about a
// character SyntaxPos finds in data.
func syntaxError(file string, data []byte, err error) *Error {
	pos, msg := SyntaxPos(err, data)
	return &Error{File: file, Pos: pos, Msg: "not valid YAML: " + msg}
}

// parserErrors are the messages yaml.v3's parser (as opposed to its
// scanner) raises. For these it reports the 0-based line of the mark it
// keeps, so the 1-based line is one more, and no line at all means the
// first line.
var parserErrors = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// SyntaxLine reads a yaml.v3 syntax error: the 1-based line it concerns (0
// when unknown) and the message without yaml's prefix. For errors about an
// unclosed collection the line is where the collection starts.
func SyntaxLine(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := yamlLine().FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	if parserErrors[msg] {
		line++
	}
	return line, msg
}

// readerErrors are the messages of yaml.v3's reader, which decodes the
// input before scanning it: they carry no position at all.
var readerErrors = map[string]bool{
	"control characters are not allowed": true,
	"incomplete UTF-8 octet sequence":    true,
	"invalid leading UTF-8 octet":        true,
	"invalid length of a UTF-8 sequence": true,
	"invalid trailing UTF-8 octet":       true,
	"invalid Unicode character":          true,
}

// SyntaxPos is SyntaxLine with the source at hand. yaml.v3 gives no
// position for a character it cannot read (a control character, bytes
// that are not UTF-8), so SyntaxPos finds the first such character in data
// itself and reports its line and column (1-based, the column counted in
// characters as yaml.v3 counts them) and, in the message, what it is.
// Other errors keep SyntaxLine's line and no column.
func SyntaxPos(err error, data []byte) (Pos, string) {
	line, msg := SyntaxLine(err)
	if !readerErrors[msg] {
		return Pos{Line: line}, msg
	}
	if p, what, ok := BadChar(data); ok {
		return p, msg + " (" + what + ")"
	}
	return Pos{Line: line}, msg
}

// BadChar finds the first character yaml.v3's reader refuses: a byte
// sequence that is not UTF-8, or a character outside YAML's printable set
// (C0 controls but tab, line feed and carriage return; DEL; C1 controls but
// NEL; surrogates; U+FFFE and U+FFFF). It returns where it is and a
// description such as "U+0000" or "byte 0xff". Input that starts with a
// UTF-16 byte order mark, which yaml.v3 decodes as UTF-16, is not searched.
func BadChar(data []byte) (Pos, string, bool) {
	if bytes.HasPrefix(data, []byte{0xfe, 0xff}) || bytes.HasPrefix(data, []byte{0xff, 0xfe}) {
		return Pos{}, "", false
	}
	i := 0
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		i = 3
	}
	line, col := 1, 1
	for i < len(data) {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return Pos{Line: line, Col: col}, fmt.Sprintf("byte 0x%02x", data[i]), true
		}
		if !printable(r) {
			return Pos{Line: line, Col: col}, fmt.Sprintf("U+%04X", r), true
		}
		i += size
		switch r {
		case '\r':
			if i < len(data) && data[i] == '\n' {
				i++
			}
			line, col = line+1, 1
		case '\n', 0x85, 0x2028, 0x2029:
			line, col = line+1, 1
		default:
			col++
		}
	}
	return Pos{}, "", false
}

// printable is yaml.v3's test of a character it accepts in the input.
func printable(r rune) bool {
	return r == 0x09 || r == 0x0a || r == 0x0d ||
		r >= 0x20 && r <= 0x7e || r == 0x85 ||
		r >= 0xa0 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd ||
		r >= 0x10000 && r <= 0x10ffff
}

// Parser collects every problem found while walking one file's nodes.
type Parser struct {
	File string
	Errs ErrorList
}

// Errorf records a problem at n (or at no position when n is nil).
func (p *Parser) Errorf(n *yaml.Node, format string, args ...any) {
	e := &Error{File: p.File, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Col = n.Line, n.Column
	}
	p.Errs = append(p.Errs, e)
}

// Err returns the problems found, sorted, or nil.
func (p *Parser) Err() error {
	if len(p.Errs) == 0 {
		return nil
	}
	p.Errs.Sort()
	return p.Errs
}

// Fields walks a mapping, reporting non-scalar, duplicate and unknown keys
// (with a did-you-mean), and returns the value node of each known key. It
// returns nil when n is not a mapping.
func (p *Parser) Fields(n *yaml.Node, what string, known []string) map[string]*yaml.Node {
	n = Deref(n)
	if n.Kind != yaml.MappingNode {
		p.Errorf(n, "%s must be a mapping, found %s", what, KindName(n))
		return nil
	}
	out := make(map[string]*yaml.Node)
	lines := make(map[string]int)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.Errorf(k, "%s keys must be plain words, found %s", what, KindName(k))
			continue
		}
		if first, dup := lines[k.Value]; dup {
			p.Errorf(k, "duplicate key %q in %s (first at line %d); remove one of them", k.Value, what, first)
			continue
		}
		lines[k.Value] = k.Line
		if !Contains(known, k.Value) {
			p.Errorf(k, "unknown key %q in %s%s; allowed keys are %s", k.Value, what, suggest.Hint(k.Value, known), strings.Join(known, ", "))
			continue
		}
		out[k.Value] = v
	}
	return out
}

// Str returns a string scalar's value, reporting anything else.
func (p *Parser) Str(n *yaml.Node, what string) (string, bool) {
	n = Deref(n)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		p.Errorf(n, "%s must be a string, found %s", what, KindName(n))
		return "", false
	}
	return n.Value, true
}

// Contains reports whether list holds s.
func Contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Deref follows aliases to the node they name. The bound stops a malformed,
// hand-built alias cycle; yaml.v3 itself never produces one here.
func Deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// IsNull reports whether n is missing or a YAML null.
func IsNull(n *yaml.Node) bool {
	n = Deref(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// KindName describes a node for messages: "a mapping", "the number 3",
// "\"text\"".
func KindName(n *yaml.Node) string {
	n = Deref(n)
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!int", "!!float":
			return "the number " + n.Value
		case "!!bool":
			return "the boolean " + n.Value
		}
		return quoteShort(n.Value)
	}
	return "nothing"
}

// quoteShort quotes a scalar for a message, cut so a long value does not
// drown the message.
func quoteShort(v string) string {
	if r := []rune(v); len(r) > 40 {
		return strconv.Quote(string(r[:40]) + "...")
	}
	return strconv.Quote(v)
}
