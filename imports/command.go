package imports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/vouch-dev/vouch/output"
)

// CommandOptions are one `vouch imports` invocation, its flags as given.
type CommandOptions struct {
	// Args are the command's arguments: at most one PATH or FILE; none
	// is the working directory.
	Args []string
	// Lang holds the --lang values (see ParseLangs).
	Lang []string
	// Exclude, MaxFileSize, NoCache and PythonRoots are Options'.
	Exclude     []string
	MaxFileSize int64
	NoCache     bool
	PythonRoots []string
	// Progress is the --progress mode of the file counter, drawn on
	// Stderr.
	Progress string
	Stderr   io.Writer
}

// Command checks what `vouch imports` was given and scans it (ScanPath),
// bounding memory for large trees. Every error is bad input (exit 2):
// a bad flag, a missing path, an unreadable tree.
func Command(ctx context.Context, o CommandOptions) (*Result, error) {
	langs, err := ParseLangs(o.Lang)
	if err != nil {
		return nil, fmt.Errorf("imports: %w", err)
	}
	if len(o.Args) > 1 {
		return nil, errors.New("imports: at most one PATH or FILE argument")
	}
	root := "."
	if len(o.Args) == 1 {
		root = o.Args[0]
	}
	if o.MaxFileSize <= 0 {
		return nil, errors.New("imports: --max-file-size must be positive")
	}
	// Extraction allocates fast on two or more cores and the collector lags
	// behind; a soft limit keeps peak memory near the documented 300 MiB
	// on large monorepos (256 MiB of heap leaves room for the rest of the
	// process). GOMEMLIMIT, when set, wins.
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(256 << 20)
	}
	meter, err := output.NewProgress(o.Progress, o.Stderr, "vouch imports: scanning")
	if err != nil {
		return nil, err
	}
	opts := Options{Langs: langs, Exclude: o.Exclude, MaxFileSize: o.MaxFileSize, NoCache: o.NoCache, PythonRoots: o.PythonRoots}
	if meter != nil {
		opts.Progress = meter.Update
	}
	res, _, err := ScanPath(ctx, root, opts)
	meter.Done()
	if err != nil {
		return nil, fmt.Errorf("imports: %w", err)
	}
	return res, nil
}
