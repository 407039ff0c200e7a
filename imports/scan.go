package imports

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/vouch-dev/vouch/internal/fsstat"
	"github.com/vouch-dev/vouch/internal/parallel"
)

// DefaultMaxFileSize is the size above which files are skipped with a
// warning: generated bundles and data files that large are not hand-written
// source and would dominate run time.
const DefaultMaxFileSize = 4 << 20

// ErrNotFound reports that the path to scan does not exist.
var ErrNotFound = errors.New("path not found")

// Options configures Scan. The zero value scans every language with the
// cache enabled.
type Options struct {
	// Langs restricts extraction to these languages; empty means all.
	Langs []Lang
	// Exclude holds globs (path.Match syntax) matched against each
	// repository-relative path, each of its parent directories, and their
	// base names.
	Exclude []string
	// MaxFileSize skips larger files; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// NoCache neither reads nor writes the cache (see cacheDir).
	NoCache bool
	// Fresh extracts every file without reading the cache, then writes
	// it (unless NoCache): a check that must trust nothing it did not
	// read itself (vouch gate) takes nothing from it.
	Fresh bool
	// PythonRoots replaces auto-detected Python package roots
	// (repository-relative directories; "" or "." is the root).
	PythonRoots []string
	// Workers is the number of parallel extractors; 0 means GOMAXPROCS.
	Workers int
	// Only, when set, is the one repository-relative file whose imports
	// are extracted; the rest of the tree still informs resolution. The
	// cache is read but not rewritten, so a one-file scan never prunes it.
	Only string
	// Progress, when set, is told how many of the files are done, from
	// one goroutine, about ten times a second and once at the end.
	Progress func(done, total int)
	// Trusted, when set, is the commit whose .gitignore rules a git
	// listing honours: a path the work tree's .gitignore files ignore is
	// listed anyway unless Trusted ignores it by the same rule, so a rule
	// the checked work adds hides nothing (Result.Unignored lists what it
	// would have hidden). nil honours the work tree's .gitignore files as
	// they are.
	Trusted TrustedTree
}

// Stats describes the work a Scan did.
type Stats struct {
	Files     int   `json:"files"`     // source files in the selected languages
	Extracted int   `json:"extracted"` // files parsed this run
	Cached    int   `json:"cached"`    // files whose result came from the cache
	Skipped   int   `json:"skipped"`   // files skipped with a warning
	Bytes     int64 `json:"bytes"`     // bytes of source covered
}

// Result is the outcome of a Scan: records sorted by file, line and
// column, warnings sorted by file and line.
type Result struct {
	Records []Record `json:"records"`
	// Files lists every source file in the selected languages, sorted,
	// including files without imports: callers that map files to owners
	// (vouch lint) need files that import nothing too.
	Files    []string  `json:"-"`
	Warnings []Warning `json:"warnings"`
	// RootHints are the warnings (also in Warnings) that a Python package
	// root was probably missed: many absolute imports of a local package
	// resolve outside the repository. vouch lint reports them as notices.
	RootHints []Warning `json:"-"`
	// Unignored are the listed files that a .gitignore in the work tree
	// ignores but Options.Trusted does not (by the same rule), whether
	// or not they are source files.
	Unignored []Unignored `json:"-"`
	Stats     Stats       `json:"-"`
}

// fileOut is one worker's result for one file.
type fileOut struct {
	records  []Record
	warnings []Warning
	entry    *cacheEntry
	// how: 0 extracted, 1 cache hit by stat, 2 cache hit by hash, 3 skipped
	how   int
	bytes int64
	// path is the file's, set for the files followJSTargets adds.
	path string
}

// jsAssetExts are extensions a JS/TS import names to have a bundler load
// the file as an asset (webpack's and Vite's loaders), not to run it;
// .json and .node are what node itself loads otherwise. Scanning them as
// JavaScript would report CSS and images as syntax errors or unreadable.
var jsAssetExts = map[string]bool{
	".json": true, ".node": true, ".wasm": true,
	".css": true, ".scss": true, ".sass": true, ".less": true, ".styl": true,
	".svg": true, ".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".avif": true, ".ico": true, ".bmp": true,
	".woff": true, ".woff2": true, ".ttf": true, ".otf": true, ".eot": true,
	".mp3": true, ".mp4": true, ".webm": true, ".wav": true, ".ogg": true, ".pdf": true,
	".html": true, ".htm": true, ".md": true, ".mdx": true, ".vue": true, ".svelte": true, ".graphql": true, ".gql": true,
}

// RunsAsJS reports whether node runs the file p as JavaScript when a
// JS/TS import loads it, although its name does not make it JS/TS:
// require("./h.txt") runs h.txt, while an asset extension (jsAssetExts)
// is a bundler's to load as data. vouch imports follows such files, and
// repository facts read them, by this one rule.
func RunsAsJS(p string) bool {
	if l, ok := LangOf(p); ok && (l == JavaScript || l == TypeScript) {
		return false
	}
	return !jsAssetExts[strings.ToLower(path.Ext(p))]
}

// followJSTargets scans as JavaScript the files that JS/TS imports
// resolve to but that no JS/TS extension selected: node runs
// require("./helper.txt") (and a loader import "./x.data") as JavaScript,
// so their imports are the importer's dependencies too. It follows what
// those files import in turn, each file once (scanned holds the files
// already read as JS/TS, and grows), so loops end; the work is bounded by
// the files actually referenced. Type-only imports are erased and run
// nothing; asset extensions (jsAssetExts) are left to bundlers.
func followJSTargets(outs []fileOut, scanned map[string]bool, scan func(rel string) fileOut) []fileOut {
	var extra []fileOut
	visit := func(recs []Record) {
		for _, r := range recs {
			if r.Lang != JavaScript && r.Lang != TypeScript || r.Kind == KindTypeOnly || r.Resolution.Kind != Internal {
				continue
			}
			t := r.Resolution.Target
			if scanned[t] {
				continue
			}
			scanned[t] = true
			if !RunsAsJS(t) {
				continue
			}
			o := scan(t)
			o.path = t
			extra = append(extra, o)
		}
	}
	for i := range outs {
		visit(outs[i].records)
	}
	for i := 0; i < len(extra); i++ {
		visit(extra[i].records)
	}
	return extra
}

// langNames lists the selected languages for messages.
func langNames(want map[Lang]bool) string {
	var names []string
	for _, l := range Langs() {
		if want[l] {
			names = append(names, string(l))
		}
	}
	return strings.Join(names, ", ")
}

// ScanPath is Scan of a directory, or of one file: then only that file's
// imports are listed, resolved against the repository that holds it (the
// nearest parent directory with .git, else the working directory when it
// holds the file, else the file's directory). It returns the root used;
// record paths are relative to it.
func ScanPath(ctx context.Context, path string, opts Options) (*Result, string, error) {
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() {
		res, err := Scan(ctx, path, opts)
		return res, path, err
	}
	if !fi.Mode().IsRegular() {
		return nil, "", fmt.Errorf("%s is neither a directory nor a regular file", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", fmt.Errorf("resolving %s: %w", path, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	root := fileRoot(abs)
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return nil, "", fmt.Errorf("resolving %s: %w", path, err)
	}
	opts.Only = filepath.ToSlash(rel)
	res, err := Scan(ctx, root, opts)
	if err != nil {
		return nil, "", err
	}
	// Warnings about other files (a missed Python root, an unreadable
	// directory) are not about the file asked for.
	kept := res.Warnings[:0]
	for _, w := range res.Warnings {
		if w.File == opts.Only || w.File == "" {
			kept = append(kept, w)
		}
	}
	res.Warnings = kept
	return res, root, nil
}

// fileRoot is the repository root for a file at the absolute path abs.
func fileRoot(abs string) string {
	dir := filepath.Dir(abs)
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if wd, err := os.Getwd(); err == nil {
		if real, err := filepath.EvalSymlinks(wd); err == nil {
			wd = real
		}
		if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return wd
		}
	}
	return dir
}

// Scan walks root and returns every import in the selected languages,
// resolved.
func Scan(ctx context.Context, root string, opts Options) (*Result, error) {
	start := time.Now()
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", root, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s", ErrNotFound, root)
		}
		return nil, fmt.Errorf("reading %s: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", root)
	}
	// Symlink checks compare real paths, so the root must be one too.
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	want := map[Lang]bool{}
	for _, l := range opts.Langs {
		want[l] = true
	}
	if len(want) == 0 {
		for _, l := range Langs() {
			want[l] = true
		}
	}

	list, err := listFiles(ctx, abs, opts.Exclude, opts.Trusted)
	if err != nil {
		return nil, err
	}
	repo := &Repo{Root: abs, Files: make(map[string]bool, len(list.files)), Links: list.links}
	type source struct {
		rel  string
		lang Lang
	}
	var sources []source
	for _, f := range list.files {
		repo.Files[f] = true
		if l, ok := LangOf(f); ok && want[l] && (opts.Only == "" || f == opts.Only) {
			sources = append(sources, source{f, l})
		}
	}
	if opts.Only != "" && len(sources) == 0 {
		return nil, fmt.Errorf("%s is not a source file vouch reads (%s), or is excluded", opts.Only, langNames(want))
	}
	res := &Result{Warnings: list.warnings, Unignored: list.unignored}
	resolvers := map[Lang]resolver{}
	if want[Go] {
		r, w := newGoResolver(repo)
		resolvers[Go] = r
		res.Warnings = append(res.Warnings, w...)
	}
	if want[Python] {
		r, w := newPythonResolver(repo, opts.PythonRoots)
		resolvers[Python] = r
		res.Warnings = append(res.Warnings, w...)
	}
	if want[JavaScript] || want[TypeScript] || want[Rust] {
		others, w := otherResolvers(repo, want)
		for l, r := range others {
			resolvers[l] = r
		}
		res.Warnings = append(res.Warnings, w...)
	}

	c := &cache{}
	if !opts.NoCache && !opts.Fresh {
		c = loadCache(abs)
	}
	outs := make([]fileOut, len(sources))
	workers := opts.Workers
	var finished atomic.Int64
	stop := make(chan struct{})
	reported := make(chan struct{})
	if opts.Progress != nil {
		go func() {
			defer close(reported)
			tick := time.NewTicker(100 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					opts.Progress(int(finished.Load()), len(sources))
					return
				case <-tick.C:
					opts.Progress(int(finished.Load()), len(sources))
				}
			}
		}()
	} else {
		close(reported)
	}
	parallel.For(len(sources), workers, func(i int) {
		if ctx.Err() != nil {
			return
		}
		s := sources[i]
		outs[i] = scanFile(abs, s.rel, s.lang, opts.MaxFileSize, c, resolvers[s.lang], start)
		finished.Add(1)
	})
	close(stop)
	<-reported
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var extra []fileOut
	if opts.Only == "" && (want[JavaScript] || want[TypeScript]) {
		lang := JavaScript
		if !want[JavaScript] {
			lang = TypeScript
		}
		scanned := make(map[string]bool)
		for _, s := range sources {
			if s.lang == JavaScript || s.lang == TypeScript {
				scanned[s.rel] = true
			}
		}
		extra = followJSTargets(outs, scanned, func(rel string) fileOut {
			// Neither read from nor written to the cache: these files are
			// few, and a path cached under another language would make
			// the two entries evict each other run after run.
			return scanFile(abs, rel, lang, opts.MaxFileSize, &cache{}, resolvers[lang], start)
		})
		for _, o := range extra {
			sources = append(sources, source{o.path, lang})
		}
	}

	res.Stats.Files = len(sources)
	res.Files = make([]string, len(sources))
	for i, s := range sources {
		res.Files[i] = s.rel
	}
	slices.Sort(res.Files)
	res.Files = slices.Compact(res.Files)
	dirty := false
	var entries []*cacheEntry
	n := 0
	for i := range outs {
		n += len(outs[i].records)
	}
	res.Records = make([]Record, 0, n)
	for i := range outs {
		o := &outs[i]
		res.Records = append(res.Records, o.records...)
		res.Warnings = append(res.Warnings, o.warnings...)
		res.Stats.Bytes += o.bytes
		switch o.how {
		case 0:
			res.Stats.Extracted++
			dirty = true
		case 1:
			res.Stats.Cached++
		case 3:
			res.Stats.Skipped++
		}
		if o.entry != nil {
			entries = append(entries, o.entry)
		}
	}
	// Files deleted since the last run leave entries behind; rewriting
	// prunes them.
	if len(entries) != len(c.byPath) {
		dirty = true
	}
	for i := range extra {
		o := &extra[i]
		res.Records = append(res.Records, o.records...)
		res.Warnings = append(res.Warnings, o.warnings...)
		res.Stats.Bytes += o.bytes
		if o.how == 3 {
			res.Stats.Skipped++
		} else {
			res.Stats.Extracted++
		}
	}
	if !opts.NoCache && dirty && opts.Only == "" {
		if err := saveCache(abs, entries); err != nil {
			res.Warnings = append(res.Warnings, Warning{File: cacheDir(abs), Message: err.Error()})
		}
	}
	sortRecords(res.Records)
	if want[Python] {
		res.RootHints = pythonRootHints(res.Records, repo.Files)
		res.Warnings = append(res.Warnings, res.RootHints...)
	}
	res.Warnings = sortWarnings(res.Warnings)
	return res, nil
}

// scanFile extracts (or fetches from the cache) and resolves one file.
func scanFile(root, rel string, lang Lang, maxSize int64, c *cache, r resolver, start time.Time) fileOut {
	abs := filepath.Join(root, filepath.FromSlash(rel))
	skip := func(format string, args ...any) fileOut {
		return fileOut{how: 3, warnings: []Warning{{File: rel, Message: fmt.Sprintf(format, args...), Unread: true}}}
	}
	fi, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return skip("skipped: file vanished during the scan")
		}
		return skip("skipped: %v", err)
	}
	if fi.Size() > maxSize {
		return skip("skipped: %d bytes is over the %d-byte size limit", fi.Size(), maxSize)
	}
	mtime := fi.ModTime().UnixNano()
	ctime, haveCTime := fsstat.ChangeTime(fi)
	var out fileOut
	var entry *cacheEntry
	if e := c.byPath[rel]; e != nil && haveCTime && e.MTime != 0 && e.MTime == mtime && e.CTime == ctime && e.Size == fi.Size() && e.Lang == lang {
		entry, out.how = e, 1
	} else {
		data, err := os.ReadFile(abs)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return skip("skipped: file vanished during the scan")
			}
			return skip("skipped: %v", err)
		}
		if int64(len(data)) > maxSize {
			return skip("skipped: %d bytes is over the %d-byte size limit", len(data), maxSize)
		}
		if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
			return skip("skipped: binary file")
		}
		if why := encodingProblem(lang, data); why != "" {
			return skip("skipped: %s", why)
		}
		entry = &cacheEntry{fileResult: extractFile(lang, data)}
		entry.Path, entry.Lang, entry.Size = rel, lang, int64(len(data))
		if int64(len(data)) == fi.Size() && haveCTime && statTrustworthy(mtime, start) {
			entry.MTime, entry.CTime = mtime, ctime
		}
	}
	out.entry = entry
	out.bytes = entry.Size
	for _, se := range entry.Errors {
		out.warnings = append(out.warnings, Warning{File: rel, Line: se.Line, Message: "syntax error: " + se.Message, Unread: se.Stop})
	}
	if len(entry.Sites) > 0 {
		out.records = make([]Record, len(entry.Sites))
	}
	for i, s := range entry.Sites {
		rec := Record{
			File: rel, Line: s.Line, Column: s.Column, Lang: lang, Kind: s.Kind, Spec: s.Spec,
			Names: s.Names, Alias: s.Alias, Constraint: entry.Constraint, TypeChecking: s.TypeChecking,
		}
		if r != nil {
			rec.Resolution = r.resolve(rel, s)
		} else {
			rec.Resolution = Resolution{Kind: Unresolved, Reason: "no resolver for " + string(lang)}
		}
		out.records[i] = rec
	}
	return out
}

// statTrustworthy reports whether a file's mtime may later stand in for
// its content. A file modified in the same clock tick as the scan could
// change again without its mtime moving, so such "racy" entries are
// re-hashed next time (git's index has the same rule). Filesystems with
// whole-second timestamps need a wider margin.
func statTrustworthy(mtime int64, start time.Time) bool {
	limit := start.UnixNano()
	if mtime%int64(time.Second) == 0 {
		limit -= int64(2 * time.Second)
	}
	return mtime < limit
}

func sortRecords(rs []Record) {
	// Records arrive in file order and mostly in source order, so the check
	// usually saves the sort.
	if slices.IsSortedFunc(rs, compareRecords) {
		return
	}
	slices.SortStableFunc(rs, compareRecords)
}

// compareRecords orders by position, then form; it returns early because
// it runs hundreds of thousands of times on large repositories.
func compareRecords(a, b Record) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if a.Line != b.Line {
		return cmp.Compare(a.Line, b.Line)
	}
	if a.Column != b.Column {
		return cmp.Compare(a.Column, b.Column)
	}
	if c := strings.Compare(string(a.Kind), string(b.Kind)); c != 0 {
		return c
	}
	if c := strings.Compare(a.Spec, b.Spec); c != 0 {
		return c
	}
	return slices.Compare(a.Names, b.Names)
}

func sortWarnings(ws []Warning) []Warning {
	slices.SortFunc(ws, func(a, b Warning) int {
		return cmp.Or(
			strings.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			strings.Compare(a.Message, b.Message),
		)
	})
	// A file listed twice (git reports unmerged paths per stage) must not
	// repeat its warnings.
	return slices.Compact(ws)
}
