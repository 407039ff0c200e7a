package shellfacts

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// PatchOp is what a Codex patch does to one file.
type PatchOp string

// The operations of a Codex patch: its file headers.
const (
	// PatchAdd creates (or overwrites) a file: "*** Add File: path".
	PatchAdd PatchOp = "add"
	// PatchUpdate changes a file in place: "*** Update File: path". Its
	// hunks must match the file's lines, so applying one tells what the
	// file holds.
	PatchUpdate PatchOp = "update"
	// PatchDelete removes a file: "*** Delete File: path".
	PatchDelete PatchOp = "delete"
	// PatchMove is where an updated file moves to: "*** Move to: path"
	// after an Update header; the updated file is removed.
	PatchMove PatchOp = "move"
)

// PatchFile is one file a Codex patch touches, as written in the patch
// (relative paths are relative to where the patch is applied).
type PatchFile struct {
	Op   PatchOp
	Path string
}

// Codex patch markers, compared ignoring case and surrounding blanks:
// reading more lines as headers than Codex does only adds files.
const (
	patchBegin  = "*** begin patch"
	patchEnd    = "*** end patch"
	patchAdd    = "*** add file:"
	patchUpdate = "*** update file:"
	patchDelete = "*** delete file:"
	patchMove   = "*** move to:"
	patchEOF    = "*** end of file"
)

// ParseCodexPatch reads the files a patch in OpenAI Codex's apply_patch
// format adds, updates, deletes and moves to:
//
//	*** Begin Patch
//	*** Add File: path       followed by lines starting with +
//	*** Delete File: path
//	*** Update File: path    optionally followed by *** Move to: path,
//	                         then hunks (@@, and lines starting with a
//	                         blank, + or -, or *** End of File)
//	*** End Patch
//
// It follows Codex's own parser (codex-rs/apply-patch): header lines are
// trimmed, hunk lines are not, and a here-document wrapper (<<'EOF' ...
// EOF) around the patch is dropped. Text that is not such a patch is an
// error: what it would change is not known, so a caller must not take an
// empty list for "changes nothing".
func ParseCodexPatch(text string) ([]PatchFile, error) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	if len(lines) >= 4 {
		// Codex's lenient mode: a model that wrote the heredoc of the
		// shell form inside the tool's input.
		switch strings.TrimSpace(lines[0]) {
		case "<<EOF", "<<'EOF'", `<<"EOF"`:
			if strings.HasSuffix(strings.TrimSpace(lines[len(lines)-1]), "EOF") {
				lines = lines[1 : len(lines)-1]
			}
		}
	}
	if len(lines) < 2 || !strings.EqualFold(strings.TrimSpace(lines[0]), patchBegin) {
		return nil, fmt.Errorf("the first line of the patch must be '*** Begin Patch'")
	}
	if !strings.EqualFold(strings.TrimSpace(lines[len(lines)-1]), patchEnd) {
		return nil, fmt.Errorf("the last line of the patch must be '*** End Patch'")
	}
	body := lines[1 : len(lines)-1]
	var files []PatchFile
	for i := 0; i < len(body); {
		line := strings.TrimSpace(body[i])
		if line == "" {
			i++
			continue
		}
		path, op, ok := patchHeader(line)
		if !ok || op == PatchMove {
			return nil, fmt.Errorf("line %d: %q is not a file header (*** Add File:, *** Update File:, *** Delete File:)", i+2, clip(line))
		}
		if path == "" {
			return nil, fmt.Errorf("line %d: %q names no file", i+2, clip(line))
		}
		files = append(files, PatchFile{Op: op, Path: path})
		i++
		switch op {
		case PatchAdd:
			for i < len(body) && strings.HasPrefix(body[i], "+") {
				i++
			}
		case PatchUpdate:
			if i < len(body) {
				if to, op, ok := patchHeader(strings.TrimSpace(body[i])); ok && op == PatchMove {
					if to == "" {
						return nil, fmt.Errorf("line %d: *** Move to: names no file", i+2)
					}
					files = append(files, PatchFile{Op: PatchMove, Path: to})
					i++
				}
			}
			for i < len(body) && hunkLine(body[i]) {
				i++
			}
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("the patch names no file")
	}
	return files, nil
}

// patchHeader reads a file header of a Codex patch (trimmed).
func patchHeader(line string) (path string, op PatchOp, ok bool) {
	for _, h := range []struct {
		marker string
		op     PatchOp
	}{{patchAdd, PatchAdd}, {patchUpdate, PatchUpdate}, {patchDelete, PatchDelete}, {patchMove, PatchMove}} {
		if len(line) >= len(h.marker) && strings.EqualFold(line[:len(h.marker)], h.marker) {
			return strings.TrimSpace(line[len(h.marker):]), h.op, true
		}
	}
	return "", "", false
}

// hunkLine reports whether a line belongs to an Update File's hunks: a
// chunk header, a context, added or removed line, an empty line or the
// end-of-file marker. Anything else starts the next file header.
func hunkLine(l string) bool {
	if l == "" || strings.EqualFold(strings.TrimSpace(l), patchEOF) {
		return true
	}
	switch l[0] {
	case ' ', '+', '-', '@', '\t':
		return true
	}
	return strings.TrimSpace(l) == ""
}

// clip shortens a line quoted in an error.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// applyPatch: apply_patch (and applypatch) is not a program on PATH but
// the command Codex intercepts in its shell tool and applies itself: the
// patch is its one argument, or its standard input (apply_patch <<'EOF').
// The files the patch names are written, updated (read and written),
// deleted or moved to, relative to the shell's directory. A patch that is
// not static, or that does not parse, may change anything: its target is
// an unresolved write.
func applyPatch(w *walker, c *call) {
	var text string
	switch {
	case len(c.args) > 0:
		if !c.args[0].static {
			w.incomplete(c.name + " of a patch that is not static")
			w.unresolvedWrite(w.writes, c.name+" "+c.args[0].raw)
			return
		}
		text = c.args[0].s
	default:
		r := lastStdin(c.redirs)
		static := false
		if r != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc) {
			text, static, _ = w.stdinText([]*syntax.Redirect{r})
		} else if r == nil && c.pipeKnown {
			text, static = c.pipeText, true
		}
		if !static {
			w.incomplete(c.name + " reads a patch that is not static")
			w.unresolvedWrite(w.writes, c.name+" <patch on standard input>")
			return
		}
	}
	files, err := ParseCodexPatch(text)
	if err != nil {
		w.incomplete(c.name + ": " + err.Error())
		w.unresolvedWrite(w.writes, c.name+" <patch that does not parse: "+err.Error()+">")
		return
	}
	for i, f := range files {
		switch f.Op {
		case PatchAdd, PatchMove:
			w.addPath(f.Path, w.writes, c.name)
		case PatchUpdate:
			w.addPath(f.Path, w.reads, c.name)
			w.addPath(f.Path, w.writes, c.name)
			if i+1 < len(files) && files[i+1].Op == PatchMove {
				w.removing = true
				w.addPath(f.Path, w.deletes, c.name)
				w.removing = false
			}
		case PatchDelete:
			w.removing = true
			w.addPath(f.Path, w.deletes, c.name)
			w.removing = false
		}
	}
}
