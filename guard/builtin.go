package guard

import (
	"embed"
	"fmt"
	"sort"
	"strings"
)

// builtinFS holds the built-in rule sets: vouch/v1 policies a policy
// switches on by name (builtins: [sensitive-reads, ...]).
//
//go:embed builtin/*.yaml
var builtinFS embed.FS

// BuiltinNames lists the built-in rule sets, sorted.
func BuiltinNames() []string {
	entries, _ := builtinFS.ReadDir("builtin")
	var n []string
	for _, e := range entries {
		n = append(n, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(n)
	return n
}

func isBuiltin(name string) bool {
	for _, n := range BuiltinNames() {
		if n == name {
			return true
		}
	}
	return false
}

// builtinSources is the text of every built-in set, in name order: part
// of the policy cache key.
func builtinSources() string {
	var b strings.Builder
	for _, n := range BuiltinNames() {
		data, _ := builtinFS.ReadFile("builtin/" + n + ".yaml")
		b.WriteString(n)
		b.WriteByte(0)
		b.Write(data)
		b.WriteByte(0)
	}
	return b.String()
}

// BuiltinPolicy loads one built-in rule set as a policy.
func BuiltinPolicy(name string) (*Policy, error) {
	data, err := builtinFS.ReadFile("builtin/" + name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no built-in rule set %q", name)
	}
	return LoadPolicy("builtin/"+name+".yaml", data)
}

// builtinRules are the rules of a built-in set, marked with their origin.
// The sets are tested to load, so an error here cannot happen in a
// released binary; it would surface as a policy error (a deny).
func builtinRules(name string) ([]Rule, error) {
	p, err := BuiltinPolicy(name)
	if err != nil {
		return nil, err
	}
	var out []Rule
	for _, r := range p.Rules {
		if implicitShellRule(r.ID) {
			continue // the including policy adds its own
		}
		r.Builtin = name
		out = append(out, r)
	}
	return out, nil
}
