package repofacts

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/vouch-dev/vouch/imports"
)

// Empty is the document of a repository with no changes.
func Empty() *Doc {
	return &Doc{
		Files: []File{}, Changed: []string{}, Added: []string{}, Modified: []string{}, Deleted: []string{},
		Renamed: []string{}, TestsChanged: []string{}, ImportsAdded: []imports.Record{}, ImportsRemoved: []imports.Record{},
		DependenciesAdded: []Dependency{}, DependenciesRemoved: []Dependency{}, GoExportsRemoved: []string{},
	}
}

// Fields lists the document's top-level fields, sorted.
func Fields() []string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(Empty().JSON(), &m); err != nil {
		panic(err)
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Inline completes a document given inline (a rule test's repo:, as JSON
// of a mapping) with the empty document's fields, so a test that gives
// only changed: still sees empty lists, not absent claims, for the rest.
// nil gives the empty document. Unknown fields are an error.
func Inline(given []byte) ([]byte, error) {
	var base map[string]json.RawMessage
	if err := json.Unmarshal(Empty().JSON(), &base); err != nil {
		return nil, err
	}
	if given != nil {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(given, &m); err != nil {
			return nil, fmt.Errorf("not a mapping: %w", err)
		}
		for k, v := range m {
			if _, ok := base[k]; !ok {
				return nil, fmt.Errorf("unknown field %q; the repository document has %v", k, Fields())
			}
			base[k] = v
		}
	}
	return json.Marshal(base)
}
