package symbols

import "testing"

func TestCount(t *testing.T) {
	tests := []struct {
		name, file, src string
		want            int
	}{
		{"python", "a.py", "import os\n\n@dataclass\nclass A:\n    def m(self):\n        pass\n\ndef f():\n    def inner(): pass\n\nasync def g():\n    pass\n", 3},
		{"python strings", "a.py", "\"\"\"Module doc.\n\ndef not_a_symbol():\n\"\"\"\nX = '''\nclass Nope:\n'''\ndef real(): pass\n", 1},
		{"python comment quotes", "a.py", "# it's \"\"\" here\ndef f(): pass\n", 1},
		{"go", "a.go", "package p\n\nfunc F() {}\nfunc (t T) M() {}\ntype (\n\tA int\n\tB int\n)\ntype C struct{}\nvar x = 1\n", 4},
		{"go broken", "a.go", "package p\nfunc F() {}\nfunc (", 2}, // the partial declaration counts, as go/parser keeps it
		{"ts", "a.ts", "import x from 'y';\nexport function f() {}\nexport default class A {}\ninterface I {}\nexport type T = string;\nexport const a = 1, b = 2;\nconst local = 3;\nfunction g() {\n  function nested() {}\n}\nexport default 42;\n", 7},
		{"ts comments and templates", "a.ts", "/*\nfunction no() {}\n*/\nconst s = `\nclass No {}\n`;\nexport async function yes() {}\n", 1},
		{"rust", "lib.rs", "use std::fmt;\npub fn a() {}\npub(crate) struct S;\nenum E {}\npub trait T {}\nimpl S {\n    pub fn m() {}\n}\nconst unsafe fn u() {}\n/*\nfn no() {}\n*/\n", 5},
		{"other", "a.md", "def f(): pass\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Count(tt.file, []byte(tt.src)); got != tt.want {
				t.Errorf("Count = %d, want %d", got, tt.want)
			}
		})
	}
}
