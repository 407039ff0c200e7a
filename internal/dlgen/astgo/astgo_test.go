package astgo

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/mangle/ast"
)

func TestGenerateErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"syntax", "p(X :- q(X).", "p.dl: parse datalog: 1:"},
		{"unsafe rule", "p(X) :- !q(X).\nq(1).", "p.dl: analyse datalog"},
		{"not stratifiable", "p(X) :- q(X), !p(X).\nq(1).", "p.dl: stratify datalog"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Generate(Config{Package: "p", Source: "p.dl", Func: "p"}, tt.src)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Generate error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestValueRefusesHiddenState proves a value the generator cannot rebuild
// from outside its package (a list constant keeps its cells in unexported
// fields) is an error, not a silently different value.
func TestValueRefusesHiddenState(t *testing.T) {
	w := &writer{imports: map[string]string{}}
	_, err := w.value(reflect.ValueOf(ast.List([]ast.Constant{ast.Number(1)})))
	if err == nil || !strings.Contains(err.Error(), "unexported field") {
		t.Fatalf("value(list) error = %v, want an unexported-field error", err)
	}
	got, err := w.value(reflect.ValueOf(ast.String("a\"b")))
	if err != nil {
		t.Fatal(err)
	}
	if want := `ast.Constant{Type: ast.StringType, Symbol: "a\"b", NumValue: `; !strings.HasPrefix(got, want) {
		t.Fatalf("value(string) = %s, want prefix %s", got, want)
	}
}

func TestGenerateIsStable(t *testing.T) {
	src := "Decl e(X, Y) descr [extensional()].\nr(X, Y) :- e(X, Y).\nr(X, Z) :- e(X, Y), r(Y, Z).\ns(X) :- e(X, _), !r(X, X).\n"
	first, err := Generate(Config{Package: "p", Source: "p.dl", Func: "p"}, src)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, err := Generate(Config{Package: "p", Source: "p.dl", Func: "p"}, src)
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != string(first) {
			t.Fatal("two generations of the same program differ")
		}
	}
}
