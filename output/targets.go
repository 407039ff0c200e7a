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
	"time"

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
// file (or a new one) is replaced atomically. A FIFO, a socket or a
// character device (--output json=/dev/stdout) is opened and written in
// place: renaming a file over it would replace, say, /dev/stdout in a CI
// container run as root with a regular file.
//
// A symbolic link is followed only to such a stream. A link to a file,
// a dangling link, or a link to a block device is refused: a report path
// usually lies in the repository, whose content the work controls, and a
// link committed there (vouch-junit.xml -> ~/.ssh/authorized_keys) would
// have the report, which holds text the agent wrote, overwrite or create
// any file the user can write.
func writeReport(path string, data []byte) error {
	fi, err := os.Lstat(path)
	switch {
	case err != nil || fi.Mode().IsRegular():
		return atomicfile.Write(path, data, 0o644)
	case fi.IsDir():
		return fmt.Errorf("%s is a directory", path)
	case fi.Mode()&os.ModeSymlink != 0:
		tfi, err := os.Stat(path)
		switch {
		case err != nil:
			return fmt.Errorf("%s is a symbolic link to nothing (%w); vouch does not create a report through a link: remove it, or name the file to write", path, err)
		case tfi.IsDir():
			return fmt.Errorf("%s is a link to a directory", path)
		case !isStream(tfi.Mode()):
			return fmt.Errorf("%s is a symbolic link to %s; vouch writes a report through a link only to a stream such as /dev/stdout, never to a file the link could aim anywhere: remove the link, or name the file to write", path, describeTarget(path, tfi.Mode()))
		}
	case !isStream(fi.Mode()):
		return fmt.Errorf("%s is a block device, not a file vouch writes a report to", path)
	}
	return writeInPlace(path, data)
}

// isStream reports whether m is a mode writeReport writes in place.
func isStream(m os.FileMode) bool {
	return m&(os.ModeNamedPipe|os.ModeSocket|os.ModeCharDevice) != 0
}

// describeTarget names what the link at path resolves to, for an error.
func describeTarget(path string, m os.FileMode) string {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		target = "it"
	}
	if m&os.ModeDevice != 0 {
		return target + ", a block device"
	}
	return target
}

// readerWait is how long writeInPlace waits for a FIFO's reader to open
// it: long enough for a reader started beside vouch, short enough that a
// FIFO planted where a report goes cannot hold a run past its deadline.
const readerWait = 2 * time.Second

// writeInPlace opens path for writing and writes data. It opens without
// blocking and retries while a FIFO has no reader, up to readerWait, so
// a FIFO that nothing reads is an error instead of a run that waits
// forever; once open, writes wait for the reader as usual.
func writeInPlace(path string, data []byte) error {
	deadline := time.Now().Add(readerWait)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC|nonBlock, 0)
	for noReader(err) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_TRUNC|nonBlock, 0)
	}
	if noReader(err) {
		return fmt.Errorf("write %s: nothing opened this named pipe for reading within %v", path, readerWait)
	}
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
