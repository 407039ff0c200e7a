package output

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Annotation is one GitHub Actions workflow command (::error or ::warning)
// that the runner shows on a file's line in a pull request.
type Annotation struct {
	// Level is "error", "warning" or "notice".
	Level string
	// File is the path the annotation is shown on; "" for none.
	File string
	// Line and Col position it in File; 0 for none. Line needs a File and
	// Col needs a Line, as the runner ignores them otherwise.
	Line, Col int
	// Title is the annotation's heading; "" for none.
	Title   string
	Message string
}

// String renders the workflow command with its newline, escaping the
// properties and message as the runner requires.
func (a Annotation) String() string {
	var props []string
	if a.File != "" {
		props = append(props, "file="+escapeProperty(a.File))
		if a.Line > 0 {
			props = append(props, "line="+strconv.Itoa(a.Line))
			if a.Col > 0 {
				props = append(props, "col="+strconv.Itoa(a.Col))
			}
		}
	}
	if a.Title != "" {
		props = append(props, "title="+escapeProperty(a.Title))
	}
	level := a.Level
	if level == "" {
		level = "error"
	}
	p := ""
	if len(props) > 0 {
		p = " " + strings.Join(props, ",")
	}
	return fmt.Sprintf("::%s%s::%s\n", level, p, escapeData(a.Message))
}

// WriteAnnotations writes each annotation on its own line.
func WriteAnnotations(w io.Writer, as []Annotation) error {
	var b strings.Builder
	for _, a := range as {
		b.WriteString(a.String())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// escapeData escapes a workflow command's message.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value, where ":"
// and "," are separators.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
