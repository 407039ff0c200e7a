package repofacts

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/vouch-dev/vouch/imports"
)

// importDiff fills ImportsAdded and ImportsRemoved: the import records of
// each changed file's working-tree version that its base version does not
// have, and the reverse. A renamed file is compared with its old self.
// Both sides are resolved against the working tree's layout, so an import
// whose text did not change is never reported because its target moved.
//
// The working-tree side is read as the code that runs: a symbolic link
// by the file it leads to, and a file a JS/TS import loads whatever its
// extension (node runs require("./h.txt") as JavaScript) as JavaScript,
// as vouch imports reads them. It fails closed: a changed source file
// whose imports cannot all be read (binary, undecodable, too large, a
// link out of the root), or an import of one of vouch's own files (the
// envelope, which the work does not include), is an *Error, never a
// file without imports.
func (d *Doc) importDiff(ctx context.Context, g *git, root string, s *sources, own ownSet) error {
	d.ImportsAdded, d.ImportsRemoved = []imports.Record{}, []imports.Record{}
	langs := map[imports.Lang]bool{}
	for _, c := range s.cs {
		for _, p := range []string{c.Path, c.OldPath} {
			if l, ok := imports.LangOf(p); ok && p != "" {
				langs[l] = true
			}
		}
	}
	changed := map[string]*change{}
	touched := map[string]bool{} // every path the work changed, either side
	for i := range s.cs {
		c := &s.cs[i]
		touched[c.Path] = true
		if c.OldPath != "" {
			touched[c.OldPath] = true
		}
		if c.Status != Deleted && c.gitlink == "" {
			changed[c.Path] = c
		}
	}
	// An unchanged symbolic link runs what it leads to, and an unchanged
	// JS/TS file runs what it requires: a changed file that either leads
	// to adds what it imports, though no changed file names it.
	links, err := s.unchangedLinks(touched, changed)
	if err != nil {
		return &Error{Msg: "repository facts: read the base's symbolic links", Err: err}
	}
	for _, l := range links {
		langs[l.lang] = true
	}
	jsTargets := false
	for t := range changed {
		jsTargets = jsTargets || imports.RunsAsJS(t)
	}
	// A package.json whose main changed redirects a require of its
	// directory in files the work did not touch.
	mainDirs := s.mainChanged()
	if len(langs) == 0 && !jsTargets && len(mainDirs) == 0 {
		return nil
	}
	if langs[imports.TypeScript] || jsTargets || len(mainDirs) > 0 {
		langs[imports.JavaScript] = true // files TS loads are read as JS
	}
	// The files imports resolve against, listed by the code vouch lint
	// lists them with, so an import resolves alike in both (through
	// symlinked directories too); .git/info/exclude and core.excludesFile,
	// which the work can write, play no part, nor do .gitignore rules
	// the base lacks.
	repo, err := imports.ListRepo(ctx, root, &knownTree{name: "the base " + d.Base, b: s.blobs, commit: d.BaseCommit})
	if err != nil {
		return &Error{Msg: "repository facts: list the repository's files to resolve imports", Err: err}
	}
	var want []imports.Lang
	for l := range langs {
		want = append(want, l)
	}
	slices.Sort(want)
	rs := imports.NewResolvers(repo, want)
	s.shadowsRemoved(rs, mainDirs)
	var unread []string
	// files are the work's loads by literal path that no import record
	// carries (include!, //go:embed), checked with work.
	var files []fileLoad
	extract := func(p string, l imports.Lang, data []byte, cur bool) []imports.Record {
		recs, warns := rs.Extract(p, l, data)
		switch {
		case cur && l == imports.Rust:
			files = append(files, rustFileLoads(p, data)...)
		case cur && l == imports.Go:
			files = append(files, s.goEmbedFileLoads(p, data, own)...)
		}
		for _, w := range warns {
			msg := ShownPath(w.File) + ": " + w.Message
			if w.Line > 0 {
				msg = fmt.Sprintf("%s:%d: %s", ShownPath(w.File), w.Line, w.Message)
			}
			if cur && w.Unread {
				unread = append(unread, msg)
			}
			d.Warnings = append(d.Warnings, msg)
		}
		return recs
	}
	// work holds every working-tree record of the work read, for the
	// checks below; queue holds what is followed, the work's records and
	// those of unchanged importers (not the work's: only followed).
	var work []imports.Record
	type load struct {
		r    imports.Record
		work bool
	}
	var queue []load
	diff := func(before, after []imports.Record) {
		added, removed := diffRecords(before, after)
		d.ImportsAdded = append(d.ImportsAdded, added...)
		d.ImportsRemoved = append(d.ImportsRemoved, removed...)
		work = append(work, after...)
		for _, r := range after {
			queue = append(queue, load{r, true})
		}
	}
	for _, c := range s.cs {
		var before, after []imports.Record
		if l, ok := imports.LangOf(c.oldPath()); ok && c.Status != Added {
			if data, ok := s.old[c.oldPath()]; ok && data != nil {
				before = extract(c.oldPath(), l, data, false)
			}
		}
		if l, ok := imports.LangOf(c.Path); ok && changed[c.Path] != nil {
			data, why := s.code(c.Path)
			if why != "" {
				unread = append(unread, ShownPath(c.Path)+": "+why)
			} else if data != nil {
				after = extract(c.Path, l, data, true)
			}
		}
		diff(before, after)
	}
	// An unchanged link to a changed file (or one that leads elsewhere
	// now) is that file under the link's name and language: read both
	// sides so, and compare them.
	for _, l := range links {
		before, after, why, err := s.linkSides(l, touched)
		if err != nil {
			return &Error{Msg: "repository facts: read file contents", Err: err}
		}
		if why != "" {
			unread = append(unread, ShownPath(l.path)+": "+why)
			continue
		}
		var b, a []imports.Record
		if before != nil {
			b = extract(l.path, l.lang, before, false)
		}
		if after != nil {
			a = extract(l.path, l.lang, after, true)
		}
		diff(b, a)
	}
	// An unchanged JS/TS file may require a changed one node runs as
	// JavaScript whatever its extension: read every unchanged JS/TS file
	// of the repository to follow what it loads, when a changed file
	// could be such a target.
	// An unchanged JS/TS file that requires a directory whose main the
	// work redirected loads what the work chose: its records of that
	// directory are the work's, checked and followed as such.
	if jsTargets || len(mainDirs) > 0 {
		recs, err := s.unchangedJS(repo, rs, changed, func(r imports.Record) bool {
			_, run := jsRunTarget(r, changed)
			return run || redirected(repo, s, mainDirs, r)
		})
		if err != nil {
			return &Error{Msg: "repository facts: read file contents", Err: err}
		}
		for _, r := range recs {
			w := redirected(repo, s, mainDirs, r)
			if w {
				work = append(work, r)
			}
			queue = append(queue, load{r, w})
		}
	}
	// Files that JS/TS imports load though no JS/TS extension selected
	// them are JavaScript to node; read them so, each once, following
	// what they load in turn. A changed one is compared with its base
	// version read the same way (and is the work's, whoever loads it);
	// an unchanged one adds nothing but may load a changed one.
	// An unchanged target first reached from an unchanged importer is
	// read again when the work reaches it too: what it loads is then the
	// work's to check.
	followed, followedWork := map[string]bool{}, map[string]bool{}
	for i := 0; i < len(queue); i++ {
		q := queue[i]
		t, ok := jsRunTarget(q.r, changed)
		if !ok || followed[t] && (followedWork[t] || !q.work || changed[t] != nil) {
			continue
		}
		followed[t] = true
		followedWork[t] = followedWork[t] || q.work
		data, to, why, err := s.readCode(t)
		if err != nil {
			return &Error{Msg: "repository facts: read file contents", Err: err}
		}
		c := changed[t]
		if to != "" && (q.work || c != nil) {
			s.linkTo[t] = to // ownLoads checks where it leads
		}
		if c == nil {
			if why == "" && data != nil {
				recs, _ := rs.Extract(t, imports.JavaScript, data)
				if q.work {
					work = append(work, recs...)
				}
				for _, r := range recs {
					queue = append(queue, load{r, q.work})
				}
			}
			continue
		}
		var before, after []imports.Record
		if c.oldBlob != "" {
			old, ok, err := s.blobs.read(c.oldBlob, MaxFileBytes)
			if err != nil {
				return &Error{Msg: "repository facts: read file contents", Err: err}
			}
			if ok {
				before = extract(c.oldPath(), imports.JavaScript, old, false)
			}
		}
		if why != "" {
			unread = append(unread, ShownPath(t)+": "+why)
		} else if data != nil {
			after = extract(t, imports.JavaScript, data, true)
		}
		diff(before, after)
	}
	sortRecords(d.ImportsAdded)
	sortRecords(d.ImportsRemoved)
	var problems []string
	if len(unread) > 0 {
		slices.Sort(unread)
		problems = append(problems, "these changed source files could not be read for imports, so what they load is unknown (vouch lint reports them as unreadable-source); make them readable source or restore their base versions:\n  "+strings.Join(slices.Compact(unread), "\n  "))
	}
	// A path the work changed is work; one in the base tree is too
	// (vouch never commits its own files); other own names are left out.
	leftOut := func(p string) (bool, error) {
		if changed[p] != nil || !own.has(p, false) {
			return false, nil
		}
		base, err := s.baseListing(ctx, g)
		if err != nil {
			return false, err
		}
		_, inBase := base[p]
		return own.has(p, inBase), nil
	}
	ownLoads, gitLoads, err := refusedLoads(rs, work, files, s, leftOut)
	if err != nil {
		return err
	}
	byPath, err := unlistedLoads(root, repo, rs, work, files, changed, leftOut)
	if err != nil {
		return err
	}
	// A load both checks see (a relative spelling of an unlisted own
	// file) is named once.
	ownLoads = slices.Compact(slices.Sorted(slices.Values(append(ownLoads, byPath.own...))))
	gitLoads = slices.Compact(slices.Sorted(slices.Values(append(gitLoads, byPath.git...))))
	if len(ownLoads) > 0 {
		problems = append(problems, "the work loads files vouch keeps out of the work (its own files, such as the envelope), so what they run or embed is never checked; load no file vouch writes:\n  "+strings.Join(ownLoads, "\n  "))
	}
	if len(gitLoads) > 0 {
		problems = append(problems, "the work loads files inside a .git directory, which git lists none of, so what they run or embed is never checked; move the code out of .git:\n  "+strings.Join(gitLoads, "\n  "))
	}
	problems = append(problems, byPath.problems()...)
	if len(problems) > 0 {
		return &Error{Msg: "repository facts: " + strings.Join(problems, "\nrepository facts: ")}
	}
	return nil
}

// code is the working-tree content of the changed path p as its imports
// are read (see readCode), from what load read; why says why it could
// not be read.
func (s *sources) code(p string) (data []byte, why string) {
	if why := s.unread[p]; why != "" {
		return nil, why
	}
	if data, ok := s.linked[p]; ok {
		if data == nil {
			return nil, fmt.Sprintf("larger than %d MiB; vouch does not read it", MaxFileBytes>>20)
		}
		return data, ""
	}
	if _, ok := s.linkTo[p]; ok {
		return nil, ""
	}
	data, ok := s.cur[p]
	if !ok {
		return nil, "not a regular file that vouch could read"
	}
	if data == nil {
		return nil, fmt.Sprintf("larger than %d MiB; vouch does not read it", MaxFileBytes>>20)
	}
	return data, ""
}

// jsRunTarget is the file a JS/TS record loads and node runs as
// JavaScript although no JS/TS extension makes vouch read it so: its
// resolved target, or, for a relative specifier the resolver could not
// place (a file under .vouch, which listings leave out), the changed
// file it names.
func jsRunTarget(r imports.Record, changed map[string]*change) (string, bool) {
	if r.Lang != imports.JavaScript && r.Lang != imports.TypeScript || r.Kind == imports.KindTypeOnly {
		return "", false
	}
	t := ""
	switch {
	case r.Resolution.Kind == imports.Internal:
		t = r.Resolution.Target
	case strings.HasPrefix(r.Spec, "./") || strings.HasPrefix(r.Spec, "../"):
		p := path.Join(path.Dir(r.File), r.Spec)
		if changed[p] == nil {
			return "", false
		}
		t = p
	default:
		return "", false
	}
	if !imports.RunsAsJS(t) {
		return "", false
	}
	return t, true
}

// nodeExts are the extensions node's require adds to a path, and tries
// for a directory's index (with .cjs and .mjs, which bundlers add).
var nodeExts = []string{".js", ".json", ".node", ".cjs", ".mjs"}

// loadCandidates are the root-relative paths the runtime may load for
// the record r, as far as a file can be named. For JS/TS (not a
// type-only import): its resolved target, and a relative specifier's
// path as written, with the extensions node adds and as a directory (its
// package.json main, its index). For the other languages, what their resolvers name
// (imports.Resolvers.LoadPaths): Python's module files below its roots,
// Rust's mod files and #[path] attributes, Go's package directories.
func loadCandidates(rs *imports.Resolvers, r imports.Record) []string {
	if r.Lang != imports.JavaScript && r.Lang != imports.TypeScript {
		return rs.LoadPaths(r)
	}
	if r.Kind == imports.KindTypeOnly {
		return nil
	}
	var cands []string
	if r.Resolution.Kind == imports.Internal {
		cands = append(cands, r.Resolution.Target)
	}
	if strings.HasPrefix(r.Spec, "./") || strings.HasPrefix(r.Spec, "../") || r.Spec == "." || r.Spec == ".." {
		p := path.Join(path.Dir(r.File), r.Spec)
		cands = append(cands, p)
		for _, ext := range nodeExts {
			cands = append(cands, p+ext, p+"/index"+ext)
		}
		// A directory's package.json main, which node loads before its
		// index, as written: it may name a file the listing lacks.
		if m := rs.JSMain(p); m != "" {
			mp := path.Join(p, m)
			cands = append(cands, mp)
			for _, ext := range nodeExts {
				cands = append(cands, mp+ext, mp+"/index"+ext)
			}
		}
	}
	return cands
}

// loadLine is how a refusal names the record r that loads the file c:
// "file:line: spec loads c", each name as ShownPath prints it (a JS
// specifier is a string literal and may hold any character).
func loadLine(r imports.Record, c string) string {
	return fmt.Sprintf("%s:%d: %s loads %s", ShownPath(r.File), r.Line, ShownPath(r.Spec), ShownPath(c))
}

// linkLine is how a refusal names the changed symbolic link p to to.
func linkLine(p, to string) string {
	return fmt.Sprintf("%s: a symbolic link to %s", ShownPath(p), ShownPath(to))
}

// hasGitComponent reports whether the '/'-separated path p has a
// component that is .git in any case.
func hasGitComponent(p string) bool {
	for c := range strings.SplitSeq(p, "/") {
		if strings.EqualFold(c, ".git") {
			return true
		}
	}
	return false
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
