// Package schema holds the JSON Schemas (draft 2020-12) of vouch's file
// kinds, so editors with yaml-language-server can complete and check
// rulespecs, envelopes and rulespec test files as they are typed.
//
// The schemas describe the files' shape only; vouch's loaders remain the
// authority (a schema cannot, for example, check that a claim is defined).
package schema

import (
	"embed"
	"fmt"
	"sort"
	"strings"

	"github.com/vouch-dev/vouch/suggest"
)

//go:embed *.schema.json
var files embed.FS

var byKind = map[string]string{
	"envelope":      "envelope.schema.json",
	"rulespec":      "rulespec.schema.json",
	"rulespec-test": "rulespec-test.schema.json",
}

// Kinds lists the file kinds with a schema, sorted.
func Kinds() []string {
	out := make([]string, 0, len(byKind))
	for k := range byKind {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Get returns the schema of a file kind, and whether there is one.
func Get(kind string) ([]byte, bool) {
	name, ok := byKind[kind]
	if !ok {
		return nil, false
	}
	data, err := files.ReadFile(name)
	if err != nil {
		// The files are embedded at build time, so this cannot happen.
		return nil, false
	}
	return data, true
}

// Lookup is Get for a kind a user typed: an unknown kind is an error with
// a did-you-mean and the kinds to choose from.
func Lookup(kind string) ([]byte, error) {
	data, ok := Get(kind)
	if !ok {
		kinds := Kinds()
		return nil, fmt.Errorf("unknown schema kind %q%s; use one of %s", kind, suggest.Hint(kind, kinds), strings.Join(kinds, ", "))
	}
	return data, nil
}
