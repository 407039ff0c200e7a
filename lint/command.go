package lint

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/vouch-dev/vouch/output"
)

// ErrReported is what Command returns when configuration errors stopped
// it: they are already rendered into the report (so a SARIF or JUnit
// consumer still receives a complete document) and listed on standard
// error, and the command only has to exit.
var ErrReported = errors.New("lint: configuration errors reported")

// CommandOptions are one `vouch lint` invocation: the Request, and where its
// report, notes and progress go.
type CommandOptions struct {
	Request
	// Args are the command's arguments: at most one, the PATH (Request's
	// Path is taken from them).
	Args []string
	// ExplainConfig prints the rules as vouch understands them to Stdout
	// instead of linting.
	ExplainConfig bool
	// Version is vouch's version, recorded in SARIF.
	Version string
	// Sink receives the report, and configuration errors in the formats
	// that carry them.
	Sink *output.Sink
	// Stdout receives --explain-config; Stderr the notes, the baseline
	// summary, configuration errors and the progress counter.
	Stdout, Stderr io.Writer
	// Progress is the --progress mode of the scan's file counter.
	Progress string
}

// Command is `vouch lint` from its arguments to its report: resolve the
// configuration, explain it or check the repository, record the baseline
// or render the report. It reports whether the findings fail the run.
// Configuration errors are reported where they belong and returned as
// ErrReported; any other error (a bad --progress, a report that could not
// be written) is for the caller to print.
func Command(ctx context.Context, o CommandOptions) (failed bool, err error) {
	ropts := RenderOptions{Version: o.Version}
	if len(o.Args) > 1 {
		return false, o.reportErrors(errors.New("at most one PATH argument"), ropts)
	}
	if len(o.Args) == 1 {
		o.Path = o.Args[0]
	}
	root, cfg, err := Resolve(o.Request)
	if err != nil {
		return false, o.reportErrors(err, ropts)
	}
	if o.ExplainConfig {
		if err := ExplainConfig(root, cfg, o.Stdout); err != nil {
			return false, o.reportErrors(err, ropts)
		}
		return false, nil
	}
	meter, err := output.NewProgress(o.Progress, o.Stderr, "vouch lint: scanning")
	if err != nil {
		return false, err
	}
	if meter != nil {
		cfg.Progress = meter.Update
	}
	rep, err := Check(ctx, root, cfg)
	meter.Done()
	if err != nil {
		return false, o.reportErrors(err, ropts)
	}
	rep.WriteNotes(o.Stderr, cfg)
	if o.UpdateBaseline {
		if err := RecordBaseline(o.Stderr, cfg, rep); err != nil {
			return false, o.reportErrors(err, ropts)
		}
		return false, nil
	}
	ropts.Strict = cfg.Strict
	if err := o.Sink.Render(func(w io.Writer, format string, p output.Painter) error {
		ro := ropts
		ro.Color = p.On
		return rep.Render(w, format, ro)
	}); err != nil {
		return false, fmt.Errorf("lint: %w", err)
	}
	return rep.Fails(cfg.Strict), nil
}

// reportErrors renders err's configuration errors in the chosen format
// (and into every --output file), so a SARIF consumer always receives a
// valid log, lists them on standard error, and returns ErrReported.
func (o CommandOptions) reportErrors(err error, ropts RenderOptions) error {
	list := ErrorsOf(err)
	_ = o.Sink.Render(func(w io.Writer, format string, _ output.Painter) error {
		return RenderErrors(w, format, list, ropts)
	})
	for _, e := range list {
		fmt.Fprintln(o.Stderr, "vouch: lint: "+e.Error())
	}
	return ErrReported
}
