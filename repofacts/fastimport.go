package repofacts

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/vouch-dev/vouch/internal/safeopen"
)

// importChanges writes both sides of the changed paths into the private
// repository dg with one `git fast-import`: refs/heads/base holds each
// changed path as the base has it, its blob streamed from br (verified
// against its id as it streams, blobReader.answer), and refs/heads/work
// each as the working tree has it now, streamed from the file. The diff
// compares the two: rename detection (-M, which takes only deleted paths
// as sources) and line counts come out as for the whole trees, and git
// reads no object of the work's store, where a forged pack or loose
// object could stand in. One pack is written, not a file per blob, and
// no file is held in memory whole.
//
// A base blob that does not hash to its id, a working-tree file that
// changes size while read or is larger than MaxWorkFileBytes, stops the
// import: the process is killed, so nothing half-written is diffed.
func importChanges(ctx context.Context, dg *git, br *blobReader, root, prefix string, changed []string, paths map[string]pathState, work map[string]workEntry) (err error) {
	// Blobs of core.bigFileThreshold or more are streamed to the pack
	// rather than held in memory; --depth=0 skips delta search.
	c := dg.cmd(ctx, "-c", "core.bigFileThreshold=1m", "-c", "pack.compression=0", "-c", "core.compression=0",
		"fast-import", "--quiet", "--depth=0", "--date-format=raw")
	stdin, err := c.StdinPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		return fmt.Errorf("git fast-import: %w", err)
	}
	w := bufio.NewWriterSize(stdin, 256<<10)
	defer func() {
		if err != nil {
			_ = c.Process.Kill()
			stdin.Close()
			_ = c.Wait()
			if _, ok := err.(*Error); !ok && stderr.Len() > 0 {
				err = fmt.Errorf("%w (git fast-import: %s)", err, strings.TrimSpace(stderr.String()))
			}
			return
		}
		if err = w.Flush(); err == nil {
			err = stdin.Close()
		}
		if werr := c.Wait(); err == nil && werr != nil {
			err = fmt.Errorf("git fast-import: %s", strings.TrimSpace(stderr.String()))
		}
	}()

	// The base's blobs, each once, requested all at once.
	marks := map[string]int{}
	var ids []string
	for _, p := range changed {
		if b := paths[p].base; b.present && marks[b.id] == 0 {
			marks[b.id] = len(ids) + 1
			ids = append(ids, b.id)
		}
	}
	if err := importBase(br, w, ids); err != nil {
		return err
	}
	// The working tree's.
	next := len(ids) + 1
	workMark := map[string]int{}
	buf := make([]byte, 64<<10)
	for _, p := range changed {
		e := work[p]
		if !e.present {
			continue
		}
		if err := importWork(w, next, filepath.Join(root, filepath.FromSlash(p)), e.mode, buf); err != nil {
			return fmt.Errorf("read %s in the working tree: %w", ShownPath(p), err)
		}
		workMark[p] = next
		next++
	}
	for _, side := range []string{"base", "work"} {
		fmt.Fprintf(w, "commit refs/heads/%s\ncommitter vouch <vouch> 0 +0000\ndata 0\n", side)
		for _, p := range changed {
			mode, mark := "", 0
			if side == "base" {
				if b := paths[p].base; b.present {
					mode, mark = b.mode, marks[b.id]
				}
			} else if e := work[p]; e.present {
				mode, mark = e.mode, workMark[p]
			}
			if mark != 0 {
				fmt.Fprintf(w, "M %s :%d %s\n", mode, mark, quotePath(prefix+p))
			}
		}
		w.WriteString("\n")
	}
	return nil
}

// importBase streams the blobs ids from br into the import as marks 1,
// 2, ..., verified as they stream. The requests are written by one
// goroutine while the answers are read, so a thousand blobs cost no
// thousand round trips; on an error br is aborted.
func importBase(br *blobReader, w *bufio.Writer, ids []string) (err error) {
	if len(ids) == 0 {
		return nil
	}
	sent := make(chan error, 1)
	go func() {
		bw := bufio.NewWriterSize(br.in, 64<<10)
		for _, id := range ids {
			if _, err := bw.WriteString(id + "\n"); err != nil {
				sent <- err
				return
			}
		}
		sent <- bw.Flush()
	}()
	defer func() {
		if err != nil {
			br.abort()
		}
		if serr := <-sent; err == nil && serr != nil {
			err = fmt.Errorf("git cat-file: %w", serr)
		}
	}()
	for i, id := range ids {
		_, typ, ok, err := br.answer(id, func(typ string, size int64) io.Writer {
			fmt.Fprintf(w, "blob\nmark :%d\ndata %d\n", i+1, size)
			return w
		})
		if err == nil && (!ok || typ != "blob") {
			err = &Error{Msg: fmt.Sprintf("the base names blob %s, which the repository's object store lacks; fetch it, or check the work in a fresh clone", id)}
		}
		if err != nil {
			return err
		}
		w.WriteString("\n")
	}
	return nil
}

// importWork streams one working-tree path into the import as mark: a
// symbolic link's target, or a regular file's content, of the size its
// open file has; a file that changes size while read, or that is larger
// than MaxWorkFileBytes, is an error.
func importWork(w *bufio.Writer, mark int, full, mode string, buf []byte) error {
	if mode == modeSymlink {
		t, err := os.Readlink(full)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "blob\nmark :%d\ndata %d\n%s\n", mark, len(t), t)
		return nil
	}
	// Opened without blocking: a file the work replaced with a FIFO
	// must not hang the gate.
	f, fi, err := safeopen.Open(full, safeopen.Options{})
	if errors.Is(err, safeopen.ErrNotRegular) {
		return errChanged()
	}
	if err != nil {
		return err
	}
	defer f.Close()
	size := fi.Size()
	if size > MaxWorkFileBytes {
		return errTooLarge(size)
	}
	fmt.Fprintf(w, "blob\nmark :%d\ndata %d\n", mark, size)
	n, err := io.CopyBuffer(w, io.LimitReader(onlyReader{f}, size+1), buf)
	if err != nil {
		return err
	}
	if n != size {
		return errChanged()
	}
	w.WriteString("\n")
	return nil
}

// quotePath spells p as fast-import reads a path: in double quotes, with
// backslash, quote and control characters escaped, so a name with a
// newline or a leading quote is read as itself.
func quotePath(p string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			b.WriteString("\\" + strconv.FormatInt(int64(c)|0o1000, 8)[1:])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
