package output

import (
	"bytes"
	"io"
	"testing"
)

// twoForms is a Report that says which form was asked for.
type twoForms struct{}

func (twoForms) WriteJSON(w io.Writer) error { return WriteJSON(w, map[string]string{"form": "json"}) }

func (twoForms) WriteText(w io.Writer, p Painter) error {
	s := "text\n"
	if p.On {
		s = "painted text\n"
	}
	_, err := io.WriteString(w, s)
	return err
}

func TestRenderReport(t *testing.T) {
	tests := []struct {
		format string
		paint  Painter
		want   string
	}{
		{"json", Painter{}, "{\n  \"form\": \"json\"\n}\n"},
		{"json", Painter{On: true}, "{\n  \"form\": \"json\"\n}\n"},
		{"text", Painter{}, "text\n"},
		{"text", Painter{On: true}, "painted text\n"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		if err := RenderReport(twoForms{})(&buf, tt.format, tt.paint); err != nil {
			t.Fatal(err)
		}
		if buf.String() != tt.want {
			t.Errorf("RenderReport(%s, paint %v) = %q, want %q", tt.format, tt.paint.On, buf.String(), tt.want)
		}
	}
	if got := ReportFormats(); len(got) != 2 || CheckFormat("json", got) != nil || CheckFormat("text", got) != nil {
		t.Errorf("ReportFormats() = %q, want json and text", got)
	}
}
