package guard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/vouch-dev/vouch/internal/safeopen"
)

// Store is the session store: one append-only log per session under Dir,
// each guarded by an exclusive file lock while a hook reads the counts,
// decides and appends its record.
//
// Why a log and a lock rather than an embedded database: hook processes
// are short-lived and run in parallel, one per tool call. An append-only
// file whose records are only ever added under flock(2) cannot lose or
// double a count (each process sees every earlier record before it adds
// its own), and a crash mid-write leaves at most a torn last line, which
// readers skip and the next writer terminates. The kernel drops the lock
// when a process dies, so a crash never wedges the session. No dependency
// is needed, and the log doubles as a readable history.
//
// The logs are opened confined below Root (see safeopen.Append): a
// symbolic or hard link, FIFO or device planted where a log or one of its
// directories should be is an error, never followed.
type Store struct {
	// Root is the repository root; Dir the logs' directory below it
	// (.vouch/guard/sessions). With Root "", Dir is the root itself.
	Root, Dir string
}

// sessionRecord is one line of a session log.
type sessionRecord struct {
	// Kind is "attempt" (a pre decision) or "exec" (a post event).
	Kind string `json:"kind"`
	Tool string `json:"tool"`
	// OK is false for an exec whose tool failed.
	OK bool `json:"ok,omitempty"`
	// Decision is an attempt's decision.
	Decision string `json:"decision,omitempty"`
}

// writingRecord is a record of a call that wrote files: Writes are the
// canonical paths, for the session's written set (see written). They
// are kept out of sessionRecord, which a hook holds up to
// checkpointEvery of.
type writingRecord struct {
	sessionRecord
	Writes []string `json:"writes,omitempty"`
}

// Session is a locked session log. Close releases the lock.
type Session struct {
	f *os.File
	// root and name locate the log; the session's written set (see
	// written) is beside it, read and appended to only under f's lock.
	root, name string
	ws         *writtenSet
	wf         *os.File
	// base is the tally at the log's last checkpoint; records are the
	// records after it, in order.
	base    tally
	records []sessionRecord
	// pending are the writes of the records after the checkpoint, each
	// a JSON list of strings, decoded only when the set is needed.
	pending []string
	torn    bool
}

// tally is a session's counts up to a point of its log. A checkpoint
// line ("kind":"snapshot") carries one, so that a hook reads the log's
// tail, not its whole history: a session thousands of calls long would
// otherwise make every later call slower.
type tally struct {
	Attempts int `json:"attempts"`
	Execs    int `json:"execs"`
	// Failures counts the execs that failed since the last that did not.
	Failures int `json:"consecutive_failures"`
	// Tools counts execs per tool.
	Tools map[string]int `json:"tools,omitempty"`
}

// snapshotRecord is a checkpoint line.
type snapshotRecord struct {
	Kind string `json:"kind"`
	tally
}

const (
	// checkpointEvery is how many records a writer lets pass before it
	// appends a checkpoint, so a reader decodes at most about this many.
	checkpointEvery = 128
	// tailWindow is how much of a log's end a reader reads first; it
	// holds checkpointEvery records of any realistic tool name.
	tailWindow = 16 << 10
	// maxTailWindow bounds the search for a checkpoint. vouch writes one
	// every checkpointEvery records, so a log whose last maxTailWindow
	// bytes hold none was not written by vouch alone.
	maxTailWindow = 16 << 20
)

// sessionFile names a session's log by a hash of its id: ids come from
// the agent and must not choose a path. It returns the root the log is
// confined to and its name below it.
func (s *Store) sessionFile(id string) (root, name string) {
	sum := sha256.Sum256([]byte(id))
	name = hex.EncodeToString(sum[:16]) + ".log"
	if s.Root == "" {
		return s.Dir, name
	}
	return s.Root, filepath.Join(s.Dir, name)
}

// Open locks and reads a session's log, creating it if needed.
func (s *Store) Open(id string) (*Session, error) {
	return s.OpenContext(context.Background(), id)
}

// OpenContext is Open waiting for the lock only until ctx ends.
func (s *Store) OpenContext(ctx context.Context, id string) (*Session, error) {
	root, name := s.sessionFile(id)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("session store: %w", err)
	}
	f, err := safeopen.Append(root, name, 0o644)
	if err != nil {
		return nil, fmt.Errorf("session store: %w", err)
	}
	if err := lockFile(ctx, f); err != nil {
		f.Close()
		return nil, fmt.Errorf("session store: lock: %w", err)
	}
	sess := &Session{f: f, root: root, name: name}
	if err := sess.read(); err != nil {
		sess.Close()
		return nil, err
	}
	return sess, nil
}

// read loads the counts: the last checkpoint in the log and the records
// after it. It reads a window at the log's end and widens it until the
// window holds a checkpoint or the whole log.
func (s *Session) read() error {
	fi, err := s.f.Stat()
	if err != nil {
		return fmt.Errorf("session store: %w", err)
	}
	size := fi.Size()
	s.torn = false
	if size == 0 {
		return nil
	}
	for window := int64(tailWindow); ; window *= 4 {
		start := max(size-window, 0)
		data := make([]byte, size-start)
		if _, err := s.f.ReadAt(data, start); err != nil {
			return fmt.Errorf("session store: %w", err)
		}
		s.torn = data[len(data)-1] != '\n'
		if start > 0 {
			// The window's first line is most likely cut.
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				data = nil
			} else {
				data = data[i+1:]
			}
		}
		if s.load(data) || start == 0 {
			return nil
		}
		if window >= maxTailWindow {
			return fmt.Errorf("session store: %s holds no checkpoint in its last %d MiB, so it was not written by vouch alone; remove it to start the session's counts afresh", s.f.Name(), maxTailWindow>>20)
		}
	}
}

// load sets the counts from whole lines of a log: the last checkpoint
// among them and the records after it, or every record if there is no
// checkpoint. It reports whether it found a checkpoint.
func (s *Session) load(data []byte) bool {
	lines := bytes.SplitAfter(data, []byte{'\n'})
	from, found := 0, false
	s.base = tally{}
	for i := len(lines) - 1; i >= 0; i-- {
		if t, ok := decodeSnapshot(lines[i]); ok {
			s.base, from, found = t, i+1, true
			break
		}
	}
	s.records, s.pending = s.records[:0], s.pending[:0]
	for _, line := range lines[from:] {
		// A torn or foreign line is skipped: it was never a complete
		// record, so it was never counted.
		if r, writes, ok := decodeRecord(bytes.TrimSuffix(line, []byte{'\n'})); ok && (r.Kind == "attempt" || r.Kind == "exec") {
			s.records = append(s.records, r)
			if writes != "" {
				s.pending = append(s.pending, writes)
			}
		}
	}
	return found
}

// decodeSnapshot reads a checkpoint line. Any other line, or one whose
// counts are not non-negative integers, is not a checkpoint.
func decodeSnapshot(line []byte) (tally, bool) {
	var t tally
	line = bytes.TrimSpace(line)
	if !bytes.Contains(line, []byte(`"snapshot"`)) || !gjson.ValidBytes(line) {
		return t, false
	}
	v := gjson.ParseBytes(line)
	if !v.IsObject() || v.Get("kind").String() != "snapshot" || v.Get("kind").Type != gjson.String {
		return t, false
	}
	ok := true
	count := func(x gjson.Result) int {
		if x.Type != gjson.Number || x.Num < 0 || x.Num != float64(int(x.Num)) || x.Num > 1<<52 {
			ok = false
			return 0
		}
		return int(x.Num)
	}
	t.Attempts = count(v.Get("attempts"))
	t.Execs = count(v.Get("execs"))
	t.Failures = count(v.Get("consecutive_failures"))
	if tools := v.Get("tools"); tools.Exists() {
		if !tools.IsObject() {
			return tally{}, false
		}
		t.Tools = map[string]int{}
		tools.ForEach(func(k, x gjson.Result) bool {
			t.Tools[k.String()] = count(x)
			return ok
		})
	}
	if !ok {
		return tally{}, false
	}
	return t, true
}

// decodeRecord reads one log line as encoding/json would decode it into a
// sessionRecord (a missing or null field is its zero value, a field of
// the wrong type rejects the line), in one pass and without reflection:
// every hook process reads the whole log, and encoding/json made a long
// session cost more than the decision itself. Keys match exactly, as
// vouch writes them; for a repeated key the last one wins, as in
// encoding/json.
func decodeRecord(line []byte) (r sessionRecord, writes string, ok bool) {
	if !gjson.ValidBytes(line) {
		return r, "", false
	}
	v := gjson.ParseBytes(line)
	if !v.IsObject() {
		return r, "", false
	}
	ok = true
	str := func(x gjson.Result, dst *string) {
		switch x.Type {
		case gjson.Null:
			*dst = ""
		case gjson.String:
			*dst = x.Str
		default:
			ok = false
		}
	}
	v.ForEach(func(k, x gjson.Result) bool {
		switch k.Str {
		case "kind":
			str(x, &r.Kind)
		case "tool":
			str(x, &r.Tool)
		case "decision":
			str(x, &r.Decision)
		case "writes":
			// Checked here, decoded only when a call runs a script
			// (writePaths).
			writes = ""
			switch {
			case x.Type == gjson.Null:
			case x.IsArray():
				x.ForEach(func(_, e gjson.Result) bool {
					ok = e.Type == gjson.String || e.Type == gjson.Null
					return ok
				})
				writes = x.Raw
			default:
				ok = false
			}
		case "ok":
			switch x.Type {
			case gjson.Null, gjson.False:
				r.OK = false
			case gjson.True:
				r.OK = true
			default:
				ok = false
			}
		}
		return ok
	})
	return r, writes, ok
}

// Counters returns the session's counts as seen by a call of tool.
func (s *Session) Counters(tool string) Counters {
	t := s.tally()
	return Counters{Attempts: t.Attempts, Execs: t.Execs, ToolCalls: t.Tools[tool], ConsecutiveFailures: t.Failures}
}

// tally adds the records after the checkpoint to its counts.
func (s *Session) tally() tally {
	t := s.base
	t.Tools = make(map[string]int, len(s.base.Tools)+1)
	for k, v := range s.base.Tools {
		t.Tools[k] = v
	}
	for _, r := range s.records {
		switch r.Kind {
		case "attempt":
			t.Attempts++
		case "exec":
			t.Execs++
			t.Tools[r.Tool]++
			if r.OK {
				t.Failures = 0
			} else {
				t.Failures++
			}
		}
	}
	return t
}

// Append adds a record, followed by a checkpoint when checkpointEvery
// records have passed since the last one; both go in one write, so a
// crash leaves the record whole or torn, never counted twice. A torn
// last line from a crashed writer is ended first so the new record
// stands on its own line.
func (s *Session) Append(r sessionRecord) error {
	return s.appendWrites(r, nil)
}

// appendWrites is Append for a call that wrote the files writes.
func (s *Session) appendWrites(r sessionRecord, writes []string) error {
	line, err := json.Marshal(writingRecord{r, writes})
	if err != nil {
		return err
	}
	if s.torn {
		line = append([]byte{'\n'}, line...)
	}
	line = append(line, '\n')
	records := append(s.records, r)
	pending := s.pending
	if len(writes) > 0 {
		list, err := json.Marshal(writes)
		if err != nil {
			return err
		}
		pending = append(pending, string(list))
	}
	base := s.base
	if len(records) >= checkpointEvery {
		// The writes of the records the checkpoint covers go to the
		// written set's file first: a crash between the two leaves
		// them in both, never in neither.
		if err := s.flushWrites(pending); err != nil {
			return err
		}
		pending = pending[:0]
		base = (&Session{base: s.base, records: records}).tally()
		snap, err := json.Marshal(snapshotRecord{Kind: "snapshot", tally: base})
		if err != nil {
			return err
		}
		line = append(append(line, snap...), '\n')
		records = records[:0]
	}
	if _, err := s.f.Write(line); err != nil {
		return fmt.Errorf("session store: %w", err)
	}
	s.torn = false
	s.base, s.records, s.pending = base, records, pending
	return nil
}

// Close releases the lock.
func (s *Session) Close() error {
	if s.wf != nil {
		s.wf.Close()
	}
	return s.f.Close()
}

// The written set: the files the session's calls wrote, so that a later
// call running one of them as a script has it read (shellfacts'
// ScriptFile). A call's record carries the paths it wrote (writes); at
// each checkpoint those of the records it covers move to a file beside
// the log, <hash>.writes, one JSON string per line, each path once. So a
// call that writes files costs a few bytes more in its record, the file
// is read and written once per checkpointEvery records, and a call reads
// it only when it runs a script: the set is that file and the writes of
// the records after the last checkpoint, which every hook reads anyway.
const (
	// maxWrittenPaths bounds the set; past it every script a session
	// runs is read (the set can no longer tell its own files from the
	// project's, and reading more only asks more).
	maxWrittenPaths = 4096
	// maxWrittenBytes bounds the file holding the set; a longer one
	// counts as past the bound.
	maxWrittenBytes = 4 << 20
	// maxRecordWrites bounds the paths one record carries, so records
	// stay short for the tail a hook reads; a call writing more adds
	// them to the set's file directly.
	maxRecordWrites = 32
	// maxScriptBytes bounds the script read: a longer one is code that
	// is not known.
	maxScriptBytes = 256 << 10
)

// writtenSet is a session's written set.
type writtenSet struct {
	paths map[string]bool
	// all is set past the bound, or when a line of the set's file is
	// not a path (torn by a crash, or not vouch's):
	// every script run is then read, failing closed.
	all bool
	// torn is set when the set's file does not end in a newline.
	torn bool
}

// writePaths decodes a record's writes (decodeRecord checked that they
// are a list of strings).
func writePaths(list string) []string {
	var paths []string
	gjson.Parse(list).ForEach(func(_, x gjson.Result) bool {
		paths = append(paths, x.Str)
		return true
	})
	return paths
}

// stored reads the set's file, once.
func (s *Session) stored() (*writtenSet, error) {
	if s.ws != nil {
		return s.ws, nil
	}
	f, err := safeopen.Append(s.root, strings.TrimSuffix(s.name, ".log")+".writes", 0o644)
	if err != nil {
		return nil, fmt.Errorf("session store: %w", err)
	}
	s.wf = f
	ws := &writtenSet{paths: map[string]bool{}}
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("session store: %w", err)
	}
	switch size := fi.Size(); {
	case size > maxWrittenBytes:
		ws.all = true
	case size > 0:
		data := make([]byte, size)
		if _, err := f.ReadAt(data, 0); err != nil {
			return nil, fmt.Errorf("session store: %w", err)
		}
		ws.torn = data[len(data)-1] != '\n'
		for line := range bytes.SplitSeq(data, []byte{'\n'}) {
			if len(line) == 0 {
				continue
			}
			v := gjson.ParseBytes(line)
			if v.Type != gjson.String || !gjson.ValidBytes(line) {
				ws.all = true
				continue
			}
			ws.paths[v.Str] = true
		}
		ws.all = ws.all || len(ws.paths) > maxWrittenPaths
	}
	s.ws = ws
	return ws, nil
}

// written is the session's written set: the set's file and the writes
// of the records after the last checkpoint.
func (s *Session) written() (*writtenSet, error) {
	st, err := s.stored()
	if err != nil {
		return nil, err
	}
	ws := &writtenSet{paths: maps.Clone(st.paths), all: st.all}
	for _, list := range s.pending {
		for _, p := range writePaths(list) {
			ws.paths[p] = true
		}
	}
	ws.all = ws.all || len(ws.paths) > maxWrittenPaths
	return ws, nil
}

// flushWrites adds the writes of records, pending, to the set's file.
func (s *Session) flushWrites(pending []string) error {
	var paths []string
	for _, list := range pending {
		paths = append(paths, writePaths(list)...)
	}
	if len(paths) == 0 {
		return nil
	}
	return s.addWritten(paths, false)
}

// addWritten adds paths to the set's file; all marks the set as past
// its bound.
func (s *Session) addWritten(paths []string, all bool) error {
	ws, err := s.stored()
	if err != nil || ws.all {
		return err
	}
	var b []byte
	if ws.torn {
		b = append(b, '\n')
	}
	n := len(b)
	for _, p := range paths {
		if ws.paths[p] {
			continue
		}
		if len(ws.paths) >= maxWrittenPaths {
			all = true
			break
		}
		q, err := json.Marshal(p)
		if err != nil {
			return err
		}
		b = append(append(b, q...), '\n')
		ws.paths[p] = true
	}
	if all {
		// A line that is not a path marks the set as past its bound
		// for every later reader.
		b = append(b, `{"all":true}`+"\n"...)
		ws.all = true
	}
	if len(b) == n {
		return nil
	}
	if _, err := s.wf.Write(b); err != nil {
		return fmt.Errorf("session store: %w", err)
	}
	ws.torn = false
	return nil
}

// wants reports whether any of paths, script files a call runs, is to be
// read: the session wrote it, or the set is past its bound.
func (ws *writtenSet) wants(paths []string) bool {
	if ws.all {
		return true
	}
	for _, p := range paths {
		if ws.paths[p] {
			return true
		}
	}
	return false
}

// scriptFile is shellfacts' ScriptFile for the session: it reads the
// script files the session wrote (all of them past the bound), without
// blocking and only as regular files. A file that is gone is not read
// (running it fails); one that cannot be read is an error, so its code
// is unknown.
func (ws *writtenSet) scriptFile(p string) (string, bool, error) {
	if !ws.all && !ws.paths[p] {
		return "", false, nil
	}
	f, err := safeopen.Read(p, safeopen.Options{MaxBytes: maxScriptBytes})
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", true, fmt.Errorf("a file the session wrote: %w", err)
	}
	return string(f.Data), true, nil
}
