package selectors

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Result is the outcome of evaluating a selector against the facts.
type Result struct {
	// Present is false when the claim is absent.
	Present bool
	// Value holds what was selected; it is meaningful only when Present.
	// For selectors with a wildcard it is always a JSON array.
	Value gjson.Result
	// Warning is non-empty when the rule author should be told something
	// about how the selector was read. Several warnings are joined by "; ".
	Warning string
}

// Select evaluates the selector against facts, the parsed facts mapping.
//
// The value is absent when a key is missing, an index is out of range, a key
// step meets a non-object, an index step meets a non-array, or the value
// reached is null.
//
// A selector written with a bare leading "facts" key before other steps
// (facts.a, facts[0]) is read without that key, with a Warning, whatever the
// facts mapping holds: the rulespec alone decides what a selector reads, so
// an envelope cannot add a key "facts" to redirect it. The quoted spelling
// ["facts"].a reads a key literally named facts. A lone "facts" selector
// reads the key "facts", and is absent with a Warning when there is none,
// never the whole mapping.
//
// With wildcards the value is one flat array of the non-null values matched,
// in document order; several wildcards flatten into the same array, while a
// matched value that is itself an array stays one element. Branches that are
// missing or null are dropped. The result is absent only when the path before
// the first wildcard is; if that path reaches something other than an array,
// the result is an empty array with a Warning naming what was found.
func (s *Selector) Select(facts gjson.Result) Result {
	// One selection gains nothing from key maps: building one costs a
	// full scan of the object, the same as the lookup it would serve.
	return s.SelectDoc(&Doc{root: facts})
}

// Doc is a facts mapping prepared for many selections. Looking a key up in a
// JSON object means scanning it, so a rulespec of n claims over an object of
// m keys would cost n*m; Doc remembers the keys of each large object it has
// searched, making repeated lookups constant time. A Doc is not safe for
// concurrent use.
type Doc struct {
	root gjson.Result
	// index enables the key maps; only a Doc made by NewDoc, which is
	// meant for many selections, builds them.
	index bool
	// rootKeys and keys are built on first use. Nested objects are keyed
	// by their byte offset in the document, which gjson reports as Index.
	rootKeys map[string]gjson.Result
	keys     map[int]map[string]gjson.Result
}

// indexThreshold is the object size in bytes above which Doc builds a key
// map rather than scanning; below it a scan is cheaper than the map.
const indexThreshold = 512

// NewDoc prepares facts for selection.
func NewDoc(facts gjson.Result) *Doc {
	return &Doc{root: facts, index: true}
}

// lookup finds key in obj, through the key maps for large objects.
func (d *Doc) lookup(obj gjson.Result, key string, isRoot bool) (gjson.Result, bool) {
	if !obj.IsObject() {
		return gjson.Result{}, false
	}
	if !d.index || len(obj.Raw) < indexThreshold || (!isRoot && obj.Index <= 0) {
		return lookupKey(obj, key)
	}
	var m map[string]gjson.Result
	if isRoot {
		if d.rootKeys == nil {
			d.rootKeys = keyMap(obj)
		}
		m = d.rootKeys
	} else {
		if d.keys == nil {
			d.keys = make(map[int]map[string]gjson.Result)
		}
		m = d.keys[obj.Index]
		if m == nil {
			m = keyMap(obj)
			d.keys[obj.Index] = m
		}
	}
	v, ok := m[key]
	return v, ok
}

func keyMap(obj gjson.Result) map[string]gjson.Result {
	m := make(map[string]gjson.Result)
	obj.ForEach(func(k, v gjson.Result) bool {
		m[k.Str] = v
		return true
	})
	return m
}

// SelectDoc is Select on a prepared document.
func (s *Selector) SelectDoc(d *Doc) Result {
	steps := s.steps
	var warnings []string
	switch {
	case s.prefixed:
		prefix := `"facts"`
		if strings.HasPrefix(s.text, "facts.") {
			prefix = `"facts."`
		}
		warnings = append(warnings, fmt.Sprintf(
			"selector %q starts with %s; selectors are relative to the facts mapping, so it was read as %q; drop the prefix",
			s.text, prefix, canonical(steps)))
	case s.LoneFacts():
		if _, has := d.lookup(d.root, "facts", true); !has {
			return Result{Warning: fmt.Sprintf(
				"selector %q names the key \"facts\", which the facts mapping does not have; selectors are relative to the facts mapping, so name a key inside it",
				s.text)}
		}
	}
	res := evaluate(d, steps, &warnings)
	res.Warning = strings.Join(warnings, "; ")
	return res
}

func evaluate(d *Doc, steps []Step, warnings *[]string) Result {
	facts := d.root
	first := len(steps)
	for i, st := range steps {
		if st.Kind == Wildcard {
			first = i
			break
		}
	}
	v := facts
	for i, st := range steps[:first] {
		next, ok := d.step(v, st, i == 0)
		if !ok {
			return Result{}
		}
		v = next
	}
	if !present(v) {
		return Result{}
	}
	if first == len(steps) {
		return Result{Present: true, Value: v}
	}
	if !v.IsArray() {
		name := "the facts mapping"
		if first > 0 {
			name = strconv.Quote(canonical(steps[:first]))
		}
		*warnings = append(*warnings, fmt.Sprintf("%s is %s, not an array; [*] matched nothing", name, describe(v)))
		return Result{Present: true, Value: gjson.Parse("[]")}
	}
	c := collector{doc: d}
	c.buf.Grow(len(v.Raw) + 2)
	c.buf.WriteByte('[')
	c.walk(v, steps[first:])
	c.buf.WriteByte(']')
	return Result{Present: true, Value: gjson.Parse(c.buf.String())}
}

// collector gathers the raw JSON of wildcard matches into one array text,
// which is cheaper than building gjson values one by one.
type collector struct {
	doc   *Doc
	buf   strings.Builder
	count int
}

func (c *collector) walk(v gjson.Result, steps []Step) {
	for len(steps) > 0 && steps[0].Kind != Wildcard {
		next, ok := c.doc.step(v, steps[0], false)
		if !ok {
			return
		}
		v, steps = next, steps[1:]
	}
	if len(steps) == 0 {
		if present(v) {
			if c.count > 0 {
				c.buf.WriteByte(',')
			}
			c.buf.WriteString(v.Raw)
			c.count++
		}
		return
	}
	if !v.IsArray() {
		return
	}
	rest := steps[1:]
	v.ForEach(func(_, elem gjson.Result) bool {
		c.walk(elem, rest)
		return true
	})
}

// step applies one Key or Index step; ok is false when nothing is there.
func (d *Doc) step(v gjson.Result, st Step, isRoot bool) (gjson.Result, bool) {
	switch st.Kind {
	case Key:
		return d.lookup(v, st.Key, isRoot)
	case Index:
		return lookupIndex(v, st.Index)
	}
	return gjson.Result{}, false
}

// present reports whether v counts as a value: it exists and is not null.
func present(v gjson.Result) bool {
	return v.Exists() && v.Type != gjson.Null
}

// lookupKey finds key in an object. Keys made only of characters that have
// no meaning in gjson paths go through gjson's own lookup, which skips values
// faster than ForEach; every other key is compared as decoded text by
// scanKey, so wildcards, modifiers, escapes and the empty key are never
// reinterpreted as path syntax.
func lookupKey(obj gjson.Result, key string) (gjson.Result, bool) {
	if !obj.IsObject() {
		return gjson.Result{}, false
	}
	if plainKey(key) {
		v := obj.Get(key)
		return v, v.Exists()
	}
	return scanKey(obj, key)
}

// plainKey reports whether key is non-empty and made only of ASCII letters,
// digits, '_', '-' and non-ASCII bytes, which gjson paths take literally.
func plainKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '_', c == '-', c >= 0x80:
		default:
			return false
		}
	}
	return true
}

// scanKey finds key in an object by comparing each decoded key.
func scanKey(obj gjson.Result, key string) (gjson.Result, bool) {
	var found gjson.Result
	ok := false
	obj.ForEach(func(k, val gjson.Result) bool {
		if k.Str == key {
			found, ok = val, true
			return false
		}
		return true
	})
	return found, ok
}

// lookupIndex returns element i of an array.
func lookupIndex(arr gjson.Result, i int) (gjson.Result, bool) {
	if !arr.IsArray() {
		return gjson.Result{}, false
	}
	var found gjson.Result
	ok := false
	n := 0
	arr.ForEach(func(_, val gjson.Result) bool {
		if n == i {
			found, ok = val, true
			return false
		}
		n++
		return true
	})
	return found, ok
}

// describe names a JSON value's type with its article, for warnings.
func describe(v gjson.Result) string {
	switch {
	case v.IsObject():
		return "an object"
	case v.IsArray():
		return "an array"
	}
	switch v.Type {
	case gjson.String:
		return "a string"
	case gjson.Number:
		return "a number"
	case gjson.True, gjson.False:
		return "a boolean"
	case gjson.Null:
		return "null"
	}
	return "not JSON"
}
