package guard

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// ReplayResult compares a past decision with the one a policy gives now.
type ReplayResult struct {
	Line    int    `json:"line"`
	Time    string `json:"time"`
	Session string `json:"session"`
	Tool    string `json:"tool"`
	Phase   Phase  `json:"phase"`
	Old     string `json:"old_decision"`
	OldRule string `json:"old_rule,omitempty"`
	New     string `json:"new_decision"`
	NewRule string `json:"new_rule,omitempty"`
	Changed bool   `json:"changed"`
	Error   string `json:"error,omitempty"`
}

// CallFromAudit rebuilds the call an audit record describes. Its args are
// the redacted ones the log kept, so a rule that matched a secret's value
// may decide differently on replay.
func CallFromAudit(r *AuditRecord) *Call {
	c := &Call{Harness: r.Harness, Event: r.Event, Phase: r.Phase, SessionID: r.Session, CallID: r.CallID,
		Cwd: r.Cwd, Tool: r.Tool, Result: r.Result, Failed: r.Failed, Metadata: r.Metadata}
	c.Args, _ = r.Args.(map[string]any)
	if c.Args == nil {
		c.Args = map[string]any{}
	}
	if c.Metadata == nil {
		c.Metadata = map[string]any{}
	}
	if c.Phase == "" {
		c.Phase = Pre
	}
	return c
}

// replayOne decides one recorded call again. The strings it keeps from
// the record are clipped: a forged record's session or tool can be
// megabytes long, and the report keeps many results.
func replayOne(e *Engine, p *Policy, r *AuditRecord, line int, env Env, home, root string) ReplayResult {
	c := CallFromAudit(r)
	res := ReplayResult{Line: line, Time: clipText(r.Time), Session: clipText(r.Session), Tool: clipText(r.Tool), Phase: c.Phase,
		Old: clipText(r.Decision), OldRule: clipText(r.Rule)}
	d, _, err := e.Decide(p, c, r.Counters, env, Derive(c, home, root))
	if err != nil {
		d = ErrorDecision(fmt.Errorf("evaluation failed: %w", err))
		res.Error = err.Error()
	}
	res.New, res.NewRule = d.Decision, d.Rule()
	res.Changed = res.New != r.Decision || res.NewRule != r.Rule
	return res
}

// maxReplayText bounds each string a replay result keeps from its record;
// the guard's session ids, tool names and rule ids are far shorter.
const maxReplayText = 256

func clipText(s string) string {
	if len(s) <= maxReplayText {
		return s
	}
	n := maxReplayText
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "...[TRUNCATED]"
}

// MaxReplayResults bounds the results a replay report lists. A log with
// more decisions is still replayed whole and counted; its report lists
// only the changed decisions, up to this many.
const MaxReplayResults = 100_000

// ReplayLog decides again under p every call of the audit log read from r
// (log names it in the report), one record at a time: memory holds one
// record and the report, whose results are bounded by MaxReplayResults,
// never the log. Lines that do not parse (a torn last line after a crash)
// are counted as skipped; a record longer than the guard ever writes, or a
// log with no record at all (empty, or not an audit log), is an error: a
// replay of nothing would pass as "no decision changes".
func ReplayLog(e *Engine, p *Policy, r io.Reader, log string, env Env, home, root string) (*ReplayReport, error) {
	return replayLog(e, p, r, log, env, home, root, replayLimits{results: MaxReplayResults, records: MaxReplayRecords})
}

// MaxReplayRecords bounds the records one replay decides. Each record the
// guard writes carries a timestamp, the policy's hash, counters and
// findings, over 400 bytes, so a log under DefaultMaxAuditBytes that the
// guard wrote holds far fewer; only a forged log of tiny records has more,
// and deciding each would take many minutes.
const MaxReplayRecords = 1_000_000

type replayLimits struct{ results, records int }

func replayLog(e *Engine, p *Policy, r io.Reader, log string, env Env, home, root string, lim replayLimits) (*ReplayReport, error) {
	rep := &ReplayReport{Log: log, Policy: p.SHA256, Results: []ReplayResult{}}
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	records := 0
	for n := 1; ; n++ {
		var err error
		line, err = readLine(br, line[:0])
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if len(line) > 0 {
			var rec AuditRecord
			if json.Unmarshal(line, &rec) != nil || !isRecord(&rec) {
				rep.Skipped++
			} else {
				records++
				if records > lim.records {
					return nil, fmt.Errorf("line %d: more than %d records, more than a log the guard wrote holds under the size limit; "+
						"vouch stops rather than spend many minutes replaying them; replay a part of it (split it by lines)", n, lim.records)
				}
				if rec.Tool != "" {
					rep.add(replayOne(e, p, &rec, n, env, home, root), lim.results)
				}
			}
		}
		if err == io.EOF {
			break
		}
	}
	if records == 0 {
		if rep.Skipped > 0 {
			return nil, fmt.Errorf("no records: none of its %d lines is a record vouch guard wrote, so there is nothing to replay; "+
				"is it an audit log (.vouch/guard/audit.jsonl)?", rep.Skipped)
		}
		return nil, errors.New("no records: the log is empty, so there is nothing to replay; " +
			"the guard records a decision for each tool call when it runs as the agent's PreToolUse and PostToolUse hook (vouch init --guard)")
	}
	return rep, nil
}

// add counts one replayed decision and lists it while the report has
// room: every decision while there are at most max, then only the changed
// ones (the others are dropped from the list once it is full), up to max.
func (r *ReplayReport) add(res ReplayResult, max int) {
	r.Replayed++
	if res.Changed {
		r.Changed++
	}
	if !r.ChangedOnly && len(r.Results) >= max {
		kept := r.Results[:0]
		for _, x := range r.Results {
			if x.Changed {
				kept = append(kept, x)
			} else {
				r.Omitted++
			}
		}
		clear(r.Results[len(kept):])
		r.Results, r.ChangedOnly = kept, true
	}
	if r.ChangedOnly && (!res.Changed || len(r.Results) >= max) {
		r.Omitted++
		if res.Changed {
			r.ChangedOmitted++
		}
		return
	}
	r.Results = append(r.Results, res)
}

// isRecord tells a record the guard wrote from any other JSON object: it
// holds one of the three decisions. Without this, any object counted as a
// record, and a file that is not an audit log replayed as "0 decisions
// replayed" and passed.
func isRecord(rec *AuditRecord) bool {
	switch rec.Decision {
	case Allow, Deny, Ask:
		return true
	}
	return false
}
