package guard

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/vouch-dev/vouch/canonpath"
)

// AuditDoc is the document rulespec claims with `from: audit` select
// from: one session's tool calls as vouch guard recorded them.
type AuditDoc struct {
	Session string `json:"session"`
	// Calls are the session's decisions in log order.
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

// AuditDocumentFile builds the audit document of one session from an
// audit log; session "" picks the session of the log's last record. A
// missing log is an empty document: an agent that ran no tool under the
// guard wrote no file through it.
func AuditDocumentFile(path, root, session string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return json.Marshal(AuditDocument(nil, root, session))
	}
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	defer f.Close()
	recs, _, err := ReadAudit(f)
	if err != nil {
		return nil, fmt.Errorf("audit log %s: %w", path, err)
	}
	return json.Marshal(AuditDocument(recs, root, session))
}

// AuditDocument builds the audit document from records.
func AuditDocument(recs []AuditRecord, root, session string) *AuditDoc {
	if session == "" && len(recs) > 0 {
		session = recs[len(recs)-1].Session
	}
	doc := &AuditDoc{Session: session, Calls: []AuditCall{}, Tools: []string{}, Denied: []string{}, FilesWritten: []string{}, Files: []FileHash{}}
	absRoot, _ := filepath.Abs(root)
	if c, err := canonpath.Canonical(absRoot, "/", ""); err == nil {
		absRoot = c
	}
	last := map[string]FileHash{}
	tools, denied := map[string]bool{}, map[string]bool{}
	for _, r := range recs {
		if r.Session != session || r.Tool == "" {
			continue
		}
		doc.Calls = append(doc.Calls, AuditCall{Tool: r.Tool, Phase: r.Phase, Decision: r.Decision, Rule: r.Rule, CallID: r.CallID})
		if r.Phase == Post {
			tools[r.Tool] = true
		} else if r.Decision == Deny {
			denied[r.Tool] = true
		}
		for _, fh := range r.FilesWritten {
			p := fh.Path
			if rel, err := filepath.Rel(absRoot, p); err == nil && absRoot != "" && within(p, absRoot) {
				p = filepath.ToSlash(rel)
			}
			fh.Path = p
			last[p] = fh
		}
	}
	for t := range tools {
		doc.Tools = append(doc.Tools, t)
	}
	for t := range denied {
		doc.Denied = append(doc.Denied, t)
	}
	for p, fh := range last {
		doc.FilesWritten = append(doc.FilesWritten, p)
		doc.Files = append(doc.Files, fh)
	}
	sort.Strings(doc.Tools)
	sort.Strings(doc.Denied)
	sort.Strings(doc.FilesWritten)
	sort.Slice(doc.Files, func(i, j int) bool { return doc.Files[i].Path < doc.Files[j].Path })
	return doc
}
