package guard

import "fmt"

// ReplayResult compares a past decision with the one a policy gives now.
type ReplayResult struct {
	Line    int          `json:"line"`
	Record  *AuditRecord `json:"-"`
	Time    string       `json:"time"`
	Session string       `json:"session"`
	Tool    string       `json:"tool"`
	Phase   Phase        `json:"phase"`
	Old     string       `json:"old_decision"`
	OldRule string       `json:"old_rule,omitempty"`
	New     string       `json:"new_decision"`
	NewRule string       `json:"new_rule,omitempty"`
	Changed bool         `json:"changed"`
	Error   string       `json:"error,omitempty"`
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

// Replay decides every recorded call again under p, with the counters the
// record kept. Records of calls that never parsed (no tool) are skipped.
func Replay(e *Engine, p *Policy, recs []AuditRecord, env Env, home, root string) []ReplayResult {
	var out []ReplayResult
	for i := range recs {
		r := &recs[i]
		if r.Tool == "" {
			continue
		}
		c := CallFromAudit(r)
		res := ReplayResult{Line: i + 1, Record: r, Time: r.Time, Session: r.Session, Tool: r.Tool, Phase: c.Phase, Old: r.Decision, OldRule: r.Rule}
		d, _, err := e.Decide(p, c, r.Counters, env, Derive(c, home, root))
		if err != nil {
			d = ErrorDecision(fmt.Errorf("evaluation failed: %w", err))
			res.Error = err.Error()
		}
		res.New, res.NewRule = d.Decision, d.Rule()
		res.Changed = res.New != res.Old || res.NewRule != res.OldRule
		out = append(out, res)
	}
	return out
}
