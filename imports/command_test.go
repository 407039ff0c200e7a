package imports

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Command refuses each bad input before scanning, with the message the
// CLI prints, and scans a directory or one file.
func TestCommand(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "off") // keep the test process's memory limit as it is
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println() }\n",
		"app.py":  "import os\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ok := CommandOptions{Args: []string{dir}, MaxFileSize: DefaultMaxFileSize, NoCache: true, Progress: "never", Stderr: io.Discard}
	tests := []struct {
		name     string
		edit     func(*CommandOptions)
		wantErr  string
		wantSpec []string
	}{
		{name: "directory", edit: func(*CommandOptions) {}, wantSpec: []string{"os", "fmt"}}, // by file: app.py, main.go,
		{name: "one language", edit: func(o *CommandOptions) { o.Lang = []string{"python"} }, wantSpec: []string{"os"}},
		{name: "one file", edit: func(o *CommandOptions) { o.Args = []string{filepath.Join(dir, "main.go")} }, wantSpec: []string{"fmt"}},
		{name: "bad language", edit: func(o *CommandOptions) { o.Lang = []string{"cobol"} }, wantErr: "imports: "},
		{name: "two paths", edit: func(o *CommandOptions) { o.Args = []string{dir, dir} }, wantErr: "imports: at most one PATH or FILE argument"},
		{name: "no file size", edit: func(o *CommandOptions) { o.MaxFileSize = 0 }, wantErr: "imports: --max-file-size must be positive"},
		{name: "bad progress", edit: func(o *CommandOptions) { o.Progress = "bogus" }, wantErr: `unknown --progress "bogus"`},
		{name: "missing path", edit: func(o *CommandOptions) { o.Args = []string{filepath.Join(dir, "none")} }, wantErr: "imports: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := ok
			tt.edit(&o)
			res, err := Command(context.Background(), o)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("Command error %v, want one starting %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var specs []string
			for _, r := range res.Records {
				specs = append(specs, r.Spec)
			}
			if strings.Join(specs, ",") != strings.Join(tt.wantSpec, ",") {
				t.Errorf("specs %q, want %q", specs, tt.wantSpec)
			}
		})
	}
}
