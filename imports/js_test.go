package imports

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestExtractJSForms(t *testing.T) {
	tests := []struct {
		name string
		src  string
		ts   bool
		want []Site
	}{
		{"default import", `import x from 'a'`, false,
			[]Site{{Line: 1, Column: 15, Kind: KindImport, Spec: "a", Names: []string{"default"}, Alias: "x"}}},
		{"named with rename", `import {a as b, c} from "a"`, false,
			[]Site{{Line: 1, Column: 25, Kind: KindImport, Spec: "a", Names: []string{"a", "c"}}}},
		{"single rename", `import {a as b} from "a"`, false,
			[]Site{{Line: 1, Column: 22, Kind: KindImport, Spec: "a", Names: []string{"a"}, Alias: "b"}}},
		{"namespace", `import * as ns from 'a'`, false,
			[]Site{{Line: 1, Column: 21, Kind: KindImport, Spec: "a", Names: []string{"*"}, Alias: "ns"}}},
		{"default and named", "import React, {useState} from 'react';", false,
			[]Site{{Line: 1, Column: 31, Kind: KindImport, Spec: "react", Names: []string{"default", "useState"}}}},
		{"default and namespace", "import d, * as ns from 'm'", false,
			[]Site{{Line: 1, Column: 24, Kind: KindImport, Spec: "m", Names: []string{"default", "*"}}}},
		{"side effect", "import './polyfill';", false,
			[]Site{{Line: 1, Column: 8, Kind: KindImport, Spec: "./polyfill"}}},
		{"import type", `import type {T} from 'a'`, true,
			[]Site{{Line: 1, Column: 22, Kind: KindTypeOnly, Spec: "a", Names: []string{"T"}}}},
		{"import type default", `import type T from 'a'`, true,
			[]Site{{Line: 1, Column: 20, Kind: KindTypeOnly, Spec: "a", Names: []string{"default"}, Alias: "T"}}},
		{"import default named type", `import type from 'a'`, true,
			[]Site{{Line: 1, Column: 18, Kind: KindImport, Spec: "a", Names: []string{"default"}, Alias: "type"}}},
		{"inline type modifier", `import {type T, u} from 'a'`, true,
			[]Site{{Line: 1, Column: 25, Kind: KindImport, Spec: "a", Names: []string{"T", "u"}}}},
		{"export named from", `export {a} from 'a'`, false,
			[]Site{{Line: 1, Column: 17, Kind: KindReexport, Spec: "a", Names: []string{"a"}}}},
		{"export star", `export * from 'a'`, false,
			[]Site{{Line: 1, Column: 15, Kind: KindReexport, Spec: "a", Names: []string{"*"}}}},
		{"export star as", `export * as ns from 'a'`, false,
			[]Site{{Line: 1, Column: 21, Kind: KindReexport, Spec: "a", Names: []string{"*"}, Alias: "ns"}}},
		{"export type from", `export type {T} from './t'`, true,
			[]Site{{Line: 1, Column: 22, Kind: KindTypeOnly, Spec: "./t", Names: []string{"T"}}}},
		{"export type star", `export type * from './t'`, true,
			[]Site{{Line: 1, Column: 20, Kind: KindTypeOnly, Spec: "./t", Names: []string{"*"}}}},
		{"local export is not an import", `export {a, b}; export const c = 1; export default d`, false, nil},
		{"require", `const a = require('a')`, false,
			[]Site{{Line: 1, Column: 19, Kind: KindRequire, Spec: "a"}}},
		{"require template", "const a = require(`a`)", false,
			[]Site{{Line: 1, Column: 19, Kind: KindRequire, Spec: "a"}}},
		{"require non-literal", "require(name); require('a' + b); require(`a${b}`)", false, nil},
		{"method require", `x.require('a'); x?.require('b'); a.module.require('c'); require.x.require('d'); m.process.mainModule.require('e')`, false, nil},
		{"module.require", `module.require('a'); module?.require('b')`, false,
			[]Site{{Line: 1, Column: 16, Kind: KindRequire, Spec: "a"}, {Line: 1, Column: 38, Kind: KindRequire, Spec: "b"}}},
		{"require.main and mainModule", `require.main.require('a'); process.mainModule.require('b')`, false,
			[]Site{{Line: 1, Column: 22, Kind: KindRequire, Spec: "a"}, {Line: 1, Column: 55, Kind: KindRequire, Spec: "b"}}},
		{"global require", `global.require('a'); globalThis.require('b')`, false,
			[]Site{{Line: 1, Column: 16, Kind: KindRequire, Spec: "a"}, {Line: 1, Column: 41, Kind: KindRequire, Spec: "b"}}},
		{"optional call require", `require?.('a')`, false,
			[]Site{{Line: 1, Column: 11, Kind: KindRequire, Spec: "a"}}},
		{"parenthesised require", `(require)('a'); (0, require)('b'); ((require))(("c"))`, false,
			[]Site{{Line: 1, Column: 11, Kind: KindRequire, Spec: "a"}, {Line: 1, Column: 30, Kind: KindRequire, Spec: "b"},
				{Line: 1, Column: 49, Kind: KindRequire, Spec: "c"}}},
		{"require call and apply", `require.call(null, 'a'); require.apply(this, ['b']); module.require.call(module, "c")`, false,
			[]Site{{Line: 1, Column: 20, Kind: KindRequire, Spec: "a"}, {Line: 1, Column: 47, Kind: KindRequire, Spec: "b"},
				{Line: 1, Column: 82, Kind: KindRequire, Spec: "c"}}},
		{"require call with complex this", `require.call({a: [1, 2]}, 'a')`, false,
			[]Site{{Line: 1, Column: 27, Kind: KindRequire, Spec: "a"}}},
		{"require with comments", "require /* c */ ('a'); require // c\n('b'); import /* c */ (\n'd')", false,
			[]Site{{Line: 1, Column: 18, Kind: KindRequire, Spec: "a"}, {Line: 2, Column: 2, Kind: KindRequire, Spec: "b"},
				{Line: 3, Column: 1, Kind: KindDynamic, Spec: "d"}}},
		{"require trailing comma", `require('a',)`, false,
			[]Site{{Line: 1, Column: 9, Kind: KindRequire, Spec: "a"}}},
		{"createRequire direct call", "createRequire(import.meta.url)('a'); module.createRequire(f(x, y))('b')", false,
			[]Site{{Line: 1, Column: 32, Kind: KindRequire, Spec: "a"}, {Line: 1, Column: 68, Kind: KindRequire, Spec: "b"}}},
		{"createRequire alias", "function f() { return r('a') }\nconst r = createRequire(import.meta.url);\nr('b'); x.r('c'); r.call(null, 'd')", false,
			[]Site{{Line: 1, Column: 25, Kind: KindRequire, Spec: "a"}, {Line: 3, Column: 3, Kind: KindRequire, Spec: "b"},
				{Line: 3, Column: 32, Kind: KindRequire, Spec: "d"}}},
		{"createRequire from a required module", "const r = require('node:module').createRequire(__filename); r('a')", false,
			[]Site{{Line: 1, Column: 19, Kind: KindRequire, Spec: "node:module"}, {Line: 1, Column: 63, Kind: KindRequire, Spec: "a"}}},
		{"require alias", "const q = require; q('a'); let z = require.resolve; z('b')", false,
			[]Site{{Line: 1, Column: 22, Kind: KindRequire, Spec: "a"}}},
		{"createRequire as require", "const require = createRequire(import.meta.url); require('a')", false,
			[]Site{{Line: 1, Column: 57, Kind: KindRequire, Spec: "a"}}},
		{"require non-literal forms", "require?.(x); (require)(x); require.call(null, x); require.apply(null, a); createRequire(u)(x); require.resolve('a')", false, nil},
		{"parenthesised dynamic", `import(('a'))`, false,
			[]Site{{Line: 1, Column: 9, Kind: KindDynamic, Spec: "a"}}},
		{"spread require", `f(...require('a'))`, false,
			[]Site{{Line: 1, Column: 14, Kind: KindRequire, Spec: "a"}}},
		{"dynamic", `const m = await import('./m.js')`, false,
			[]Site{{Line: 1, Column: 24, Kind: KindDynamic, Spec: "./m.js"}}},
		{"dynamic with options", `import('./d.json', {with: {type: 'json'}})`, false,
			[]Site{{Line: 1, Column: 8, Kind: KindDynamic, Spec: "./d.json"}}},
		{"dynamic non-literal", "import(name); import(`./${x}`)", false, nil},
		{"ts import equals", `import fs = require('fs')`, true,
			[]Site{{Line: 1, Column: 21, Kind: KindRequire, Spec: "fs", Alias: "fs"}}},
		{"export import equals", `export import fs = require("fs")`, true,
			[]Site{{Line: 1, Column: 28, Kind: KindRequire, Spec: "fs", Alias: "fs"}}},
		{"import equals namespace", `import A = B.C;`, true, nil},
		{"import.meta", `const u = import.meta.url; import.meta.resolve('x')`, false, nil},
		{"property named import", `x.import('a'); y.export * from 'b'`, false, nil},
		{"multi-line import points at spec", "import {\n  a,\n  b,\n} from './ab'", false,
			[]Site{{Line: 4, Column: 8, Kind: KindImport, Spec: "./ab", Names: []string{"a", "b"}}}},
		{"string with escape", `import x from 'a\'b'`, false,
			[]Site{{Line: 1, Column: 15, Kind: KindImport, Spec: "a'b", Names: []string{"default"}, Alias: "x"}}},
		{"string content", `const s = "import x from 'y'"; const t = 'require("z")'`, false, nil},
		{"line comment", "// import x from 'y'\nrequire('z')", false,
			[]Site{{Line: 2, Column: 9, Kind: KindRequire, Spec: "z"}}},
		{"block comment", "/* import x from 'y'\n require('q') */ require('z')", false,
			[]Site{{Line: 2, Column: 26, Kind: KindRequire, Spec: "z"}}},
		{"template text", "const s = `import x from 'y'\nrequire('q')`; require('z')", false,
			[]Site{{Line: 2, Column: 24, Kind: KindRequire, Spec: "z"}}},
		{"template substitution", "const s = `a ${require('x')} b ${`${import('y')}`}`", false,
			[]Site{{Line: 1, Column: 24, Kind: KindRequire, Spec: "x"},
				{Line: 1, Column: 44, Kind: KindDynamic, Spec: "y"}}},
		{"template substitution with braces", "`${ {a: 1}.a } ${'`'}`; require('z')", false,
			[]Site{{Line: 1, Column: 33, Kind: KindRequire, Spec: "z"}}},
		{"regex with quote", `const r = /'/; require('z')`, false,
			[]Site{{Line: 1, Column: 24, Kind: KindRequire, Spec: "z"}}},
		{"regex with slash in class", "const r = /[/']/g; require('z')", false,
			[]Site{{Line: 1, Column: 28, Kind: KindRequire, Spec: "z"}}},
		{"regex after return", "function f(){ return /import x from 'y'/.test(s) }", false, nil},
		{"division", "const a = b / 2 + c / 'require'; const d = (e) / f / g;", false, nil},
		{"division after keyword property", "x.return / 2; require('a') / 1", false,
			[]Site{{Line: 1, Column: 23, Kind: KindRequire, Spec: "a"}}},
		{"regex after an if head", "if (a) /`/.test(b);\nimport x from '../ui/secret.mjs';\nlet s = /`/;", false,
			[]Site{{Line: 2, Column: 15, Kind: KindImport, Spec: "../ui/secret.mjs", Names: []string{"default"}, Alias: "x"}}},
		{"regex after while and for await heads", "while (a) /'/.exec(b); for await (const x of y) /'/.test(x); require('z')", false,
			[]Site{{Line: 1, Column: 70, Kind: KindRequire, Spec: "z"}}},
		{"division after a call named if", "o.if(a) / '/'; require('z')", false,
			[]Site{{Line: 1, Column: 24, Kind: KindRequire, Spec: "z"}}},
		{"regex after typeof", "typeof /'/; require('z')", false,
			[]Site{{Line: 1, Column: 21, Kind: KindRequire, Spec: "z"}}},
		{"unterminated regex guess costs a line", "a = b\n/ c; import 'x'", false,
			[]Site{{Line: 2, Column: 13, Kind: KindImport, Spec: "x"}}},
		{"jsx text", "const e = <p>import x from 'y' don't</p>;\nimport z from 'z'", false,
			[]Site{{Line: 2, Column: 15, Kind: KindImport, Spec: "z", Names: []string{"default"}, Alias: "z"}}},
		{"jsx expression", "const e = <div a=\"'\" b={require('a')}>{import('b')}<br/></div>;", false,
			[]Site{{Line: 1, Column: 33, Kind: KindRequire, Spec: "a"},
				{Line: 1, Column: 47, Kind: KindDynamic, Spec: "b"}}},
		{"jsx fragment", "return <><b>it's</b></>;\nrequire('z')", false,
			[]Site{{Line: 2, Column: 9, Kind: KindRequire, Spec: "z"}}},
		{"ts type assertion is not jsx", "const a = <any>b; require('z')", true,
			[]Site{{Line: 1, Column: 27, Kind: KindRequire, Spec: "z"}}},
		{"ts generic arrow is not jsx", "const f = <T,>(x: T) => x; const g = <T extends X>(y: T) => y; require('z')", true,
			[]Site{{Line: 1, Column: 72, Kind: KindRequire, Spec: "z"}}},
		{"less-than comparison", "if (a < b) { require('z') }", false,
			[]Site{{Line: 1, Column: 22, Kind: KindRequire, Spec: "z"}}},
		{"hashbang", "#!/usr/bin/env node\nrequire('z')", false,
			[]Site{{Line: 2, Column: 9, Kind: KindRequire, Spec: "z"}}},
		{"typeof import type", "type M = typeof import('./m');", true,
			[]Site{{Line: 1, Column: 24, Kind: KindDynamic, Spec: "./m"}}},
		{"declare module body", "declare module 'x' {\n  import {A} from 'y';\n}", true,
			[]Site{{Line: 2, Column: 19, Kind: KindImport, Spec: "y", Names: []string{"A"}}}},
		{"string names", `import {"a-b" as ab} from 'm'`, false,
			[]Site{{Line: 1, Column: 27, Kind: KindImport, Spec: "m", Names: []string{"a-b"}, Alias: "ab"}}},
		{"crlf lines", "import a from 'a'\r\nimport b from 'b'", false,
			[]Site{{Line: 1, Column: 15, Kind: KindImport, Spec: "a", Names: []string{"default"}, Alias: "a"},
				{Line: 2, Column: 15, Kind: KindImport, Spec: "b", Names: []string{"default"}, Alias: "b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := extractJS([]byte(tt.src), tt.ts)
			if len(errs) != 0 {
				t.Errorf("unexpected syntax errors: %v", errs)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("extractJS(%q) mismatch (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func TestExtractJSSyntaxErrors(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		want     []SyntaxError
		wantSpec []string
	}{
		{"unterminated string", "const a = 'abc\nrequire('z')", []SyntaxError{{Line: 1, Message: "unterminated string literal"}}, []string{"z"}},
		{"unterminated comment", "require('z') /* never closed", []SyntaxError{{Line: 1, Message: "unterminated block comment"}}, []string{"z"}},
		{"unterminated template", "require('z'); `abc ${x}", []SyntaxError{{Line: 1, Message: "unterminated template literal"}}, []string{"z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sites, errs := extractJS([]byte(tt.src), false)
			if diff := cmp.Diff(tt.want, errs); diff != "" {
				t.Errorf("errors mismatch (-want +got):\n%s", diff)
			}
			var specs []string
			for _, s := range sites {
				specs = append(specs, s.Spec)
			}
			if diff := cmp.Diff(tt.wantSpec, specs); diff != "" {
				t.Errorf("specs mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzExtractJS(f *testing.F) {
	seeds := []string{
		"import x from 'a'", "import {a as b, type c} from \"a\"", "export * as ns from 'x'",
		"const s = `${require('a')}`", "a = /re/g.test(b) / 2", "<div a={`${x}`}>{import('b')}</div>",
		"import fs = require('fs')", "`${`${`", "<a><b>", "/*", "'", "<T,>(x) => x", "#!x\nimport 'y'",
		"module.require('a'); require.main.require('b'); process.mainModule.require('c')",
		"require?.('a'); (0, require)('b'); require.call(null, 'c'); require.apply(null, ['d'])",
		"const r = createRequire(import.meta.url); r('a'); createRequire(u)('b')",
		"const q = require; q?.('a')", "require /* c */ (('a'))", "= require", "createRequire(", "require.call(",
	}
	for _, s := range seeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, ts bool) {
		sites, errs := extractJS(src, ts)
		lines := 1
		for _, c := range src {
			if c == '\n' {
				lines++
			}
		}
		for _, s := range sites {
			if s.Line < 1 || s.Line > lines || s.Column < 1 {
				t.Fatalf("site %+v outside the %d-line input", s, lines)
			}
		}
		for _, e := range errs {
			if e.Line < 1 || e.Line > lines {
				t.Fatalf("error %+v outside the %d-line input", e, lines)
			}
		}
		again, _ := extractJS(src, ts)
		if !cmp.Equal(sites, again) {
			t.Fatalf("non-deterministic output")
		}
	})
}

// TestExtractJSLineTerminators: JavaScript ends a line (a // comment, the
// hashbang line) at CR, U+2028 and U+2029 as well as LF, and skips
// Unicode white space between tokens; node runs the require in every case
// below (checked with node 20), so vouch must see it.
func TestExtractJSLineTerminators(t *testing.T) {
	req := func(col int) []Site {
		return []Site{{Line: 1, Column: col, Kind: KindRequire, Spec: "child_process"}}
	}
	tests := []struct {
		name, src string
		want      []Site
	}{
		{"comment ended by CR", "// hi\rrequire(\"child_process\")\n", req(15)},
		{"comment ended by CRLF", "// hi\r\nrequire(\"child_process\")\n", []Site{{Line: 2, Column: 9, Kind: KindRequire, Spec: "child_process"}}},
		{"comment ended by U+2028", "// hi\u2028require(\"child_process\")\n", req(17)},
		{"comment ended by U+2029", "// hi\u2029require(\"child_process\")\n", req(17)},
		{"hashbang ended by CR", "#!/usr/bin/env node\rrequire(\"child_process\")\n", req(29)},
		{"hashbang ended by U+2028", "#!/usr/bin/env node\u2028require(\"child_process\")\n", req(31)},
		{"JSX tag comment ended by CR", "const a = <div // c\rx={require(\"child_process\")} />\n", req(32)},
		{"NBSP before require", "var x = 1;\u00a0require(\"child_process\")\n", req(21)},
		{"BOM inside code", "var x = 1;\ufeffrequire(\"child_process\")\n", req(22)},
		{"U+2029 ends a statement", "var x = 1\u2029require(\"child_process\")\n", req(21)},
		{"U+3000 between tokens", "require\u3000(\"child_process\")\n", req(12)},
		{"regex does not span U+2028", "x = a /b\u2028require(\"child_process\")//\n", req(20)},
		{"non-ASCII identifier still one name", "const café = 1; requireé(\"child_process\")\n", nil},
		{"U+2028 may stand in a string", "x = \"a\u2028b\"; require(\"child_process\")\n", req(22)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := extractJS([]byte(tt.src), false)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("extractJS(%q) (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

// TestExtractJSEscapes: a specifier is the string's value, escapes decoded
// as the engine decodes them (each want is what node 20 makes of the
// literal), and an identifier spelled with \u escapes is the name it
// spells: node runs `\u0072equire("x")` as require("x"). Kept raw,
// `require("..\x2fauth/login.js")` read as a package and crossed a denied
// boundary unseen.
func TestExtractJSEscapes(t *testing.T) {
	tests := []struct {
		name, lit, want string
	}{
		{"hex slash", `"..\x2fauth/login.js"`, "../auth/login.js"},
		{"unicode escape", `"left\u002dpad"`, "left-pad"},
		{"code point escape", `"left\u{2d}pad"`, "left-pad"},
		{"code point with leading zeros", `"left\u{00000002d}pad"`, "left-pad"},
		{"legacy octal", `'lef\164-pad'`, "left-pad"},
		{"octal forms", `"\101\0101\477\8\9"`, "A\b1'789"},
		{"NUL", `"a\0b"`, "a\x00b"},
		{"line continuation", "\"line\\\ncont\"", "linecont"},
		{"CRLF continuation", "\"crlf\\\r\ncont\"", "crlfcont"},
		{"U+2028 continuation", "\"a\\\u2028b\"", "ab"},
		{"simple escapes", `"\q\'\"\\"`, `q'"\`},
		{"control escapes", `"\b\f\n\r\t\v"`, "\b\f\n\r\t\v"},
		{"surrogate pair", `"\uD83D\uDE00x"`, "\U0001F600x"},
		{"code point above BMP", `"\u{1F600}"`, "\U0001F600"},
		{"lone surrogate", `"\uD83Dx"`, "\uFFFDx"},
		{"template hex", "`left\\x2dpad`", "left-pad"},
		{"template CRLF is LF", "`a\r\nb\\u{2d}`", "a\nb-"},
	}
	for _, tt := range tests {
		for _, form := range []string{"require(%s)", "import x from %s", "import(%s)", "export * from %s"} {
			src := strings.Replace(form, "%s", tt.lit, 1)
			t.Run(tt.name+"/"+form, func(t *testing.T) {
				got, _ := extractJS([]byte(src), false)
				if len(got) != 1 || got[0].Spec != tt.want {
					t.Errorf("extractJS(%q) = %+v, want one site with spec %q", src, got, tt.want)
				}
			})
		}
	}

	idents := []struct {
		name, src string
		want      []string
	}{
		{"escaped require", `\u0072equire("left-pad")`, []string{"left-pad"}},
		{"code point escape in require", `re\u{71}uire("left-pad")`, []string{"left-pad"}},
		{"escaped receiver", `m\u006fdule.require("a"); globalThi\u0073.require("b")`, []string{"a", "b"}},
		{"escaped createRequire", `\u0063reateRequire(import.meta.url)("a")`, []string{"a"}},
		{"escaped alias", `const l\u006fad = require; load("a")`, []string{"a"}},
		{"other escaped name", `\u0078("a"); requir\u0065s("b")`, nil},
	}
	for _, tt := range idents {
		t.Run(tt.name, func(t *testing.T) {
			sites, _ := extractJS([]byte(tt.src), false)
			var got []string
			for _, s := range sites {
				got = append(got, s.Spec)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("extractJS(%q) specs (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}
