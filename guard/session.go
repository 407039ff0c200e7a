package guard

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

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

// Session is a locked session log. Close releases the lock.
type Session struct {
	f       *os.File
	records []sessionRecord
	torn    bool
}

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
	root, name := s.sessionFile(id)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("session store: %w", err)
	}
	f, err := safeopen.Append(root, name, 0o644)
	if err != nil {
		return nil, fmt.Errorf("session store: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("session store: lock: %w", err)
	}
	sess := &Session{f: f}
	if err := sess.read(); err != nil {
		sess.Close()
		return nil, err
	}
	return sess, nil
}

func (s *Session) read() error {
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("session store: %w", err)
	}
	data, err := io.ReadAll(s.f)
	if err != nil {
		return fmt.Errorf("session store: %w", err)
	}
	s.torn = len(data) > 0 && data[len(data)-1] != '\n'
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		// A torn or foreign line is skipped: it was never a complete
		// record, so it was never counted.
		if r, ok := decodeRecord(sc.Bytes()); ok && (r.Kind == "attempt" || r.Kind == "exec") {
			s.records = append(s.records, r)
		}
	}
	return nil
}

// decodeRecord reads one log line as encoding/json would decode it into a
// sessionRecord (a missing or null field is its zero value, a field of
// the wrong type rejects the line), in one pass and without reflection:
// every hook process reads the whole log, and encoding/json made a long
// session cost more than the decision itself. Keys match exactly, as
// vouch writes them; for a repeated key the last one wins, as in
// encoding/json.
func decodeRecord(line []byte) (sessionRecord, bool) {
	var r sessionRecord
	if !gjson.ValidBytes(line) {
		return r, false
	}
	v := gjson.ParseBytes(line)
	if !v.IsObject() {
		return r, false
	}
	ok := true
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
	return r, ok
}

// Counters returns the session's counts as seen by a call of tool.
func (s *Session) Counters(tool string) Counters {
	var c Counters
	for _, r := range s.records {
		switch r.Kind {
		case "attempt":
			c.Attempts++
		case "exec":
			c.Execs++
			if r.Tool == tool {
				c.ToolCalls++
			}
			if r.OK {
				c.ConsecutiveFailures = 0
			} else {
				c.ConsecutiveFailures++
			}
		}
	}
	return c
}

// Append adds a record. A torn last line from a crashed writer is ended
// first so the new record stands on its own line.
func (s *Session) Append(r sessionRecord) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if s.torn {
		line = append([]byte{'\n'}, line...)
		s.torn = false
	}
	line = append(line, '\n')
	if _, err := s.f.Write(line); err != nil {
		return fmt.Errorf("session store: %w", err)
	}
	s.records = append(s.records, r)
	return nil
}

// Close releases the lock.
func (s *Session) Close() error {
	return s.f.Close()
}
