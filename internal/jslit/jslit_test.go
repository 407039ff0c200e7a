package jslit

import (
	"strconv"
	"strings"
	"testing"
)

// render spells a value back compactly, so a table can state what was read.
func render(v *Value) string {
	switch v.Kind {
	case Null:
		return "null"
	case Bool:
		if v.Bool {
			return "true"
		}
		return "false"
	case Number:
		return formatFloat(v.Num)
	case String:
		return "'" + v.Str + "'"
	case Array:
		var parts []string
		for _, it := range v.Items {
			parts = append(parts, render(it))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	var parts []string
	for i, k := range v.Keys {
		parts = append(parts, k+":"+render(v.Fields[i]))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func formatFloat(f float64) string {
	if f == float64(int64(f)) {
		return itoa(int64(f))
	}
	return sprintf(f)
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, src, want string
		module          bool
	}{
		{"json", `{"a": [1, "x", true, null], "b": {}}`, `{a:[1,'x',true,null],b:{}}`, false},
		{"json5 relaxations", "// c\n{a: 'x', /* c */ b: [1,2,], c: {d: -0.5,},}\n", `{a:'x',b:[1,2],c:{d:-0.5}}`, false},
		{"escapes", `{"p": "^src/.+\\.ts$", q: '\'q\'', u: "\u00e9"}`, `{p:'^src/.+\.ts$',q:''q'',u:'é'}`, false},
		{"module.exports", "'use strict';\n/** @type */\nmodule.exports = {\n  forbidden: [{name: 'no-circular', to: {circular: true}}],\n};\n", `{forbidden:[{name:'no-circular',to:{circular:true}}]}`, true},
		{"export default", "export default {a: 1}", `{a:1}`, true},
		{"hex", `{a: 0x10}`, `{a:16}`, false},
		{"concatenation", "module.exports = {c:\n  \"a \" +\n  'b' + // more\n  `c`, d: 1}", `{c:'a bc',d:1}`, true},
		{"template", "module.exports = {p: `^src/`}", `{p:'^src/'}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parse := ParseJSON
			if tt.module {
				parse = ParseModule
			}
			v, err := parse([]byte(tt.src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if got := render(v); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
		module          bool
	}{
		{"require", "module.exports = { extends: require('x') }", "1:29: \"require\" is code", true},
		{"spread", "module.exports = {\n  ...base,\n}", "2:3: spread", true},
		{"regex", "module.exports = {p: /src/}", "1:22: regular-expression literal: write the pattern as a string", true},
		{"template in JSON", "{p: `x`}", "1:5: template string", false},
		{"substitution", "module.exports = {p: `${x}`}", "1:23: template string with a substitution", true},
		{"concatenating code", "module.exports = {p: 'a' + x}", "1:28: unexpected \"x\" after +", true},
		{"concatenation in JSON", `{"p": "a" + "b"}`, "1:11: want , or }", false},
		{"variable", "const x = {};\nmodule.exports = x;", "1:1: want `module.exports = {...}`", true},
		{"not object", "module.exports = [1]", "1:18: the export is an array", true},
		{"trailing code", "module.exports = {};\nconsole.log(1)", "2:1: unexpected \"console\" after the value", true},
		{"duplicate", `{"a": 1, "a": 2}`, `1:10: duplicate key "a"`, false},
		{"unterminated", `{"a": "x`, "1:7: unterminated string", false},
		{"bad escape", `{"a": "\."}`, `1:8: unknown escape \.`, false},
		{"missing comma", `{"a": 1 "b": 2}`, `1:9: want , or }`, false},
		{"empty", ``, "1:1: no value", false},
		{"method", "module.exports = {f() {}}", "1:20: method \"f\" is code", true},
		{"comment", "/* x", "1:1: unterminated /* comment", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parse := ParseJSON
			if tt.module {
				parse = ParseModule
			}
			_, err := parse([]byte(tt.src))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want prefix %q", err, tt.want)
			}
		})
	}
}

func TestDepth(t *testing.T) {
	src := strings.Repeat("[", MaxDepth+5) + strings.Repeat("]", MaxDepth+5)
	if _, err := ParseJSON([]byte(src)); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("error %v, want the depth limit", err)
	}
}

func TestPositions(t *testing.T) {
	v, err := ParseJSON([]byte("{\n  \"a\": {\n    \"b\": 'x'\n  }\n}"))
	if err != nil {
		t.Fatal(err)
	}
	b := v.Get("a").Get("b")
	if b.Line != 3 || b.Col != 10 || v.Get("a").KeyPos[0] != (Pos{3, 5}) {
		t.Errorf("b at %d:%d, key at %v; want 3:10 and 3:5", b.Line, b.Col, v.Get("a").KeyPos[0])
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"forbidden": [{"name": "x", "from": {"path": "^src"}, "to": {"circular": true}}]}`,
		"module.exports = {a: 'b', c: [1, 2,], /* x */ d: {e: null}};",
		"export default {a: \"\\u{1F600}\\uD83D\\uDE00\"}",
		"{a: 0x1F, b: -1.5e3, c: +2}",
		"'use strict'\nmodule.exports={}",
		"{\"a\": \"\\",
		"module.exports = {c: 'a' + \"b\" + `c`};",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseJSON(data)
		if err == nil && v == nil {
			t.Fatal("nil value without error")
		}
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T", err)
			}
		}
		m, err := ParseModule(data)
		if err == nil && m.Kind != Object {
			t.Fatalf("module export of kind %v", m.Kind)
		}
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func sprintf(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
