// Package ini reads the INI dialect of Python's configparser, as used by
// setup.cfg and .importlinter: [section] headers, `key = value` or
// `key: value` entries, values continued on indented lines, and full-line
// comments starting with # or ;. Keys are case-insensitive (lower-cased, as
// configparser does); section names are kept as written.
package ini

import (
	"fmt"
	"strings"

	"github.com/vouch-dev/vouch/yamldoc"
)

// Entry is one key of a section.
type Entry struct {
	Key string
	// Value is the text after the delimiter with continuation lines joined
	// by "\n", each trimmed; blank continuation lines are dropped.
	Value string
	// Line is where the key stands (1-based); Lines gives the line of each
	// line of Value.
	Line  int
	Lines []int
}

// Section is one [name] block, entries in file order.
type Section struct {
	Name    string
	Line    int
	Entries []Entry
}

// Get returns the entry for key (case-insensitive).
func (s *Section) Get(key string) (Entry, bool) {
	key = strings.ToLower(key)
	for _, e := range s.Entries {
		if e.Key == key {
			return e, true
		}
	}
	return Entry{}, false
}

// File is a parsed INI document.
type File struct {
	Sections []*Section
}

// Section returns the section called name, or nil.
func (f *File) Section(name string) *Section {
	for _, s := range f.Sections {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Error is a syntax error at a 1-based line and column: vouch's one
// positioned error type, so callers report it as they report every
// loader's. Parse sees bytes, not a file: the caller sets File.
type Error = yamldoc.Error

// errorAt is a syntax error at line and col.
func errorAt(line, col int, msg string) *Error {
	return &Error{Pos: yamldoc.Pos{Line: line, Col: col}, Msg: msg}
}

// Parse reads an INI document. Like configparser, it rejects an entry
// before the first section, a duplicate section and a duplicate key in
// one section.
func Parse(data []byte) (*File, error) {
	f := &File{}
	var cur *Section
	var last *Entry
	lastIndent := 0
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i, raw := range lines {
		n := i + 1
		if i == 0 {
			raw = strings.TrimPrefix(raw, "\ufeff")
		}
		trimmed := strings.TrimSpace(raw)
		indent := len(raw) - len(strings.TrimLeft(raw, " \t"))
		if trimmed == "" {
			continue
		}
		if trimmed[0] == '#' || trimmed[0] == ';' {
			continue
		}
		if last != nil && indent > lastIndent {
			last.Value = joinValue(last.Value, trimmed)
			last.Lines = append(last.Lines, n)
			continue
		}
		if trimmed[0] == '[' {
			end := strings.IndexByte(trimmed, ']')
			if end < 0 {
				return nil, errorAt(n, indent+1, "section header has no closing ]")
			}
			name := trimmed[1:end]
			if f.Section(name) != nil {
				return nil, errorAt(n, indent+1, fmt.Sprintf("section [%s] appears twice", name))
			}
			cur = &Section{Name: name, Line: n}
			f.Sections = append(f.Sections, cur)
			last = nil
			continue
		}
		if cur == nil {
			return nil, errorAt(n, indent+1, "entry before the first [section] header")
		}
		d := strings.IndexAny(trimmed, "=:")
		if d <= 0 {
			return nil, errorAt(n, indent+1, fmt.Sprintf("want key = value, found %q", clip(trimmed)))
		}
		key := strings.ToLower(strings.TrimSpace(trimmed[:d]))
		if _, dup := cur.Get(key); dup {
			return nil, errorAt(n, indent+1, fmt.Sprintf("key %q appears twice in [%s]", key, cur.Name))
		}
		val := strings.TrimSpace(trimmed[d+1:])
		e := Entry{Key: key, Value: val, Line: n}
		if val != "" {
			e.Lines = []int{n}
		}
		cur.Entries = append(cur.Entries, e)
		last = &cur.Entries[len(cur.Entries)-1]
		lastIndent = indent
	}
	return f, nil
}

func joinValue(v, line string) string {
	if v == "" {
		return line
	}
	return v + "\n" + line
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// List splits a multi-line value into its non-empty lines, each with its
// line number; inline comments (" #") are removed, as import-linter does.
func (e Entry) List() (items []string, lines []int) {
	for i, l := range strings.Split(e.Value, "\n") {
		if j := strings.Index(l, " #"); j >= 0 {
			l = l[:j]
		}
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		items = append(items, l)
		if i < len(e.Lines) {
			lines = append(lines, e.Lines[i])
		} else {
			lines = append(lines, e.Line)
		}
	}
	return items, lines
}
