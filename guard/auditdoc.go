package guard

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/vouch-dev/vouch/canonpath"
	"github.com/vouch-dev/vouch/internal/safeopen"
)

// AuditDoc is the document rulespec claims with `from: audit` select
// from: the tool calls of one session, or of every session in the log, as
// vouch guard recorded them.
type AuditDoc struct {
	// Session is the session asked for; "" when the document covers every
	// session in the log.
	Session string `json:"session"`
	// Sessions are the sessions the document covers, sorted.
	Sessions []string `json:"sessions"`
	// Calls are the sessions' decisions in log order.
	Calls []AuditCall `json:"calls"`
	// Tools are the tools that ran (post events), sorted and unique.
	Tools []string `json:"tools"`
	// Denied are the tools of denied pre calls, sorted and unique.
	Denied []string `json:"denied"`
	// FilesWritten are the paths post events recorded, relative to the
	// repository root when inside it, sorted and unique; Files the same
	// with the sha256 each had after its last write.
	FilesWritten []string   `json:"files_written"`
	Files        []FileHash `json:"files"`
}

// AuditCall is one recorded decision.
type AuditCall struct {
	Tool     string `json:"tool"`
	Phase    Phase  `json:"phase"`
	Decision string `json:"decision"`
	Rule     string `json:"rule,omitempty"`
	CallID   string `json:"call_id,omitempty"`
}

// DefaultMaxAuditBytes bounds the audit log a `from: audit` claim reads.
// It is larger than the envelope's limit because the log accumulates every
// session's records (a few kilobytes per tool call) until it is removed,
// and it is read as a stream; a larger log is refused (exit 2), never read
// in part.
const DefaultMaxAuditBytes = 256 << 20

// maxAuditLine bounds one record, as ReadAudit does: the guard caps each
// record's arguments and result, so only a forged log has longer lines.
const maxAuditLine = 64 << 20

// AuditDocOptions say which records of the audit log the document holds.
type AuditDocOptions struct {
	// Session is the session to read. "" reads every session in the log:
	// anyone who can run vouch guard can append records, so picking one
	// session by position (the last) would let an agent append a clean
	// session and have it checked instead of its own, while records
	// appended to the union can only add calls and files to it.
	Session string
	// MaxBytes caps the log's size; zero or less is DefaultMaxAuditBytes.
	MaxBytes int64
	// MaxElements caps each array of the document (sessions, calls,
	// tools, denied, files), counted as records arrive so a huge log stops
	// early; zero or less is no cap.
	MaxElements int
}

// ReadAuditDocument builds the audit document from the audit log of the
// repository at root (.vouch/guard/audit.jsonl) and returns it as JSON.
// The log is written by anything that can run vouch guard, the agent
// included, so it is read as hostile input: opened confined to root
// without following links or blocking (safeopen.OpenOwn), size-capped, and
// streamed. A missing log, a log with no records, or a session with no
// records is an error rather than an empty document, which would pass
// every rule that bounds what the agent did.
func ReadAuditDocument(root string, opts AuditDocOptions) ([]byte, error) {
	if root == "" {
		root = "."
	}
	path := AuditPath(root)
	f, st, err := safeopen.OpenOwn(root, auditName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("the rulespec has claims from: audit, but there is no guard audit log %s: "+
			"run the agent with vouch guard as its PreToolUse and PostToolUse hook (vouch init --guard) so its tool calls are recorded, "+
			"or remove the from: audit claims; a missing log is refused, not read as a session that wrote nothing", path)
	}
	if errors.Is(err, safeopen.ErrNotRegular) {
		return nil, fmt.Errorf("audit log: %w; remove it and let vouch guard write the log again", err)
	}
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	defer f.Close()
	max := opts.MaxBytes
	if max <= 0 {
		max = DefaultMaxAuditBytes
	}
	if st.Size() > max {
		return nil, fmt.Errorf("audit log %s holds %d bytes, more than the %d vouch reads: "+
			"move it aside (it holds every session since it was created) and let the guard start a new one", path, st.Size(), max)
	}
	doc, err := BuildAuditDocument(&capReader{r: f, left: max}, root, opts)
	if err != nil {
		return nil, fmt.Errorf("audit log %s: %w", path, err)
	}
	return json.Marshal(doc)
}

// errAuditGrew: the log grew past the cap while it was read.
var errAuditGrew = errors.New("the log grew past its size limit while it was read; run again when the agent has stopped")

// capReader reads at most left bytes and fails, rather than stopping
// quietly, when there is more: a log cut at the cap would drop records.
type capReader struct {
	r    io.Reader
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, _ := c.r.Read(one[:]); n > 0 {
			return 0, errAuditGrew
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// BuildAuditDocument builds the audit document from an audit log read
// from r, one record at a time, keeping only the chosen session's calls
// and files. Lines that do not parse (a torn last line after a crash) are
// skipped, as ReadAudit does.
func BuildAuditDocument(r io.Reader, root string, opts AuditDocOptions) (*AuditDoc, error) {
	b := newAuditBuilder(root, opts)
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for n := 1; ; n++ {
		var err error
		line, err = readLine(br, line[:0])
		if len(line) > 0 {
			if aerr := b.add(line); aerr != nil {
				return nil, fmt.Errorf("line %d: %w", n, aerr)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
	}
	return b.finish()
}

// readLine appends one line, without its newline, to buf (reused from
// line to line, so a log of long records is not reallocated for each),
// refusing one longer than maxAuditLine.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > maxAuditLine {
			return nil, fmt.Errorf("a record longer than %d bytes; vouch guard never writes one, so the log is not its own", maxAuditLine)
		}
		buf = append(buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(buf, "\r\n"), err
	}
}

// auditLine is what the document reads of one record; the arguments and
// results the guard recorded are skipped without being kept.
type auditLine struct {
	Session  string `json:"session"`
	CallID   string `json:"call_id"`
	Phase    Phase  `json:"phase"`
	Tool     string `json:"tool"`
	Decision string `json:"decision"`
	Rule     string `json:"rule"`
	// FilesWritten is decoded element by element (addFiles), so a record
	// listing millions of files is refused as soon as it passes the
	// element cap instead of after it was decoded whole.
	FilesWritten json.RawMessage `json:"files_written"`
}

// auditBuilder accumulates the document of the chosen session.
type auditBuilder struct {
	opts     AuditDocOptions
	absRoot  string
	doc      *AuditDoc
	records  int
	sessions map[string]bool
	last     map[string]FileHash
	tools    map[string]bool
	denied   map[string]bool
}

func newAuditBuilder(root string, opts AuditDocOptions) *auditBuilder {
	absRoot, _ := filepath.Abs(root)
	if c, err := canonpath.Canonical(absRoot, "/", ""); err == nil {
		absRoot = c
	}
	return &auditBuilder{
		opts: opts, absRoot: absRoot,
		doc:      &AuditDoc{Session: opts.Session, Sessions: []string{}, Calls: []AuditCall{}, Tools: []string{}, Denied: []string{}, FilesWritten: []string{}, Files: []FileHash{}},
		sessions: map[string]bool{}, last: map[string]FileHash{}, tools: map[string]bool{}, denied: map[string]bool{},
	}
}

// add takes one line of the log. An error is fatal: the document would
// exceed the element cap.
func (b *auditBuilder) add(line []byte) error {
	var r auditLine
	if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &r) != nil {
		return nil
	}
	if b.opts.Session != "" && r.Session != b.opts.Session {
		return nil
	}
	b.records++
	// Every set that grows per record is bounded, not only the arrays a
	// claim is likely to select: a forged log of millions of one-line
	// records for distinct sessions would otherwise build a map of them
	// all (gigabytes for a log under the size cap) before any claim is
	// evaluated.
	b.sessions[r.Session] = true
	if err := b.bound(len(b.sessions), "sessions"); err != nil {
		return err
	}
	if r.Tool == "" {
		return nil
	}
	b.doc.Calls = append(b.doc.Calls, AuditCall{Tool: r.Tool, Phase: r.Phase, Decision: r.Decision, Rule: r.Rule, CallID: r.CallID})
	if err := b.bound(len(b.doc.Calls), "calls"); err != nil {
		return err
	}
	if r.Phase == Post {
		b.tools[r.Tool] = true
		if err := b.bound(len(b.tools), "tools"); err != nil {
			return err
		}
	} else if r.Decision == Deny {
		b.denied[r.Tool] = true
		if err := b.bound(len(b.denied), "denied tools"); err != nil {
			return err
		}
	}
	return b.addFiles(r.FilesWritten)
}

// addFiles decodes a record's files_written one element at a time, so
// the element bound stops a huge list early.
func (b *auditBuilder) addFiles(raw json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil // null, or not a list: nothing the guard wrote
	}
	for dec.More() {
		var fh FileHash
		if dec.Decode(&fh) != nil {
			return nil
		}
		p := fh.Path
		if rel, err := filepath.Rel(b.absRoot, p); err == nil && b.absRoot != "" && within(p, b.absRoot) {
			p = filepath.ToSlash(rel)
		}
		fh.Path = p
		b.last[p] = fh
		if err := b.bound(len(b.last), "files written"); err != nil {
			return err
		}
	}
	return nil
}

func (b *auditBuilder) bound(n int, what string) error {
	if b.opts.MaxElements > 0 && n > b.opts.MaxElements {
		which := b.which()
		return fmt.Errorf("%s has more than %d %s; vouch refuses it rather than exhaust memory; "+
			"raise the limit with --max-elements if %s is meant to be this large", which, b.opts.MaxElements, what, which)
	}
	return nil
}

func (b *auditBuilder) which() string {
	if b.opts.Session == "" {
		return "the log"
	}
	return fmt.Sprintf("session %q", b.opts.Session)
}

// finish sorts the document, refusing one with no records: a document
// without calls would pass every rule bounding what the agent did.
func (b *auditBuilder) finish() (*AuditDoc, error) {
	if b.records == 0 {
		if b.opts.Session != "" {
			return nil, fmt.Errorf("no record of session %q: check that --session (or the Stop event's session_id) names the agent's session "+
				"and that vouch guard ran as its PreToolUse and PostToolUse hook", b.opts.Session)
		}
		return nil, errors.New("no records: the guard recorded no tool call, so there is nothing to check the envelope against; " +
			"run the agent with vouch guard as its PreToolUse and PostToolUse hook (vouch init --guard)")
	}
	doc := b.doc
	for s := range b.sessions {
		doc.Sessions = append(doc.Sessions, s)
	}
	for t := range b.tools {
		doc.Tools = append(doc.Tools, t)
	}
	for t := range b.denied {
		doc.Denied = append(doc.Denied, t)
	}
	for p, fh := range b.last {
		doc.FilesWritten = append(doc.FilesWritten, p)
		doc.Files = append(doc.Files, fh)
	}
	sort.Strings(doc.Sessions)
	sort.Strings(doc.Tools)
	sort.Strings(doc.Denied)
	sort.Strings(doc.FilesWritten)
	sort.Slice(doc.Files, func(i, j int) bool { return doc.Files[i].Path < doc.Files[j].Path })
	return doc, nil
}
