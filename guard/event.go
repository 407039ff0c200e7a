package guard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// Phase says whether a call is about to run (pre) or has run (post).
type Phase string

// The two phases of a tool call.
const (
	Pre  Phase = "pre"
	Post Phase = "post"
)

// Call is one tool call as vouch sees it, whatever harness reported it.
// Args, Result and Metadata hold decoded JSON: maps, slices, strings,
// float64 numbers, booleans and nil.
type Call struct {
	// Harness names the protocol the event came in ("claude-code", ...).
	Harness string `json:"harness"`
	// Event is the harness's own event name ("PreToolUse", "BeforeTool").
	Event     string         `json:"event"`
	Phase     Phase          `json:"phase"`
	SessionID string         `json:"session_id"`
	CallID    string         `json:"call_id,omitempty"`
	Cwd       string         `json:"cwd,omitempty"`
	Tool      string         `json:"tool"`
	Args      map[string]any `json:"args"`
	// Result is the tool's response (post only).
	Result any `json:"result,omitempty"`
	// Failed is true when a post event reports that the tool failed.
	Failed   bool           `json:"failed,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Event-reading limits.
const (
	// MaxEventBytes caps a hook event. Claude Code sends whole file
	// contents in Write events, so the cap is generous, but finite.
	MaxEventBytes = 16 << 20
	// DefaultReadTimeout bounds how long vouch waits for the event on
	// stdin. A harness writes it at once; a stdin that never closes must
	// not hold the tool call (and the agent) hostage.
	DefaultReadTimeout = 5 * time.Second
)

// ErrBadEvent marks an event that could not be read or understood. It is
// always answered with a deny.
var ErrBadEvent = errors.New("bad hook event")

// ReadInput reads all of r, giving up when ctx ends or the data passes max
// bytes. The read runs in its own goroutine so a reader that blocks
// forever cannot outlive the deadline.
func ReadInput(ctx context.Context, r io.Reader, max int64) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(r, max+1))
		done <- result{data, err}
	}()
	select {
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: no complete event on stdin before the deadline (%v)", ErrBadEvent, context.Cause(ctx))
	case res := <-done:
		if res.err != nil {
			return nil, fmt.Errorf("%w: reading stdin: %v", ErrBadEvent, res.err)
		}
		if int64(len(res.data)) > max {
			return nil, fmt.Errorf("%w: event is larger than %d bytes", ErrBadEvent, max)
		}
		return res.data, nil
	}
}

// decodeObject decodes one JSON object and nothing after it. Numbers
// become float64 as in Edictum's evaluator, so `gt: 3` compares the same
// whether the event wrote 3 or 3.0.
func decodeObject(data []byte, what string) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: %s is not valid JSON: %v", ErrBadEvent, what, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: %s has data after the JSON object", ErrBadEvent, what)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: %s must be a JSON object, found %s", ErrBadEvent, what, jsonKind(v))
	}
	return m, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("%T", v)
}

// str reads an optional string field; a field of another type is an error
// (a hostile event must not smuggle an object where a name belongs).
func str(m map[string]any, key string) (string, error) {
	v, ok := m[key]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%w: field %q must be a string, found %s", ErrBadEvent, key, jsonKind(v))
	}
	return s, nil
}

func required(m map[string]any, key string) (string, error) {
	s, err := str(m, key)
	if err != nil {
		return "", err
	}
	if s == "" {
		return "", fmt.Errorf("%w: field %q is missing or empty", ErrBadEvent, key)
	}
	return s, nil
}

// object reads an optional object field.
func object(m map[string]any, key string) (map[string]any, error) {
	v, ok := m[key]
	if !ok || v == nil {
		return map[string]any{}, nil
	}
	o, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: field %q must be an object, found %s", ErrBadEvent, key, jsonKind(v))
	}
	return o, nil
}

// objectOrJSONString reads a field that is an object or a string holding
// one (GitHub Copilot CLI sends toolArgs as a JSON string).
func objectOrJSONString(m map[string]any, key string) (map[string]any, error) {
	if s, ok := m[key].(string); ok {
		if strings.TrimSpace(s) == "" {
			return map[string]any{}, nil
		}
		return decodeObject([]byte(s), "field "+key)
	}
	return object(m, key)
}
