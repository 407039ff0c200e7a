package gate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/mangle/ast"
	"github.com/tidwall/gjson"

	"github.com/vouch-dev/vouch/internal/fsstat"
	"github.com/vouch-dev/vouch/receipt"
	"github.com/vouch-dev/vouch/repofacts"
)

// StampKey is the envelope metadata key `vouch envelope write` records
// the state of the work under.
const StampKey = "vouch_state"

// Stamp is the state of the work an envelope describes: the base commit,
// the digest of every changed file's content, and each file's own digest
// (so a mismatch can name the files).
type Stamp struct {
	Base   string            `yaml:"base" json:"base"`
	Digest string            `yaml:"digest" json:"digest"`
	Files  map[string]string `yaml:"files" json:"files"`
}

// StateOptions say whose work to hash: the repository root, the base
// (a revision, "" for the default), and vouch's own files that are never
// part of the work.
type StateOptions struct {
	Root, Base, BaseFrom string
	// Hashes shares working-tree blob ids between the reads of one run
	// (repofacts.Hashes); nil for none.
	Hashes *repofacts.Hashes
	// Envelope is the envelope's path; OutDir the configured output
	// directory ("" for none); ArtifactDir where artifacts and the
	// receipt go.
	Envelope, OutDir, ArtifactDir string
}

// exclude lists vouch's own files for repository facts.
func (o StateOptions) exclude() []string {
	ex := append([]string{o.Envelope}, Outputs(o.ArtifactDir)...)
	if o.OutDir != "" {
		ex = append(ex, o.OutDir)
	}
	return ex
}

// WorkState computes the state of the work: what differs from the base,
// by content. Envelope write stamps it; the gate and receipt verify
// recompute it.
func WorkState(ctx context.Context, o StateOptions) (Stamp, error) {
	d, err := collectState(ctx, o)
	if err != nil {
		return Stamp{}, err
	}
	st := d.State()
	return Stamp{Base: st.Base, Digest: st.Digest, Files: st.Files}, nil
}

// collectState collects what the state of the work needs. Without a
// default base (a clone of the pushed commit alone) the work is hashed
// against HEAD, as the state always was there: staleness and a receipt's
// pin need a fixed point, not the base rules compare with. Rules that
// read repository facts are refused instead (verify).
func collectState(ctx context.Context, o StateOptions) (*repofacts.Doc, error) {
	opts := repofacts.Options{Root: o.Root, Base: o.Base, BaseFrom: o.BaseFrom, Envelope: o.Envelope, Exclude: o.exclude(), StateOnly: true, Hashes: o.Hashes}
	d, err := repofacts.Collect(ctx, opts)
	if o.Base == "" && errors.Is(err, repofacts.ErrNoBase) {
		opts.Base, opts.BaseFrom = "HEAD", "HEAD (no default base)"
		d, err = repofacts.Collect(ctx, opts)
	}
	return d, err
}

// readStamp reads an envelope's stamp from its metadata JSON; ok is false
// when there is none.
func readStamp(meta []byte) (Stamp, bool) {
	if meta == nil {
		return Stamp{}, false
	}
	v := gjson.GetBytes(meta, StampKey)
	if !v.Exists() {
		return Stamp{}, false
	}
	st := Stamp{Base: v.Get("base").String(), Digest: v.Get("digest").String(), Files: map[string]string{}}
	v.Get("files").ForEach(func(k, h gjson.Result) bool {
		st.Files[k.String()] = h.String()
		return true
	})
	return st, true
}

// staleness is what the gate program needs to decide whether the
// envelope still describes the work.
type staleness struct {
	// Stamped: the envelope carries a stamp; Stamp and Now are the
	// recorded and the recomputed digests.
	Stamped    bool
	Stamp, Now string
	// Base is the stamp's base commit.
	Base string
	// Changed are the files whose content differs from the stamp's.
	Changed []string
	// Newer are, for an unstamped envelope, changed files modified after
	// the envelope was.
	Newer []string
	// Checked is false when nothing could be checked: an unstamped
	// envelope outside a git work tree (or without git).
	Checked bool
}

// checkStale computes the staleness facts for the envelope at envPath
// with metadata meta. A stamped envelope is compared with the work
// relative to its own base commit, so committing the work after writing
// the envelope does not make it stale; an unstamped one must be newer
// than every file changed since the configured base.
func checkStale(ctx context.Context, o StateOptions, meta []byte) (*staleness, error) {
	s := &staleness{}
	if st, ok := readStamp(meta); ok {
		s.Stamped, s.Stamp, s.Checked, s.Base = true, st.Digest, true, st.Base
		oo := o
		oo.Base, oo.BaseFrom = st.Base, "the envelope's stamp (metadata."+StampKey+".base)"
		now, err := WorkState(ctx, oo)
		if err != nil {
			var re *repofacts.Error
			if errors.As(err, &re) && strings.Contains(re.Msg, "does not name a commit") {
				// The stamped base is gone (rebased, or another clone):
				// the envelope describes work this tree cannot show.
				s.Now = "base " + st.Base + " not found"
				s.Changed = sortedKeys(st.Files)
				return s, nil
			}
			return nil, fmt.Errorf("the envelope is stamped, but the state of the work cannot be computed to compare: %w", err)
		}
		s.Now = now.Digest
		s.Changed = repofacts.State{Files: st.Files}.Diff(repofacts.State{Files: now.Files})
		return s, nil
	}
	d, err := collectState(ctx, o)
	if err != nil {
		if errors.Is(err, repofacts.ErrNotWorkTree) && o.Base == "" {
			return s, nil // no git work tree: nothing to compare with
		}
		return nil, err
	}
	s.Checked = true
	ef, err := os.Stat(o.Envelope)
	if err != nil {
		return nil, err
	}
	written := writtenAt(ef)
	for _, f := range d.Files {
		if f.Status == repofacts.Deleted {
			continue
		}
		fi, err := os.Lstat(filepath.Join(o.Root, filepath.FromSlash(f.Path)))
		if err != nil {
			continue
		}
		if lastChange(fi) >= written {
			s.Newer = append(s.Newer, f.Path)
		}
	}
	return s, nil
}

// lastChange is when a file last changed, as far as its status tells:
// the later of its modification time and its inode change time. The
// modification time alone can be any value: mv, cp -p, tar x and
// rsync -a keep an old one, and touch -d sets one; but no system call
// sets the change time to a chosen value, and each of those moves it to
// the present.
func lastChange(fi fs.FileInfo) int64 {
	t := fi.ModTime().UnixNano()
	if c, ok := fsstat.ChangeTime(fi); ok && c > t {
		t = c
	}
	return t
}

// writtenAt is when the envelope was last written: its change time,
// since its modification time could have been set into the future
// (touch -d 2099-01-01) to look newer than every file; where the system
// gives no change time, its modification time.
func writtenAt(fi fs.FileInfo) int64 {
	if c, ok := fsstat.ChangeTime(fi); ok {
		return c
	}
	return fi.ModTime().UnixNano()
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// facts are the staleness facts of the gate program.
func (s *staleness) facts() []ast.Atom {
	if s == nil || !s.Checked {
		return nil
	}
	yes, _ := ast.Name("/yes")
	var out []ast.Atom
	if s.Stamped {
		out = append(out, ast.NewAtom("envelope_stamped", yes),
			ast.NewAtom("stamp_digest", ast.String(s.Stamp)), ast.NewAtom("work_digest", ast.String(s.Now)))
		for _, p := range s.Changed {
			out = append(out, ast.NewAtom("changed_since_stamp", ast.String(p)))
		}
	}
	for _, p := range s.Newer {
		out = append(out, ast.NewAtom("newer_than_envelope", ast.String(p)))
	}
	return out
}

// StaleMessage tells the agent what changed since its envelope was
// written and what to do.
func StaleMessage(envelope string, files []string) string {
	shown := files
	more := ""
	if len(shown) > 10 {
		shown, more = shown[:10], fmt.Sprintf(" and %d more", len(files)-10)
	}
	// A changed name may hold a newline that would forge a line.
	shown = slices.Clone(shown)
	for i, p := range shown {
		shown[i] = repofacts.ShownPath(p)
	}
	list := strings.Join(shown, ", ") + more
	if list == "" {
		list = "the base commit"
	}
	return fmt.Sprintf("the envelope %s is stale: the work changed after it was written (%s). "+
		"Describe the work as it is now and rewrite it with\n  vouch envelope write %s < envelope.yaml\nthen finish again.", envelope, list, envelope)
}

// receiptWork is the state a passing gate pins in its receipt: the
// stamp's when the envelope is stamped (already recomputed, and equal),
// else the work against the configured base; nil outside a git work tree.
func receiptWork(ctx context.Context, o StateOptions, s *staleness) (*receipt.Work, error) {
	if s != nil && s.Stamped {
		return &receipt.Work{Base: s.Base, Digest: s.Now}, nil
	}
	st, err := WorkState(ctx, o)
	if err != nil {
		// Only a root with no .git above it has no work to pin: a
		// repository git cannot read is an error, or an agent could
		// break its git to get a receipt bound to nothing.
		if errors.Is(err, repofacts.ErrNotWorkTree) && o.Base == "" {
			return nil, nil
		}
		return nil, err
	}
	return &receipt.Work{Base: st.Base, Digest: st.Digest}, nil
}
