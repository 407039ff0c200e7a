package guard

import "sort"

// builtinSets are the rule sets a vouch/v1 policy switches on by name.
var builtinSets = map[string]func() []Rule{}

// BuiltinNames lists the built-in rule sets, sorted.
func BuiltinNames() []string {
	var n []string
	for k := range builtinSets {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

func builtinRules(name string) []Rule { return builtinSets[name]() }
