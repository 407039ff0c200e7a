package output

import "io"

// ReportFormats are the formats of the commands whose report has only a
// JSON and a text form (check, explain, test and the guard's
// subcommands), so they all accept and word the same --format values.
// A function, so no caller can change the list another command reads.
func ReportFormats() []string { return []string{"json", "text"} }

// Report is a report with a JSON and a text form.
type Report interface {
	WriteJSON(io.Writer) error
	WriteText(io.Writer, Painter) error
}

// RenderReport renders rep in the format a Sink asks for: JSON for
// "json", text for anything else, so every two-format command picks its
// form the same way.
func RenderReport(rep Report) func(io.Writer, string, Painter) error {
	return func(w io.Writer, format string, p Painter) error {
		if format == "json" {
			return rep.WriteJSON(w)
		}
		return rep.WriteText(w, p)
	}
}
