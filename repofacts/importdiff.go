package repofacts

import (
	"context"
	"slices"
	"strings"

	"github.com/vouch-dev/vouch/imports"
)

// importDiff fills ImportsAdded and ImportsRemoved: the import records of
// each changed file's working-tree version that its base version does not
// have, and the reverse. A renamed file is compared with its old self.
// Both sides are resolved against the working tree's layout, so an import
// whose text did not change is never reported because its target moved.
func (d *Doc) importDiff(ctx context.Context, g *git, root string, s *sources) {
	d.ImportsAdded, d.ImportsRemoved = []imports.Record{}, []imports.Record{}
	langs := map[imports.Lang]bool{}
	for _, c := range s.cs {
		for _, p := range []string{c.Path, c.OldPath} {
			if l, ok := imports.LangOf(p); ok && p != "" {
				langs[l] = true
			}
		}
	}
	if len(langs) == 0 {
		return
	}
	// The files imports resolve against, listed by the code vouch lint
	// lists them with, so an import resolves alike in both (through
	// symlinked directories too); .git/info/exclude and core.excludesFile,
	// which the work can write, play no part, nor do .gitignore rules
	// the base lacks.
	repo, err := imports.ListRepo(ctx, root, &knownTree{name: "the base " + d.Base, b: s.blobs, commit: d.BaseCommit})
	if err != nil {
		d.Warnings = append(d.Warnings, "imports: list the repository's files: "+err.Error())
		return
	}
	var want []imports.Lang
	for l := range langs {
		want = append(want, l)
	}
	slices.Sort(want)
	rs := imports.NewResolvers(repo, want)
	extract := func(p string, data []byte, ok bool) []imports.Record {
		l, known := imports.LangOf(p)
		if !known || !ok || data == nil {
			return nil
		}
		recs, warns := rs.Extract(p, l, data)
		for _, w := range warns {
			d.Warnings = append(d.Warnings, w.File+": "+w.Message)
		}
		return recs
	}
	for _, c := range s.cs {
		oldData, hasOld := s.old[c.oldPath()]
		curData, hasCur := s.cur[c.Path]
		before := extract(c.oldPath(), oldData, hasOld && c.Status != Added)
		after := extract(c.Path, curData, hasCur && c.Status != Deleted)
		added, removed := diffRecords(before, after)
		d.ImportsAdded = append(d.ImportsAdded, added...)
		d.ImportsRemoved = append(d.ImportsRemoved, removed...)
	}
	sortRecords(d.ImportsAdded)
	sortRecords(d.ImportsRemoved)
}

// recordKey is what an import is, apart from where in its file it is.
func recordKey(r imports.Record) string {
	return strings.Join([]string{string(r.Lang), string(r.Kind), r.Spec, strings.Join(r.Names, ","), r.Alias,
		string(r.Resolution.Kind), r.Resolution.Target}, "\x00")
}

// diffRecords matches records as multisets by recordKey.
func diffRecords(before, after []imports.Record) (added, removed []imports.Record) {
	count := map[string]int{}
	for _, r := range before {
		count[recordKey(r)]++
	}
	for _, r := range after {
		k := recordKey(r)
		if count[k] > 0 {
			count[k]--
			continue
		}
		added = append(added, r)
	}
	count = map[string]int{}
	for _, r := range after {
		count[recordKey(r)]++
	}
	for _, r := range before {
		k := recordKey(r)
		if count[k] > 0 {
			count[k]--
			continue
		}
		removed = append(removed, r)
	}
	return added, removed
}

func sortRecords(rs []imports.Record) {
	slices.SortStableFunc(rs, func(a, b imports.Record) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Column != b.Column {
			return a.Column - b.Column
		}
		return strings.Compare(recordKey(a), recordKey(b))
	})
}
