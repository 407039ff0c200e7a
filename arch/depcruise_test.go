package arch

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseDepcruise(t *testing.T) {
	src := `{
  "forbidden": [
    {"name": "a", "severity": "error", "comment": "why", "from": {"path": ["^src/([^/]+)/", "^lib/"], "pathNot": "spec"},
     "to": {"pathNot": "^src/$1/", "circular": true, "viaNot": "ui", "dependencyTypes": ["import", "dynamic-import"], "couldNotResolve": false}},
    {"from": {}, "to": {}},
    {"from": {}, "to": {"path": "x"}},
    {"name": "off", "severity": "ignore", "from": {}, "to": {}},
    {"name": "lonely", "from": {"orphan": true}, "to": {"path": "ignored"}}
  ],
  "allowed": [{"from": {}, "to": {"dependencyTypes": ["core"]}}],
  "allowedSeverity": "info",
  "options": {"doNotFollow": {"path": "node_modules", "dependencyTypes": ["npm"]}, "maxDepth": 3, "reporterOptions": {}, "tsConfig": {"fileName": "tsconfig.build.json"}}
}`
	m, err := ParseDepcruise(".dependency-cruiser.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range m.Rules {
		got = append(got, r.Name+" "+string(r.Type)+" "+r.Severity)
	}
	want := []string{"a forbid_dependency error", "unnamed forbid_dependency warn", "unnamed-2 forbid_dependency warn", "lonely forbid_dependency warn", "not-in-allowed allowed_dependencies info"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	a := m.Rules[0].Dep
	wantA := DepRule{
		From: DepFrom{DepPaths: DepPaths{Path: []string{"^src/([^/]+)/", "^lib/"}, PathNot: []string{"spec"}}},
		To: DepTo{DepPaths: DepPaths{PathNot: []string{"^src/$1/"}}, Circular: a.To.Circular, ViaOnly: DepPaths{PathNot: []string{"ui"}},
			DependencyTypes: []string{"import", "type-only", "dynamic"}, CouldNotResolve: a.To.CouldNotResolve},
	}
	if diff := cmp.Diff(wantA, *a); diff != "" || !*a.To.Circular || *a.To.CouldNotResolve {
		t.Errorf("rule a (-want +got):\n%s", diff)
	}
	if o := m.Rules[3].Dep; o.From.Orphan == nil || len(o.To.Path) != 0 {
		t.Errorf("orphan rule keeps its to: %+v", o)
	}
	if len(m.Skipped) != 1 || m.Skipped[0].Name != "off" {
		t.Errorf("skipped = %+v, want the ignore rule", m.Skipped)
	}
	var notes []string
	for _, n := range m.Notes {
		notes = append(notes, n.Msg)
	}
	wantNotes := []string{
		"dependency-cruiser ignores the to part of an orphan rule; so does vouch",
		"options.doNotFollow.dependencyTypes is not applied by vouch; only options.doNotFollow.path is",
		"option maxDepth is not applied by vouch; findings may differ from dependency-cruiser's",
		"vouch resolves TypeScript paths with the tsconfig.json nearest each file, not with tsconfig.build.json",
	}
	if diff := cmp.Diff(wantNotes, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if sc := m.Scope; sc == nil || !sc.NoTypeOnly || !sc.JSOnly || !cmp.Equal(sc.DoNotFollow, []string{"node_modules"}) {
		t.Errorf("scope = %+v", m.Scope)
	}
}

func TestParseDepcruiseErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"extends", `{"extends": "./base.json"}`, `x.json:1:2: extends is not read: vouch reads one file; copy the rules of "./base.json" into this file`},
		{"required", `{"required": []}`, "x.json:1:2: required rules are not evaluated by vouch"},
		{"severity", `{"forbidden": [{"severity": "fatal", "from": {}, "to": {}}]}`, `x.json:1:29: severity "fatal"; want one of error, warn, info, ignore`},
		{"scope", `{"forbidden": [{"scope": "folder", "from": {}, "to": {}}]}`, `x.json:1:26: scope "folder" is not evaluated by vouch`},
		{"via", `{"forbidden": [{"from": {}, "to": {"circular": true, "via": "x"}}]}`, "x.json:1:54: to.via is not evaluated by vouch"},
		{"no to", `{"forbidden": [{"from": {}}]}`, "x.json:1:16: a rule needs from and to"},
		{"lookbehind", `{"forbidden": [{"from": {"path": "(?<=a)b"}, "to": {}}]}`, `x.json:1:34: from.path: regular expression "(?<=a)b" uses lookbehind`},
		{"backref", `{"forbidden": [{"from": {}, "to": {"path": "(a)\\1"}}]}`, `x.json:1:44: to.path: regular expression "(a)\\1" uses the back-reference \1`},
		{"group in from", `{"forbidden": [{"from": {"path": "^$1"}, "to": {}}]}`, `refers to a group ($1...), which only a to path or path_not may do`},
		{"bad type", `{"forbidden": [{"from": {}, "to": {"dependencyTypes": ["aliased-tsconfig"]}}]}`, "vouch resolves aliases (tsconfig paths, package imports) but does not mark them"},
		{"unknown key", `{"forbiden": []}`, `x.json:1:2: unknown key "forbiden" in the configuration (did you mean "forbidden"?)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDepcruise("x.json", []byte(tt.src))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}
