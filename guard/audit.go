package guard

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/vouch-dev/vouch/internal/safeopen"
)

// AuditRecord is one line of .vouch/guard/audit.jsonl: one decision.
type AuditRecord struct {
	Time     string `json:"time"`
	Session  string `json:"session"`
	CallID   string `json:"call_id,omitempty"`
	Harness  string `json:"harness"`
	Event    string `json:"event,omitempty"`
	Phase    Phase  `json:"phase,omitempty"`
	Tool     string `json:"tool,omitempty"`
	Cwd      string `json:"cwd,omitempty"`
	Decision string `json:"decision"`
	// Rule and Reason name what decided a deny or ask.
	Rule   string `json:"rule,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Mode is the policy's default mode.
	Mode         string    `json:"mode,omitempty"`
	PolicySHA256 string    `json:"policy_sha256,omitempty"`
	DurationUS   int64     `json:"duration_us"`
	Counters     Counters  `json:"counters"`
	Findings     []Finding `json:"findings"`
	// Args and Result are redacted and size-capped.
	Args     any            `json:"args,omitempty"`
	Result   any            `json:"result,omitempty"`
	Failed   bool           `json:"failed,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
	// FilesWritten lists, for a post event, each file the call wrote and
	// its hash after the write.
	FilesWritten []FileHash `json:"files_written,omitempty"`
	// Error is set when the decision is a fail-closed deny.
	Error string `json:"error,omitempty"`
}

// FileHash is a written file and the sha256 of its content, or Missing
// when it no longer exists. A file that exists but was not hashed has no
// SHA256 and a Reason saying why (one of the Unhashed* values), so the
// audit still lists every file the call wrote.
type FileHash struct {
	Path    string `json:"path"`
	SHA256  string `json:"sha256,omitempty"`
	Missing bool   `json:"missing,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// Why a written file has no hash (FileHash.Reason).
const (
	// UnhashedDeadline: the hook's time for hashing ran out first.
	UnhashedDeadline = "deadline"
	// UnhashedTooLarge: the file is over maxHashBytes.
	UnhashedTooLarge = "too_large"
	// UnhashedNotRegular: a FIFO, device, directory or socket.
	UnhashedNotRegular = "not_regular"
	// UnhashedUnreadable: it could not be opened or read.
	UnhashedUnreadable = "unreadable"
)

// maxHashBytes bounds the files hashed for the audit trail.
const maxHashBytes = 256 << 20

// hashChunk is how much is hashed between looks at the deadline.
const hashChunk = 1 << 20

// HashFiles hashes each path until ctx ends: the files not hashed by
// then are listed with Reason UnhashedDeadline, so a call that wrote
// many large files cannot hold the hook past its deadline (the harness
// would kill it before the audit line is written).
func HashFiles(ctx context.Context, paths []string) []FileHash {
	out := make([]FileHash, 0, len(paths))
	for _, p := range paths {
		out = append(out, hashFile(ctx, p))
	}
	return out
}

// hashFile hashes one written file for HashFiles.
func hashFile(ctx context.Context, p string) FileHash {
	fh := FileHash{Path: p}
	if ctx.Err() != nil {
		fh.Reason = UnhashedDeadline
		return fh
	}
	// Opened without blocking: a FIFO where a file was written must not
	// hang the hook. Only regular files are hashed.
	f, st, err := safeopen.Open(p, safeopen.Options{})
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fh.Missing = true
		return fh
	case err != nil:
		fh.Reason = UnhashedUnreadable
		if st, lerr := os.Stat(p); lerr == nil && !st.Mode().IsRegular() {
			fh.Reason = UnhashedNotRegular
		}
		return fh
	}
	defer f.Close()
	if st.Size() > maxHashBytes {
		fh.Reason = UnhashedTooLarge
		return fh
	}
	h := sha256.New()
	// Bounded by the size cap too: a file that grows while it is hashed
	// is not read past it.
	r := io.LimitReader(f, maxHashBytes+1)
	var n int64
	for {
		if ctx.Err() != nil {
			fh.Reason = UnhashedDeadline
			return fh
		}
		k, err := io.CopyN(h, r, hashChunk)
		n += k
		if err == io.EOF {
			break
		}
		if err != nil {
			fh.Reason = UnhashedUnreadable
			return fh
		}
	}
	if n > maxHashBytes {
		fh.Reason = UnhashedTooLarge
		return fh
	}
	fh.SHA256 = hex.EncodeToString(h.Sum(nil))
	return fh
}

// NewAuditRecord describes a decision for the audit log.
func NewAuditRecord(now time.Time, c *Call, p *Policy, d *Decision, cnt Counters, took time.Duration) AuditRecord {
	r := AuditRecord{
		Time:       now.UTC().Format(time.RFC3339Nano),
		Decision:   d.Decision,
		Rule:       d.Rule(),
		Reason:     d.Reason(),
		DurationUS: took.Microseconds(),
		Counters:   cnt,
		Findings:   d.Findings,
	}
	if c != nil {
		r.Session, r.CallID, r.Harness, r.Event, r.Phase, r.Tool, r.Cwd = c.SessionID, c.CallID, c.Harness, c.Event, c.Phase, c.Tool, c.Cwd
		r.Args = RedactValue(c.Args)
		if c.Result != nil {
			r.Result = RedactValue(c.Result)
		}
		r.Failed = c.Failed
		if len(c.Metadata) > 0 {
			r.Metadata, _ = RedactValue(c.Metadata).(map[string]any)
		}
	}
	if p != nil {
		r.Mode, r.PolicySHA256 = p.Mode, p.SHA256
	}
	return r
}

// auditName is the audit log's path below the repository root.
var auditName = filepath.Join(".vouch", "guard", "audit.jsonl")

// AppendAudit appends one record to the audit log of the repository at
// root (.vouch/guard/audit.jsonl) under an exclusive lock, so lines from
// parallel hooks never interleave. The log is opened confined to root and
// must be a regular file of its own below real directories: a symbolic or
// hard link, a FIFO or a device planted there (an agent can run `ln -s
// ~/.bashrc .vouch/guard/audit.jsonl`) is an error, so the hook denies
// rather than write into another file.
func AppendAudit(root string, r AuditRecord) error {
	f, err := openAudit(context.Background(), root)
	if err != nil {
		return err
	}
	defer f.Close()
	return writeAudit(f, r)
}

// openAudit opens the audit log under root for appending and locks it,
// waiting for the lock until ctx ends. The caller closes it.
func openAudit(ctx context.Context, root string) (*os.File, error) {
	if root == "" {
		root = "."
	}
	f, err := safeopen.Append(root, auditName, 0o644)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	if err := lockFile(ctx, f); err != nil {
		f.Close()
		return nil, fmt.Errorf("audit: lock: %w", err)
	}
	return f, nil
}

// writeAudit appends r to f, an audit log openAudit opened.
func writeAudit(f *os.File, r AuditRecord) error {
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	line = append(line, '\n')
	if _, err := f.Write(line); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
