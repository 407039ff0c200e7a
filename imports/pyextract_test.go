package imports

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestExtractPython(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []Site
		errs int
	}{
		{"plain", "import os\n", []Site{{Line: 1, Column: 8, Kind: KindImport, Spec: "os"}}, 0},
		{"dotted alias list", "import a.b as c, d\n", []Site{
			{Line: 1, Column: 8, Kind: KindImport, Spec: "a.b", Alias: "c"},
			{Line: 1, Column: 18, Kind: KindImport, Spec: "d"},
		}, 0},
		{"from names", "from a.b import c, d as e\n", []Site{
			{Line: 1, Column: 17, Kind: KindFrom, Spec: "a.b", Names: []string{"c"}},
			{Line: 1, Column: 20, Kind: KindFrom, Spec: "a.b", Names: []string{"d"}, Alias: "e"},
		}, 0},
		{"relative", "from . import x\nfrom ..pkg import y\nfrom ... import z\n", []Site{
			{Line: 1, Column: 15, Kind: KindFrom, Spec: ".", Names: []string{"x"}},
			{Line: 2, Column: 19, Kind: KindFrom, Spec: "..pkg", Names: []string{"y"}},
			{Line: 3, Column: 17, Kind: KindFrom, Spec: "...", Names: []string{"z"}},
		}, 0},
		{"parenthesised", "from m import (\n  a,\n  b as c,\n)\n", []Site{
			{Line: 2, Column: 3, Kind: KindFrom, Spec: "m", Names: []string{"a"}},
			{Line: 3, Column: 3, Kind: KindFrom, Spec: "m", Names: []string{"b"}, Alias: "c"},
		}, 0},
		{"backslash", "from m import a, \\\n    b\nimport x, \\\n  y\n", []Site{
			{Line: 1, Column: 15, Kind: KindFrom, Spec: "m", Names: []string{"a"}},
			{Line: 2, Column: 5, Kind: KindFrom, Spec: "m", Names: []string{"b"}},
			{Line: 3, Column: 8, Kind: KindImport, Spec: "x"},
			{Line: 4, Column: 3, Kind: KindImport, Spec: "y"},
		}, 0},
		{"star", "from m import *\n", []Site{{Line: 1, Column: 15, Kind: KindFrom, Spec: "m", Names: []string{"*"}}}, 0},
		{"nested", "def f():\n    import a\nclass C:\n    from b import c\nif TYPE_CHECKING: import t\ntry: import u\nexcept ImportError: u = None\nx = 1; import v\n", []Site{
			{Line: 2, Column: 12, Kind: KindImport, Spec: "a"},
			{Line: 4, Column: 19, Kind: KindFrom, Spec: "b", Names: []string{"c"}},
			// TYPE_CHECKING is not imported from typing: the import runs.
			{Line: 5, Column: 26, Kind: KindImport, Spec: "t"},
			{Line: 6, Column: 13, Kind: KindImport, Spec: "u"},
			{Line: 8, Column: 15, Kind: KindImport, Spec: "v"},
		}, 0},
		{"type checking blocks", "import typing\nif typing.TYPE_CHECKING:\n    import a\n\n    # c\n    from b import (\nx,\n)\n    if y:\n        import c\nelse:\n    import d\nimport e\ndef f():\n    if TYPE_CHECKING:\n        import g\n    import h\nif not TYPE_CHECKING:\n    import i\nif TYPE_CHECKING and x:\n    import j\n", []Site{
			{Line: 1, Column: 8, Kind: KindImport, Spec: "typing"},
			{Line: 3, Column: 12, Kind: KindImport, Spec: "a", TypeChecking: true},
			{Line: 7, Column: 1, Kind: KindFrom, Spec: "b", Names: []string{"x"}, TypeChecking: true},
			{Line: 10, Column: 16, Kind: KindImport, Spec: "c", TypeChecking: true},
			{Line: 12, Column: 12, Kind: KindImport, Spec: "d"},
			{Line: 13, Column: 8, Kind: KindImport, Spec: "e"},
			// Only typing.TYPE_CHECKING is typing's in this file.
			{Line: 16, Column: 16, Kind: KindImport, Spec: "g"},
			{Line: 17, Column: 12, Kind: KindImport, Spec: "h"},
			{Line: 19, Column: 12, Kind: KindImport, Spec: "i"},
			{Line: 21, Column: 12, Kind: KindImport, Spec: "j"},
		}, 0},
		{"future", "from __future__ import annotations\n", []Site{{Line: 1, Column: 24, Kind: KindFrom, Spec: "__future__", Names: []string{"annotations"}}}, 0},
		{"strings hide imports", "s = 'import a'\nt = \"\"\"\nimport b\n\"\"\"\nu = r'\\' import c'\n# import d\nv = f\"{x['import e']}\"\nimport real\n", []Site{
			{Line: 8, Column: 8, Kind: KindImport, Spec: "real"},
		}, 0},
		{"fstring nested same quote and spec", "x = f\"{d[\"k\"]:>{w}} {{import z}}\"\nw = f'''{\na\n}'''\nimport q\n", []Site{
			{Line: 5, Column: 8, Kind: KindImport, Spec: "q"},
		}, 0},
		{"yield from and raise from", "def g():\n    yield from h()\n    raise E from e\n", nil, 0},
		{"crlf", "import a\r\nfrom b import c\r\n", []Site{
			{Line: 1, Column: 8, Kind: KindImport, Spec: "a"},
			{Line: 2, Column: 15, Kind: KindFrom, Spec: "b", Names: []string{"c"}},
		}, 0},
		{"bom", "\xef\xbb\xbfimport a\n", []Site{{Line: 1, Column: 8, Kind: KindImport, Spec: "a"}}, 0},
		{"syntax error keeps going", "import\nfrom x imp y\ns = 'unterminated\nimport ok\n", []Site{
			{Line: 4, Column: 8, Kind: KindImport, Spec: "ok"},
		}, 3},
		{"no trailing newline", "import a", []Site{{Line: 1, Column: 8, Kind: KindImport, Spec: "a"}}, 0},
		{"unicode column", "x = 'é'; import a\n", []Site{{Line: 1, Column: 18, Kind: KindImport, Spec: "a"}}, 0},
		{"import_module", "import importlib\nm = importlib.import_module('app.infra')\n", []Site{
			{Line: 1, Column: 8, Kind: KindImport, Spec: "importlib"},
			{Line: 2, Column: 29, Kind: KindDynamic, Spec: "app.infra"},
		}, 0},
		{"from importlib import import_module", "from importlib import import_module\nimport_module(\"os\", None)\n", []Site{
			{Line: 1, Column: 23, Kind: KindFrom, Spec: "importlib", Names: []string{"import_module"}},
			{Line: 2, Column: 15, Kind: KindDynamic, Spec: "os"},
		}, 0},
		{"__import__ forms", "__import__('subprocess')\nimportlib.__import__('a.b')\nbuiltins.__import__(\"c\")\n", []Site{
			{Line: 1, Column: 12, Kind: KindDynamic, Spec: "subprocess"},
			{Line: 2, Column: 22, Kind: KindDynamic, Spec: "a.b"},
			{Line: 3, Column: 21, Kind: KindDynamic, Spec: "c"},
		}, 0},
		{"dynamic import aliases", "def f():\n    return im('a') + imp('b')\nfrom importlib import import_module as im\nimp = __import__\nloader = importlib.import_module\nloader('c'); x.im('d')\n", []Site{
			{Line: 2, Column: 15, Kind: KindDynamic, Spec: "a"},
			{Line: 2, Column: 26, Kind: KindDynamic, Spec: "b"},
			{Line: 3, Column: 23, Kind: KindFrom, Spec: "importlib", Names: []string{"import_module"}, Alias: "im"},
			{Line: 6, Column: 8, Kind: KindDynamic, Spec: "c"},
		}, 0},
		{"dynamic import literal forms", "import_module(('o' \"s\"))\n__import__(r'a\\b')\n__import__('\\x73ys')\n__import__(u'''t''')\n__import__(f'u')\n__import__(\n  'v',\n)\n", []Site{
			{Line: 1, Column: 16, Kind: KindDynamic, Spec: "os"},
			{Line: 2, Column: 12, Kind: KindDynamic, Spec: `a\b`},
			{Line: 3, Column: 12, Kind: KindDynamic, Spec: "sys"},
			{Line: 4, Column: 12, Kind: KindDynamic, Spec: "t"},
			{Line: 5, Column: 12, Kind: KindDynamic, Spec: "u"},
			{Line: 7, Column: 3, Kind: KindDynamic, Spec: "v"},
		}, 0},
		{"dynamic import non-literal", "import_module(name)\n__import__('a' + b)\n__import__(b'c')\n__import__(f'{d}')\n__import__('\\N{LATIN SMALL LETTER E}')\n__import__('')\ndef import_module(n): pass\ns = 'import_module(\"x\")'\nx.import_module\n", nil, 0},
		// CPython imports every one of these (checked with 3.11): an
		// f-string's replacement fields are code, and both functions
		// take the module's name as the keyword argument name=.
		{"dynamic import in f-string fields", "X = f\"{__import__('a')}\"\nY = f\"a{b:{importlib.import_module('c')}}\"\nZ = f'''\n{ __import__(\n\"d\") }'''\nW = f\"\"\"{f'{__import__(\"e\")}'}\"\"\"\n", []Site{
			{Line: 1, Column: 19, Kind: KindDynamic, Spec: "a"},
			{Line: 2, Column: 36, Kind: KindDynamic, Spec: "c"},
			{Line: 5, Column: 1, Kind: KindDynamic, Spec: "d"},
			{Line: 6, Column: 24, Kind: KindDynamic, Spec: "e"},
		}, 0},
		{"dynamic import keyword argument", "__import__(name=\"k1\")\nimportlib.import_module(package=None, name='k2')\nimport_module(name == 'x')\nimport_module(f(name='y'))\n", []Site{
			{Line: 1, Column: 17, Kind: KindDynamic, Spec: "k1"},
			{Line: 2, Column: 44, Kind: KindDynamic, Spec: "k2"},
		}, 0},
		// CPython reads names in NFKC: these import requests, yaml and
		// z (checked with 3.11).
		{"names in NFKC", "import \uff52equests\nY = __\uff49mport__('yaml')\nZ = f\"{\U0001d5f6mport_module('z')}\"\n", []Site{
			{Line: 1, Column: 8, Kind: KindImport, Spec: "requests"},
			{Line: 2, Column: 18, Kind: KindDynamic, Spec: "yaml"},
			{Line: 3, Column: 25, Kind: KindDynamic, Spec: "z"},
		}, 0},
		{"dict colon is not a statement start", "d = {1: from_x}\nimport a\n", []Site{{Line: 2, Column: 8, Kind: KindImport, Spec: "a"}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := extractPython([]byte(tt.src))
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("sites mismatch (-want +got):\n%s", diff)
			}
			if len(errs) != tt.errs {
				t.Errorf("got %d syntax errors %v, want %d", len(errs), errs, tt.errs)
			}
		})
	}
}

// TestPythonTypeCheckingTrust checks that an `if TYPE_CHECKING:` block is
// excluded only when the name is typing's constant, never rebound.
func TestPythonTypeCheckingTrust(t *testing.T) {
	const body = "\nif TYPE_CHECKING:\n    from app.infra import db\n"
	const qbody = "\nif typing.TYPE_CHECKING:\n    from app.infra import db\n"
	tests := []struct {
		name string
		src  string
		want bool // whether the app.infra import is marked type-checking only
	}{
		{"from typing", "from typing import TYPE_CHECKING" + body, true},
		{"from typing_extensions", "from typing_extensions import TYPE_CHECKING" + body, true},
		{"parenthesised list", "from typing import (\n    Any,\n    TYPE_CHECKING,\n)" + body, true},
		{"read elsewhere", "from typing import TYPE_CHECKING\nx = 1 if TYPE_CHECKING else 2\nif not TYPE_CHECKING: pass" + body, true},
		{"import typing", "import typing" + qbody, true},
		{"import typing as t", "import typing as t\nx: t.Any = 1\nif t.TYPE_CHECKING:\n    from app.infra import db\n", true},
		{"typing_extensions alias", "import typing_extensions as typing" + qbody, true},
		{"local assignment", "TYPE_CHECKING = True" + body, false},
		{"assignment in NFKC", "from typing import TYPE_CHECKING\n\uff34YPE_CHECKING = True" + body, false},
		{"walrus in an f-string field in NFKC", "from typing import TYPE_CHECKING\nf'{(\uff34YPE_CHECKING := True)}'" + body, false},
		{"assignment after import", "from typing import TYPE_CHECKING\nTYPE_CHECKING = True" + body, false},
		{"annotated assignment", "from typing import TYPE_CHECKING\nTYPE_CHECKING: bool = True" + body, false},
		{"tuple assignment", "from typing import TYPE_CHECKING\na, TYPE_CHECKING = 1, True" + body, false},
		{"walrus in header", "from typing import TYPE_CHECKING\nif (TYPE_CHECKING := True): pass" + body, false},
		{"walrus bare header", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:= True:\n    from app.infra import db\n", false},
		{"global in function", "from typing import TYPE_CHECKING\ndef f():\n    global TYPE_CHECKING\n    TYPE_CHECKING = 1\nf()" + body, false},
		{"for target", "from typing import TYPE_CHECKING\nfor TYPE_CHECKING in [True]: pass" + body, false},
		{"def", "from typing import TYPE_CHECKING\ndef TYPE_CHECKING(): pass" + body, false},
		{"import from elsewhere", "from app.flags import TYPE_CHECKING" + body, false},
		{"aliased elsewhere", "from typing import TYPE_CHECKING\nfrom app import on as TYPE_CHECKING" + body, false},
		{"alias to the name", "from typing import cast as TYPE_CHECKING" + body, false},
		{"star import", "from typing import TYPE_CHECKING\nfrom app.flags import *" + body, false},
		{"globals string", "from typing import TYPE_CHECKING\nglobals()['TYPE_CHECKING'] = True" + body, false},
		{"not imported", body, false},
		{"typing not imported", qbody, false},
		{"typing rebound", "import typing\ntyping = object()" + qbody, false},
		{"typing from elsewhere", "from app import typing" + qbody, false},
		{"attribute assigned", "import typing\ntyping.TYPE_CHECKING = True" + qbody, false},
		{"setattr", "import typing\nsetattr(typing, 'X', 1)" + qbody, false},
		{"other module alias", "import os as typing" + qbody, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sites, _ := extractPython([]byte(tt.src))
			found := false
			for _, s := range sites {
				if s.Spec == "app.infra" {
					found = true
					if s.TypeChecking != tt.want {
						t.Errorf("app.infra TypeChecking = %v, want %v", s.TypeChecking, tt.want)
					}
				}
			}
			if !found {
				t.Fatalf("app.infra import not extracted: %+v", sites)
			}
		})
	}
}

// TestPythonTypeCheckingIndentation checks that an `if TYPE_CHECKING:`
// block ends where CPython's tokenizer ends it, which counts indentation
// in columns, not bytes: a form feed starts the count again and a tab
// moves to the next multiple of 8. want says whether `import amod` stays
// in the block; with TYPE_CHECKING = False CPython 3.11 runs every import
// marked false and none marked true (a continuation backslash at column 0
// before an indented line: 3.11 counts the next line's spaces, 3.10 does
// not, so the block ends, which can only add a finding).
func TestPythonTypeCheckingIndentation(t *testing.T) {
	tests := []struct {
		name, body string
		want       bool
	}{
		{"form feed before dedent", "if TYPE_CHECKING:\n    pass\n\x0cimport amod\n", false},
		{"form feed after spaces", "if TYPE_CHECKING:\n    pass\n    \x0cimport amod\n", false},
		{"spaces after form feed", "if TYPE_CHECKING:\n    pass\n\x0c    import amod\n", true},
		{"form feed on blank line", "if TYPE_CHECKING:\n    pass\n\x0c\n    import amod\n", true},
		{"tab body", "if TYPE_CHECKING:\n\tpass\n\timport amod\n", true},
		{"tab header in def", "def f():\n\tif TYPE_CHECKING:\n\t\tpass\n\timport amod\nf()\n", false},
		{"indented continuation", "if TYPE_CHECKING:\n    pass\n    \\\nimport amod\n", true},
		{"continuation at column 0", "if TYPE_CHECKING:\n    pass\n\\\n    import amod\n", false},
		{"continuation after semicolon", "if TYPE_CHECKING: pass; \\\nimport amod\n", true},
		{"brackets", "if TYPE_CHECKING:\n    x = (1,\n2)\n    import amod\n", true},
		{"comment line at column 0", "if TYPE_CHECKING:\n    pass\n# c\n    import amod\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "from typing import TYPE_CHECKING\n" + tt.body
			sites, _ := extractPython([]byte(src))
			found := false
			for _, s := range sites {
				if s.Spec == "amod" {
					found = true
					if s.TypeChecking != tt.want {
						t.Errorf("amod TypeChecking = %v, want %v", s.TypeChecking, tt.want)
					}
				}
			}
			if !found {
				t.Fatalf("amod import not extracted: %+v", sites)
			}
		})
	}
}

func TestExtractPythonErrorLines(t *testing.T) {
	_, errs := extractPython([]byte("a = 1\ns = '''never closed\nimport x\n"))
	if len(errs) != 1 || errs[0].Line != 2 || !strings.Contains(errs[0].Message, "unterminated") {
		t.Fatalf("want one unterminated-string error on line 2, got %v", errs)
	}
}

func FuzzExtractPython(f *testing.F) {
	for _, s := range []string{
		"import a.b as c\nfrom . import (x,\n y)\n",
		"f'{a[\"b\"]:{c}}' \\\nimport z",
		"from ..p import *; import q\n",
		"'''\n", "f'{", "\\", "from", "import", "\xef\xbb\xbf\r\n\rimport a",
		"import importlib\nimportlib.import_module('a.b', package=None)\n",
		"from importlib import import_module as im\nim(('x' 'y'))\n__import__(r'\\z')\n",
		"f = __import__\nf('\\x41\\u0042\\101')\n", "import_module(", "__import__('", "x = import_module", "__import__('\\x4",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sites, _ := extractPython(src)
		lines := 1 + strings.Count(string(src), "\n") + strings.Count(string(src), "\r")
		for _, s := range sites {
			if s.Line < 1 || s.Line > lines || s.Column < 1 || s.Spec == "" {
				t.Fatalf("bad site %+v", s)
			}
		}
	})
}
