package guard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/vouch-dev/vouch/suggest"
)

// Harness names accepted by --harness.
const (
	ClaudeCode = "claude-code"
	Codex      = "codex"
	Gemini     = "gemini"
	Cursor     = "cursor"
	Copilot    = "copilot"
	JSON       = "json"
)

// Harnesses lists the supported harnesses, sorted.
func Harnesses() []string {
	h := []string{ClaudeCode, Codex, Gemini, Cursor, Copilot, JSON}
	sort.Strings(h)
	return h
}

// CheckHarness reports an unknown harness name with a did-you-mean.
func CheckHarness(name string) error {
	for _, h := range Harnesses() {
		if h == name {
			return nil
		}
	}
	return fmt.Errorf("unknown harness %q%s; choose one of %s", name, suggest.Hint(name, Harnesses()), strings.Join(Harnesses(), ", "))
}

// ParseEvent turns one hook event, in the wire format of harness, into a
// Call. Any problem is an ErrBadEvent: the caller denies.
func ParseEvent(harness string, data []byte) (*Call, error) {
	if err := CheckHarness(harness); err != nil {
		return nil, err
	}
	m, err := decodeObject(data, "the event")
	if err != nil {
		return nil, err
	}
	c := &Call{Harness: harness}
	switch harness {
	case ClaudeCode, Codex, Gemini:
		err = parseClaudeLike(c, m)
	case Cursor:
		err = parseCursor(c, m)
	case Copilot:
		err = parseCopilot(c, m)
	case JSON:
		err = parsePlain(c, m)
	}
	if err != nil {
		return nil, err
	}
	if c.Args == nil {
		c.Args = map[string]any{}
	}
	if c.Metadata == nil {
		c.Metadata = map[string]any{}
	}
	return c, nil
}

// parseClaudeLike reads Claude Code's PreToolUse/PostToolUse events, which
// Codex CLI copies and Gemini CLI mirrors with BeforeTool/AfterTool.
func parseClaudeLike(c *Call, m map[string]any) error {
	var err error
	if c.Event, err = required(m, "hook_event_name"); err != nil {
		return err
	}
	switch c.Event {
	case "PreToolUse", "BeforeTool":
		c.Phase = Pre
	case "PostToolUse", "AfterTool":
		c.Phase = Post
	case "PostToolUseFailure":
		c.Phase, c.Failed = Post, true
	default:
		return fmt.Errorf("%w: vouch guard answers tool events (PreToolUse/PostToolUse, BeforeTool/AfterTool), not %q; match only those events in the hook settings", ErrBadEvent, c.Event)
	}
	if c.SessionID, err = str(m, "session_id"); err != nil {
		return err
	}
	if c.CallID, err = str(m, "tool_use_id"); err != nil {
		return err
	}
	if c.Cwd, err = str(m, "cwd"); err != nil {
		return err
	}
	if c.Tool, err = required(m, "tool_name"); err != nil {
		return err
	}
	if c.Args, err = object(m, "tool_input"); err != nil {
		return err
	}
	if c.Metadata, err = object(m, "metadata"); err != nil {
		return err
	}
	if c.Phase == Post {
		c.Result = m["tool_response"]
		if r, ok := c.Result.(map[string]any); ok {
			if ok, isBool := r["success"].(bool); isBool && !ok {
				c.Failed = true
			}
			if e, isBool := r["is_error"].(bool); isBool && e {
				c.Failed = true
			}
		}
		if e, ok := m["error"].(string); ok && e != "" {
			c.Failed = true
		}
	}
	return nil
}

// parseCursor reads Cursor's hook events. Cursor has one event per kind of
// action rather than one per tool, so each becomes the tool name a policy
// would use for it.
func parseCursor(c *Call, m map[string]any) error {
	var err error
	if c.Event, err = required(m, "hook_event_name"); err != nil {
		return err
	}
	if c.SessionID, err = str(m, "conversation_id"); err != nil {
		return err
	}
	if c.CallID, err = str(m, "generation_id"); err != nil {
		return err
	}
	if c.Cwd, err = str(m, "cwd"); err != nil {
		return err
	}
	if c.Cwd == "" {
		if roots, ok := m["workspace_roots"].([]any); ok && len(roots) > 0 {
			c.Cwd, _ = roots[0].(string)
		}
	}
	switch c.Event {
	case "beforeShellExecution":
		c.Phase, c.Tool = Pre, "Shell"
		cmd, err := required(m, "command")
		if err != nil {
			return err
		}
		c.Args = map[string]any{"command": cmd}
	case "beforeReadFile":
		c.Phase, c.Tool = Pre, "Read"
		p, err := required(m, "file_path")
		if err != nil {
			return err
		}
		c.Args = map[string]any{"file_path": p}
		if a, ok := m["attachments"]; ok && a != nil {
			// Files attached to the read ({type, file_path}) are read
			// with it: their paths are found in the objects.
			c.Args["attachments"] = a
		}
	case "beforeMCPExecution", "preToolUse":
		c.Phase = Pre
		if c.Tool, err = required(m, "tool_name"); err != nil {
			return err
		}
		if c.Args, err = objectOrJSONString(m, "tool_input"); err != nil {
			return err
		}
	case "afterFileEdit":
		c.Phase, c.Tool = Post, "Write"
		p, err := required(m, "file_path")
		if err != nil {
			return err
		}
		c.Args = map[string]any{"file_path": p}
		c.Result = m["edits"]
	case "postToolUse", "afterShellExecution", "afterMCPExecution":
		c.Phase = Post
		if c.Event == "afterShellExecution" {
			c.Tool = "Shell"
			cmd, _ := str(m, "command")
			c.Args = map[string]any{"command": cmd}
			c.Result = m["output"]
		} else {
			if c.Tool, err = required(m, "tool_name"); err != nil {
				return err
			}
			if c.Args, err = objectOrJSONString(m, "tool_input"); err != nil {
				return err
			}
			c.Result = m["result_json"]
			if c.Result == nil {
				c.Result = m["tool_output"]
			}
		}
	default:
		return fmt.Errorf("%w: vouch guard answers Cursor's beforeShellExecution, beforeReadFile, beforeMCPExecution, preToolUse and after* tool events, not %q", ErrBadEvent, c.Event)
	}
	return nil
}

// parseCopilot reads GitHub Copilot CLI's preToolUse/postToolUse events,
// whose toolArgs arrive as a JSON string.
func parseCopilot(c *Call, m map[string]any) error {
	var err error
	if c.Tool, err = required(m, "toolName"); err != nil {
		return err
	}
	if c.Args, err = objectOrJSONString(m, "toolArgs"); err != nil {
		return err
	}
	if c.Cwd, err = str(m, "cwd"); err != nil {
		return err
	}
	if c.SessionID, err = str(m, "sessionId"); err != nil {
		return err
	}
	c.Phase, c.Event = Pre, "preToolUse"
	if r, ok := m["toolResult"]; ok {
		c.Phase, c.Event = Post, "postToolUse"
		if ro, ok := r.(map[string]any); ok {
			if t, _ := ro["resultType"].(string); t == "failure" {
				c.Failed = true
			}
			if txt, ok := ro["textResultForLlm"]; ok {
				c.Result = txt
			} else {
				c.Result = r
			}
		} else {
			c.Result = r
		}
	}
	return nil
}

// parsePlain reads vouch's own event: the Call fields as JSON.
func parsePlain(c *Call, m map[string]any) error {
	var err error
	p, err := str(m, "phase")
	if err != nil {
		return err
	}
	switch Phase(p) {
	case Pre, "":
		c.Phase = Pre
	case Post:
		c.Phase = Post
	default:
		return fmt.Errorf("%w: phase must be \"pre\" or \"post\", found %q", ErrBadEvent, p)
	}
	c.Event = string(c.Phase)
	if c.SessionID, err = str(m, "session_id"); err != nil {
		return err
	}
	if c.CallID, err = str(m, "call_id"); err != nil {
		return err
	}
	if c.Cwd, err = str(m, "cwd"); err != nil {
		return err
	}
	if c.Tool, err = required(m, "tool"); err != nil {
		return err
	}
	if c.Args, err = object(m, "args"); err != nil {
		return err
	}
	if c.Metadata, err = object(m, "metadata"); err != nil {
		return err
	}
	c.Result = m["result"]
	if f, ok := m["failed"].(bool); ok {
		c.Failed = f
	}
	return nil
}

// Answer is what the hook process writes and how it exits.
type Answer struct {
	Stdout, Stderr []byte
	Exit           int
}

// Render answers a decision in the protocol of harness. phase is the
// event's phase (Pre when the event could not be read: a bad event is
// answered as a denied call).
func Render(harness string, phase Phase, event string, d *Decision) Answer {
	reason := d.Reason()
	var a Answer
	switch harness {
	case ClaudeCode:
		a = renderClaude(phase, event, d, reason, true)
	case Codex:
		a = renderClaude(phase, event, d, reason, false)
	case Gemini:
		a = renderGemini(phase, d, reason)
	case Cursor:
		a = renderCursor(phase, event, d, reason)
	case Copilot:
		a = renderCopilot(phase, d, reason)
	default:
		a = Answer{Stdout: append(mustJSON(d), '\n')}
		if d.Decision != Allow {
			a.Exit = 1
		}
	}
	return a
}

// Decision words.
const (
	Allow = "allow"
	Deny  = "deny"
	Ask   = "ask"
)

func renderClaude(phase Phase, event string, d *Decision, reason string, exit2 bool) Answer {
	if event == "" {
		event = "PreToolUse"
	}
	if phase == Post {
		switch {
		case d.Decision == Deny:
			return Answer{Stdout: jsonLine(map[string]any{"decision": "block", "reason": reason})}
		case d.warnings() != "":
			return Answer{Stdout: jsonLine(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": event, "additionalContext": d.warnings()}})}
		}
		return Answer{}
	}
	switch d.Decision {
	case Deny:
		out := map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": reason}}
		if !exit2 {
			// Codex reads the JSON deny; it does not treat exit 2 as
			// Claude Code does.
			return Answer{Stdout: jsonLine(out)}
		}
		// Exit 2 with the reason on stderr blocks on every Claude Code
		// version with hooks; later versions also read the JSON.
		return Answer{Stdout: jsonLine(out), Stderr: []byte(reason + "\n"), Exit: 2}
	case Ask:
		if !exit2 {
			// Codex's PreToolUse accepts only deny: an approval it
			// cannot ask for is refused.
			r := "needs approval, which this harness's hooks cannot ask for: " + reason
			return Answer{Stdout: jsonLine(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": r}})}
		}
		out := map[string]any{"hookEventName": event, "permissionDecision": "ask", "permissionDecisionReason": reason}
		if w := d.warnings(); w != "" {
			// The person asked sees the reason; the model should
			// still get the warnings an allow would have carried.
			out["additionalContext"] = w
		}
		return Answer{Stdout: jsonLine(map[string]any{"hookSpecificOutput": out})}
	}
	if w := d.warnings(); w != "" && exit2 {
		return Answer{Stdout: jsonLine(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": event, "additionalContext": w}})}
	}
	return Answer{}
}

func renderGemini(phase Phase, d *Decision, reason string) Answer {
	switch d.Decision {
	case Deny:
		return Answer{Stdout: jsonLine(map[string]any{"decision": "deny", "reason": reason})}
	case Ask:
		// Gemini CLI hooks have no way to ask the user: refuse.
		return Answer{Stdout: jsonLine(map[string]any{"decision": "deny",
			"reason": "needs approval, which this harness's hooks cannot ask for: " + reason})}
	}
	if w := d.warnings(); w != "" {
		return Answer{Stdout: jsonLine(map[string]any{"hookSpecificOutput": map[string]any{"additionalContext": w}})}
	}
	return Answer{Stdout: []byte("{}\n")}
}

func renderCursor(phase Phase, event string, d *Decision, reason string) Answer {
	if phase == Post {
		// Cursor's after* hooks take no decision.
		return Answer{Stdout: []byte("{}\n")}
	}
	if d.Decision == Ask && event == "beforeReadFile" {
		// beforeReadFile takes only allow or deny: an ask there would
		// be no answer Cursor knows, so the read is refused.
		r := "needs approval, which this harness's hooks cannot ask for: " + reason
		return Answer{Stdout: jsonLine(map[string]any{"permission": Deny, "user_message": r, "agent_message": r})}
	}
	switch d.Decision {
	case Deny, Ask:
		return Answer{Stdout: jsonLine(map[string]any{"permission": d.Decision,
			"user_message": reason, "agent_message": reason})}
	}
	out := map[string]any{"permission": "allow"}
	if w := d.warnings(); w != "" {
		out["agent_message"] = w
	}
	return Answer{Stdout: jsonLine(out)}
}

func renderCopilot(phase Phase, d *Decision, reason string) Answer {
	if phase == Post {
		return Answer{}
	}
	switch d.Decision {
	case Deny, Ask:
		return Answer{Stdout: jsonLine(map[string]any{"permissionDecision": d.Decision, "permissionDecisionReason": reason})}
	}
	return Answer{}
}

func jsonLine(v any) []byte { return append(mustJSON(v), '\n') }

// mustJSON encodes without HTML escaping; the values are plain data and
// encoding cannot fail.
func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte(`{"decision":"deny","findings":[{"rule":"vouch","action":"deny","message":"cannot encode the answer"}]}`)
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}
