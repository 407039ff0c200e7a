package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/vouch-dev/vouch/internal/atomicfile"
)

// BaselineVersion is the version of the baseline file format.
const BaselineVersion = 1

// BaselineEntry is one recorded finding. Lines are left out so edits that
// only move code do not make a recorded violation new; Count says how many
// findings share the key.
type BaselineEntry struct {
	Rule  string `json:"rule"`
	Type  string `json:"type"`
	File  string `json:"file,omitempty"`
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
	Count int    `json:"count"`
}

// Key identifies the entry's findings.
func (e BaselineEntry) Key() string {
	return strings.Join([]string{e.Rule, e.Type, e.File, e.From, e.To}, ":")
}

func keyOf(f Finding) string {
	return BaselineEntry{Rule: f.Rule, Type: f.Type, File: f.File, From: f.From, To: f.To}.Key()
}

type baselineFile struct {
	Version int             `json:"version"`
	Entries []BaselineEntry `json:"entries"`
}

// MakeBaseline records findings as baseline entries, sorted.
func MakeBaseline(fs []Finding) []BaselineEntry {
	counts := map[string]*BaselineEntry{}
	for _, f := range fs {
		k := keyOf(f)
		if e := counts[k]; e != nil {
			e.Count++
			continue
		}
		counts[k] = &BaselineEntry{Rule: f.Rule, Type: f.Type, File: f.File, From: f.From, To: f.To, Count: 1}
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
	data, err := encodeJSON(baselineFile{Version: BaselineVersion, Entries: entries})
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
	var bf baselineFile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&bf); err != nil {
		return nil, fmt.Errorf("%s: not a vouch lint baseline: %w", path, err)
	}
	if bf.Version != BaselineVersion {
		return nil, fmt.Errorf("%s: baseline version %d; want %d", path, bf.Version, BaselineVersion)
	}
	return bf.Entries, nil
}

// ApplyBaseline marks findings recorded in entries (up to each entry's
// count) and returns the entries, or parts of them, that no longer occur.
func ApplyBaseline(fs []Finding, entries []BaselineEntry) []BaselineEntry {
	left := map[string]int{}
	for _, e := range entries {
		left[e.Key()] += e.Count
	}
	for i := range fs {
		k := keyOf(fs[i])
		if left[k] > 0 {
			left[k]--
			fs[i].Baseline = true
		}
	}
	stale := []BaselineEntry{}
	for _, e := range entries {
		if n := left[e.Key()]; n > 0 {
			e.Count = min(n, e.Count)
			left[e.Key()] -= e.Count
			stale = append(stale, e)
		}
	}
	return stale
}
