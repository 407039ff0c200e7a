package output

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vouch-dev/vouch/suggest"
)

// progressModes are the values of --progress.
var progressModes = []string{"always", "auto", "never"}

// ProgressThreshold is the number of files from which auto progress shows:
// below it a run is over before a counter would help.
const ProgressThreshold = 2000

// Progress draws a one-line counter ("vouch lint: scanning 1200/20202
// files") on a terminal while a long run works, redrawn at most every
// tenth of a second and erased when the run ends, so the report that
// follows starts on a clean line. It never writes to a pipe or a file in
// auto mode: output that a program reads stays free of it. A nil
// *Progress draws nothing.
type Progress struct {
	mu     sync.Mutex
	w      io.Writer
	always bool
	label  string
	now    func() time.Time
	last   time.Time
	drawn  bool
}

// NewProgress returns the counter for --progress mode, drawn on w (the
// standard error): always, never, or auto (only when w is a terminal and
// the run covers ProgressThreshold files or more). It returns nil when
// nothing will ever be drawn.
func NewProgress(mode string, w io.Writer, label string) (*Progress, error) {
	if !slices.Contains(progressModes, mode) {
		return nil, fmt.Errorf("unknown --progress %q%s; use %s", mode, suggest.Hint(mode, progressModes), strings.Join(progressModes, ", "))
	}
	if mode == "never" || (mode == "auto" && !isTerminal(w)) {
		return nil, nil
	}
	return &Progress{w: w, always: mode == "always", label: label, now: time.Now}, nil
}

// Update shows that done of total files are handled. It may be called
// from any goroutine.
func (p *Progress) Update(done, total int) {
	if p == nil || (!p.always && total < ProgressThreshold) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if p.drawn && done < total && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.drawn = now, true
	fmt.Fprintf(p.w, "\r\x1b[K%s: %d/%d files", p.label, done, total)
}

// Done erases the counter, if it was drawn.
func (p *Progress) Done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		io.WriteString(p.w, "\r\x1b[K")
		p.drawn = false
	}
}
