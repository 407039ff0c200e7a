package scaffold

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ClaudeHook is one command hook in Claude Code's settings
// (hooks.<Event>[] = {matcher, hooks: [{type: "command", command, timeout}]}).
type ClaudeHook struct {
	// Event is the hook event, such as Stop or PreToolUse.
	Event string
	// Matcher is the tool-name regex for tool events; "" leaves it out.
	Matcher string
	// Command is the shell command Claude Code runs.
	Command string
	// Timeout is Claude Code's limit in seconds; 0 leaves it out. It must
	// stay above the command's own deadline, or Claude Code gives up first
	// and treats the hook as a non-blocking error.
	Timeout int
}

// SettingsError is a settings file that cannot be merged into, at
// line:col when the JSON parser says where.
type SettingsError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *SettingsError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// MergeClaudeHook adds h to the Claude Code settings in data (the content
// of .claude/settings.json; empty means none) and returns the new content.
// Everything else in the file is kept, in its order. When a hook for the
// same event already has a command for which same returns true, nothing
// changes and installed is true: running init twice, or after a hand
// edit, must not add a second gate. file names the settings in errors.
func MergeClaudeHook(file string, data []byte, h ClaudeHook, same func(command string) bool) (out []byte, installed bool, err error) {
	if strings.TrimSpace(string(data)) == "" {
		data = []byte("{}")
	}
	top, err := decodeObject(data)
	if err != nil {
		return nil, false, settingsError(file, data, err)
	}
	hooksRaw, ok := top.get("hooks")
	hooks := &object{}
	if ok {
		if hooks, err = decodeObject(hooksRaw); err != nil {
			return nil, false, &SettingsError{File: file, Msg: `"hooks" must be an object of event names: ` + err.Error()}
		}
	}
	var entries []json.RawMessage
	if raw, ok := hooks.get(h.Event); ok {
		if err := json.Unmarshal(raw, &entries); err != nil {
			return nil, false, &SettingsError{File: file, Msg: fmt.Sprintf("hooks.%s must be an array of {matcher, hooks} entries: %v", h.Event, err)}
		}
	}
	for i, raw := range entries {
		var e struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, false, &SettingsError{File: file, Msg: fmt.Sprintf("hooks.%s[%d] is not a {matcher, hooks} entry: %v", h.Event, i, err)}
		}
		for _, c := range e.Hooks {
			if same(c.Command) {
				return data, true, nil
			}
		}
	}
	entry, err := marshal(newEntry(h))
	if err != nil {
		return nil, false, err
	}
	entries = append(entries, entry)
	out, err = withEntries(file, top, hooks, h.Event, entries)
	return out, false, err
}

// withEntries is the settings top with hooks.<event> set to entries,
// formatted as init writes settings (two-space indent, final newline).
func withEntries(file string, top, hooks *object, event string, entries []json.RawMessage) ([]byte, error) {
	list, err := marshal(entries)
	if err != nil {
		return nil, err
	}
	hooks.set(event, list)
	hooksOut, err := hooks.marshal()
	if err != nil {
		return nil, err
	}
	top.set("hooks", hooksOut)
	flat, err := top.marshal()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, flat, "", "  "); err != nil {
		return nil, fmt.Errorf("format %s: %w", file, err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// claudeEntry is the JSON of one hooks.<Event>[] entry, fields in the
// order Claude Code's documentation shows them.
type claudeEntry struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []claudeCmdJS `json:"hooks"`
}

type claudeCmdJS struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

func newEntry(h ClaudeHook) claudeEntry {
	return claudeEntry{Matcher: h.Matcher, Hooks: []claudeCmdJS{{Type: "command", Command: h.Command, Timeout: h.Timeout}}}
}

// ClaudeSnippet is a settings file holding only h, for printing.
func ClaudeSnippet(h ClaudeHook) (string, error) {
	out, _, err := MergeClaudeHook("settings", nil, h, func(string) bool { return false })
	return string(out), err
}

func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep '&&' and '>' in commands readable
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode settings: %w", err)
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// object is a JSON object that keeps its keys in file order, so merging a
// hook does not reorder someone's settings.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func (o *object) get(k string) (json.RawMessage, bool) {
	v, ok := o.vals[k]
	return v, ok
}

func (o *object) set(k string, v json.RawMessage) {
	if o.vals == nil {
		o.vals = map[string]json.RawMessage{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) marshal() (json.RawMessage, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		key, err := marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(key)
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// offsetError is a problem at a byte offset of the input.
type offsetError struct {
	off int64
	msg string
}

func (e *offsetError) Error() string { return e.msg }

// decodeObject reads one JSON object, keeping key order. A duplicate key
// is refused: which value Claude Code would use is not ours to guess.
func decodeObject(data []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, &offsetError{off: dec.InputOffset(), msg: "the top level must be a JSON object"}
	}
	o := &object{vals: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := tok.(string)
		if _, dup := o.vals[k]; dup {
			return nil, &offsetError{off: dec.InputOffset(), msg: fmt.Sprintf("duplicate key %q", k)}
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o.set(k, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &offsetError{off: dec.InputOffset(), msg: "data after the top-level object"}
	}
	return o, nil
}

// settingsError places a decoding error at line:col of data.
func settingsError(file string, data []byte, err error) error {
	var se *json.SyntaxError
	var oe *offsetError
	off := int64(-1)
	msg := err.Error()
	switch {
	case errors.As(err, &se):
		off, msg = se.Offset, "not valid JSON: "+se.Error()
	case errors.As(err, &oe):
		off = oe.off
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		off, msg = int64(len(data)), "not valid JSON: unexpected end of file"
	}
	e := &SettingsError{File: file, Msg: msg + "; fix it, then run vouch init again"}
	if off >= 0 {
		e.Line, e.Col = lineCol(data, off)
	}
	return e
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// SwitchClaudeHookCommand sets the command of every hook of event whose
// command matches from to command, keeping everything else in the file
// (other hooks, each hook's other fields, key order). switched reports
// whether any hook changed. It lets init move an installed hook to
// another binary (vouch-guard to vouch-hook and back) instead of adding
// a second one beside it.
func SwitchClaudeHookCommand(file string, data []byte, event string, from func(command string) bool, command string) (out []byte, switched bool, err error) {
	if strings.TrimSpace(string(data)) == "" {
		return data, false, nil
	}
	top, err := decodeObject(data)
	if err != nil {
		return nil, false, settingsError(file, data, err)
	}
	hooksRaw, ok := top.get("hooks")
	if !ok {
		return data, false, nil
	}
	hooks, err := decodeObject(hooksRaw)
	if err != nil {
		return nil, false, &SettingsError{File: file, Msg: `"hooks" must be an object of event names: ` + err.Error()}
	}
	raw, ok := hooks.get(event)
	if !ok {
		return data, false, nil
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, false, &SettingsError{File: file, Msg: fmt.Sprintf("hooks.%s must be an array of {matcher, hooks} entries: %v", event, err)}
	}
	for i, e := range entries {
		entry, err := decodeObject(e)
		if err != nil {
			return nil, false, &SettingsError{File: file, Msg: fmt.Sprintf("hooks.%s[%d] is not a {matcher, hooks} entry: %v", event, i, err)}
		}
		listRaw, ok := entry.get("hooks")
		if !ok {
			continue
		}
		var list []json.RawMessage
		if err := json.Unmarshal(listRaw, &list); err != nil {
			return nil, false, &SettingsError{File: file, Msg: fmt.Sprintf("hooks.%s[%d].hooks must be an array: %v", event, i, err)}
		}
		changed := false
		for j, h := range list {
			hook, err := decodeObject(h)
			if err != nil {
				return nil, false, &SettingsError{File: file, Msg: fmt.Sprintf("hooks.%s[%d].hooks[%d] is not an object: %v", event, i, j, err)}
			}
			c, _ := hook.get("command")
			var cmd string
			if json.Unmarshal(c, &cmd) != nil || !from(cmd) || cmd == command {
				continue
			}
			v, err := marshal(command)
			if err != nil {
				return nil, false, err
			}
			hook.set("command", v)
			if list[j], err = hook.marshal(); err != nil {
				return nil, false, err
			}
			changed = true
		}
		if !changed {
			continue
		}
		if listRaw, err = marshal(list); err != nil {
			return nil, false, err
		}
		entry.set("hooks", listRaw)
		if entries[i], err = entry.marshal(); err != nil {
			return nil, false, err
		}
		switched = true
	}
	if !switched {
		return data, false, nil
	}
	out, err = withEntries(file, top, hooks, event, entries)
	return out, err == nil, err
}
