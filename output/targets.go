package output

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vouch-dev/vouch/internal/atomicfile"
	"github.com/vouch-dev/vouch/suggest"
)

// Target is one report file a run writes besides standard output, from
// --output [FORMAT=]FILE: several formats in one run, stdout kept for
// people.
type Target struct {
	Format string
	Path   string
}

// reportExts maps a report file's extension to its format, for --output
// FILE without FORMAT= and for refusing --out FILE.
var reportExts = map[string]string{
	".json":  "json",
	".sarif": "sarif",
	".xml":   "junit",
	".txt":   "text",
}

// ParseTargets reads --output values against the formats the command
// writes. A value without FORMAT= takes the format its extension names.
func ParseTargets(specs []string, formats []string) ([]Target, error) {
	var out []Target
	seen := map[string]bool{}
	for _, spec := range specs {
		format, path, ok := strings.Cut(spec, "=")
		if !ok {
			path = spec
			format = reportExts[strings.ToLower(filepath.Ext(spec))]
			if format == "" || !slices.Contains(formats, format) {
				return nil, fmt.Errorf("--output %s: say which format to write, as --output FORMAT=%s (FORMAT one of %s)", spec, spec, strings.Join(formats, ", "))
			}
		}
		if !slices.Contains(formats, format) {
			return nil, fmt.Errorf("--output %s: unknown format %q%s; use one of %s", spec, format, suggest.Hint(format, formats), strings.Join(formats, ", "))
		}
		if path == "" || path == "-" {
			return nil, fmt.Errorf("--output %s: give a file name (standard output takes --format)", spec)
		}
		clean := filepath.Clean(path)
		if seen[clean] {
			return nil, fmt.Errorf("--output %s: %s is named twice", spec, path)
		}
		seen[clean] = true
		out = append(out, Target{Format: format, Path: path})
	}
	return out, nil
}

// WriteTargets renders each target into its file, atomically: a reader
// never sees half a report, and a failed render leaves no file.
func WriteTargets(targets []Target, render func(format string, w io.Writer) error) error {
	for _, t := range targets {
		var b bytes.Buffer
		if err := render(t.Format, &b); err != nil {
			return fmt.Errorf("--output %s=%s: %w", t.Format, t.Path, err)
		}
		if err := writeReport(t.Path, b.Bytes()); err != nil {
			return fmt.Errorf("--output %s=%s: %w", t.Format, t.Path, err)
		}
	}
	return nil
}

// writeReport writes a report to path, which the user named. A regular
// file (or a new one) is replaced atomically. A symlink is written
// through: its target, resolved, is replaced atomically when it is a
// regular file, so the link stays a link. Anything else (a device such
// as /dev/stdout, a FIFO) is opened and written in place: renaming a
// file over it would replace, say, /dev/stdout in a CI container run
// as root with a regular file.
func writeReport(path string, data []byte) error {
	fi, err := os.Lstat(path)
	switch {
	case err != nil || fi.Mode().IsRegular():
		return atomicfile.Write(path, data, 0o644)
	case fi.Mode()&os.ModeSymlink != 0:
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			// A dangling link: create what it points at.
			return writeInPlace(path, data)
		}
		if tfi, err := os.Stat(target); err == nil && tfi.IsDir() {
			return fmt.Errorf("%s is a link to a directory", path)
		}
		return writeReport(target, data)
	case fi.IsDir():
		return fmt.Errorf("%s is a directory", path)
	}
	return writeInPlace(path, data)
}

// writeInPlace opens path for writing, following links and creating it
// if missing, and writes data.
func writeInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// CheckOutDir refuses an artifacts directory (--out) that looks like a
// report file, such as --out results.sarif: it would silently become a
// directory holding the program and trace, and the report the user meant
// to write would be missing.
func CheckOutDir(dir string) error {
	if dir == "" {
		return nil
	}
	format := reportExts[strings.ToLower(filepath.Ext(dir))]
	if format == "" {
		return nil
	}
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return nil // an existing directory is what --out names
	}
	return fmt.Errorf("--out is the directory for the program and trace, and %s looks like a report file: write a report with --output %s=%s", dir, format, dir)
}
