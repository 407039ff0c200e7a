package output

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSink(t *testing.T) {
	formats := []string{"json", "text"}
	dir := t.TempDir()
	tests := []struct {
		name, format, color string
		outputs             []string
		wantErr             string
		wantStdout          string
		wantFiles           map[string]string
	}{
		{name: "stdout only", format: "text", color: "never", wantStdout: "text plain\n"},
		{name: "painted stdout, plain file", format: "text", color: "always",
			outputs:    []string{"json=" + filepath.Join(dir, "a.json")},
			wantStdout: "text painted\n", wantFiles: map[string]string{"a.json": "json plain\n"}},
		{name: "unknown format", format: "sarif", color: "never", wantErr: `unknown --format "sarif"`},
		{name: "unknown colour", format: "text", color: "sometimes", wantErr: `unknown --color "sometimes"`},
		{name: "output format not written", format: "text", color: "never", outputs: []string{"junit=" + filepath.Join(dir, "r.xml")}, wantErr: `unknown format "junit"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout bytes.Buffer
			s, err := NewSink(&stdout, formats, tt.format, tt.color, tt.outputs)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("NewSink error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			err = s.Render(func(w io.Writer, format string, p Painter) error {
				how := "plain"
				if p.On {
					how = "painted"
				}
				_, err := fmt.Fprintf(w, "%s %s\n", format, how)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := stdout.String(); got != tt.wantStdout {
				t.Errorf("stdout %q, want %q", got, tt.wantStdout)
			}
			for name, want := range tt.wantFiles {
				got, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil || string(got) != want {
					t.Errorf("%s: %q (%v), want %q", name, got, err, want)
				}
			}
		})
	}
}
