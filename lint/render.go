package lint

import "io"

// RenderOptions tune Render.
type RenderOptions struct {
	// Color colours the text format (standard output on a terminal only).
	Color bool
	// Version is vouch's version, recorded in SARIF.
	Version string
	// Strict fails warnings, notices and stale baseline entries in the
	// JUnit report, as it fails the run.
	Strict bool
}

// Render writes the report in format, one of Formats().
func (r *Report) Render(w io.Writer, format string, opts RenderOptions) error {
	switch format {
	case "json":
		return r.WriteJSON(w)
	case "porcelain":
		return r.WritePorcelain(w)
	case "github":
		return r.WriteGitHub(w)
	case "sarif":
		return r.WriteSARIF(w, opts.Version)
	case "junit":
		return r.WriteJUnit(w, opts.Strict)
	}
	return r.WriteText(w, TextOptions{Color: opts.Color})
}

// RenderErrors writes the configuration errors that stopped a check in
// format, so a SARIF, JUnit, JSON or GitHub consumer still receives a complete
// document; the text formats print nothing here (the errors go to
// standard error).
func RenderErrors(w io.Writer, format string, errs []*ConfigError, opts RenderOptions) error {
	switch format {
	case "sarif", "json", "github", "junit":
		return ErrorReport(errs).Render(w, format, opts)
	}
	return nil
}
