package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// EncodeJSON is v as indented JSON with a final newline, leaving <, > and
// & as they are: vouch's JSON is read by people and tools, never embedded
// in HTML, and "a -> b" should not turn into "a -\u003e b".
func EncodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode JSON: %w", err)
	}
	return buf.Bytes(), nil
}

// WriteJSON writes v to w as EncodeJSON renders it. Nothing is written
// when encoding fails, so a reader never sees half a document.
func WriteJSON(w io.Writer, v any) error {
	data, err := EncodeJSON(v)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}
