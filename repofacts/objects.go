package repofacts

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
)

// verifyTrees checks that commit and every tree below it hash to their
// ids (blobReader.answer), reading them through b. git does not verify
// the trees it walks (read-tree, ls-tree, COMMIT:PATH), so a forged tree
// object could name another blob for a path of the base and make a
// changed file look unchanged; once every tree holds, the ids they name
// are the base's, and each blob vouch reads is verified as it is read.
//
// The trees are read a level at a time, every request of a level written
// by one goroutine while the answers are read, so a deep tree costs a
// round trip per level, not per tree. On an error b is aborted.
func verifyTrees(b *blobReader, commit string) (err error) {
	if commit == emptyTree {
		return nil
	}
	defer func() {
		if err != nil {
			b.abort()
		}
	}()
	seen := map[string]bool{}
	level := []string{commit}
	var buf bytes.Buffer
	size := b.f.new().Size()
	for len(level) > 0 {
		sent := make(chan error, 1)
		go func(ids []string) {
			w := bufio.NewWriterSize(b.in, 64<<10)
			for _, id := range ids {
				if _, err := w.WriteString(id + "\n"); err != nil {
					sent <- err
					return
				}
			}
			sent <- w.Flush()
		}(level)
		var next []string
		for _, id := range level {
			buf.Reset()
			want := id
			if id == commit {
				want = "" // a revision may name the commit: git's id for it
			}
			_, typ, ok, err := b.answer(want, func(string, int64) io.Writer { return &buf })
			if err != nil {
				return err
			}
			if !ok {
				return &Error{Msg: fmt.Sprintf("the repository's object store lacks object %s of the base; fetch it, or check the work in a fresh clone", id)}
			}
			data := buf.Bytes()
			switch typ {
			case "commit":
				t, ok := bytes.CutPrefix(data, []byte("tree "))
				if !ok || len(t) < 2*size || (len(t) > 2*size && t[2*size] != '\n') {
					return fmt.Errorf("commit %s: no tree line", id)
				}
				next = append(next, string(t[:2*size]))
			case "tree":
				// mode SP name NUL raw-id, repeated.
				for len(data) > 0 {
					sp := bytes.IndexByte(data, ' ')
					nul := bytes.IndexByte(data, 0)
					if sp < 0 || nul < sp || len(data) < nul+1+size {
						return errTampered(id)
					}
					mode := string(data[:sp])
					raw := data[nul+1 : nul+1+size]
					data = data[nul+1+size:]
					if mode != "40000" {
						continue
					}
					sub := hex.EncodeToString(raw)
					if !seen[sub] {
						seen[sub] = true
						next = append(next, sub)
					}
				}
			default:
				return fmt.Errorf("object %s of the base is a %s, not a tree", id, typ)
			}
		}
		if err := <-sent; err != nil {
			return fmt.Errorf("git cat-file: %w", err)
		}
		level = next
	}
	return nil
}
