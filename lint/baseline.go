package lint

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/vouch-dev/vouch/internal/atomicfile"
	"github.com/vouch-dev/vouch/output"
)

// BaselineVersion is the version of the baseline file format.
const BaselineVersion = 1

// BaselineEntry is one recorded finding. Lines are left out so edits that
// only move code do not make a recorded violation new; Count says how many
// findings share the key.
//
// A cycle is recorded by its sorted member list (Members, no From and no
// File): a cycle that gains or loses a member is a new finding and its
// old entry is stale, while the file a cycle finding is shown on (the
// import that closes it) may change without making it new.
type BaselineEntry struct {
	Rule    string   `json:"rule"`
	Type    string   `json:"type"`
	File    string   `json:"file,omitempty"`
	From    string   `json:"from,omitempty"`
	To      string   `json:"to,omitempty"`
	Members []string `json:"members,omitempty"`
	Count   int      `json:"count"`
}

// Key identifies the entry's findings.
func (e BaselineEntry) Key() string {
	k := strings.Join([]string{e.Rule, e.Type, e.File, e.From, e.To}, ":")
	if len(e.Members) > 0 {
		k += ":" + strings.Join(e.Members, ",")
	}
	return k
}

// entryOf is the baseline identity of a finding.
func entryOf(f Finding) BaselineEntry {
	if f.Cycle != nil {
		m := slices.Clone(f.Cycle.Members)
		sort.Strings(m)
		return BaselineEntry{Rule: f.Rule, Type: f.Type, Members: m}
	}
	return BaselineEntry{Rule: f.Rule, Type: f.Type, File: f.File, From: f.From, To: f.To}
}

func keyOf(f Finding) string { return entryOf(f).Key() }

// Baselinable reports whether a finding may be recorded in a baseline.
// Inert rules and expired or unused exemptions are configuration
// problems, not accepted violations: they are never recorded, so they
// keep failing under --strict. An unreadable source file is never
// accepted either: what it imports is unknown, so accepting it once
// would accept whatever it is edited to import later.
func Baselinable(f Finding) bool {
	switch f.Type {
	case TypeInert, TypeExemptionUnused, TypeExemptionExpired, TypeIgnoreUnmatched, TypeUnreadable:
		return false
	}
	return true
}

// StaleEntry is a baseline entry that occurs fewer times than recorded:
// Count is the recorded count, Found how many findings still match (0
// when it no longer occurs at all).
type StaleEntry struct {
	BaselineEntry
	Found int `json:"found"`
}

// Describe words a stale entry for people: "no longer occurs", or the
// change of count when some of its findings remain.
func (e StaleEntry) Describe() string {
	if e.Found == 0 {
		return fmt.Sprintf("stale baseline entry %s: no longer occurs; remove it from the baseline", e.Key())
	}
	return fmt.Sprintf("stale baseline entry %s: count %d → %d; lower it in the baseline", e.Key(), e.Count, e.Found)
}

type baselineFile struct {
	Version int             `json:"version"`
	Entries []BaselineEntry `json:"entries"`
}

// MakeBaseline records findings as baseline entries, sorted.
func MakeBaseline(fs []Finding) []BaselineEntry {
	counts := map[string]*BaselineEntry{}
	for _, f := range fs {
		if !Baselinable(f) {
			continue
		}
		k := keyOf(f)
		if e := counts[k]; e != nil {
			e.Count++
			continue
		}
		e := entryOf(f)
		e.Count = 1
		counts[k] = &e
	}
	out := make([]BaselineEntry, 0, len(counts))
	for _, e := range counts {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// WriteBaseline writes entries to path as indented JSON.
func WriteBaseline(path string, entries []BaselineEntry) error {
	data, err := output.EncodeJSON(baselineFile{Version: BaselineVersion, Entries: entries})
	if err != nil {
		return fmt.Errorf("encode baseline: %w", err)
	}
	// Atomic: a half-written baseline would silently forgive violations.
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	return nil
}

// ReadBaseline reads a baseline file.
func ReadBaseline(path string) ([]BaselineEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	entries, err := parseBaseline(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return entries, nil
}

// parseBaseline parses a baseline file's bytes.
func parseBaseline(data []byte) ([]BaselineEntry, error) {
	var bf baselineFile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&bf); err != nil {
		return nil, fmt.Errorf("not a vouch lint baseline: %w; rewrite it with vouch lint --update-baseline", err)
	}
	if bf.Version != BaselineVersion {
		return nil, fmt.Errorf("baseline version %d; want %d; rewrite it with vouch lint --update-baseline", bf.Version, BaselineVersion)
	}
	return bf.Entries, nil
}

// ApplyBaseline marks findings recorded in entries (up to each entry's
// count) and returns the entries that occur fewer times than recorded, in
// the baseline's order (entries with the same key are summed). Findings
// that cannot be baselined (Baselinable) are never marked.
func ApplyBaseline(fs []Finding, entries []BaselineEntry) []StaleEntry {
	recorded := map[string]int{}
	for _, e := range entries {
		recorded[e.Key()] += e.Count
	}
	left := maps.Clone(recorded)
	found := map[string]int{}
	for i := range fs {
		if !Baselinable(fs[i]) {
			continue
		}
		k := keyOf(fs[i])
		found[k]++
		if left[k] > 0 {
			left[k]--
			fs[i].Baseline = true
		}
	}
	stale := []StaleEntry{}
	done := map[string]bool{}
	for _, e := range entries {
		k := e.Key()
		if done[k] || found[k] >= recorded[k] {
			continue
		}
		done[k] = true
		e.Count = recorded[k]
		stale = append(stale, StaleEntry{BaselineEntry: e, Found: found[k]})
	}
	return stale
}
