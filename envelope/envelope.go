// Package envelope loads the "action envelopes" that AI agents write: a YAML
// (or JSON) file whose top level is a mapping with a required facts: mapping
// and an optional metadata: mapping. The facts become compact JSON text that
// the selector package reads with gjson.
//
// The agent that wrote the envelope is not trusted, so every byte is treated
// as hostile: sizes, nesting depth and alias expansion are bounded by Limits,
// every problem comes back as an *Error naming file:line:col and what to do,
// and no input makes the package panic.
package envelope

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/vouch-dev/vouch/internal/lazyre"
	"github.com/vouch-dev/vouch/internal/safeopen"
	"github.com/vouch-dev/vouch/internal/yamlfast"
	"github.com/vouch-dev/vouch/suggest"
	"github.com/vouch-dev/vouch/yamldoc"
)

// Limits bounds the work and memory that one envelope may cost. A zero or
// negative field means "use the default", so a zero Limits is safe.
type Limits struct {
	// MaxBytes caps the size of the file and, separately, of the JSON that
	// the facts and metadata expand to (aliases can make the JSON far larger
	// than the file). Raised on the command line with --max-envelope-bytes.
	MaxBytes int64
	// MaxDepth caps how deeply mappings and sequences may nest; see ToJSON
	// for how levels are counted. Raised with --max-depth, up to
	// HardMaxDepth.
	MaxDepth int
}

const (
	defaultMaxBytes = 64 << 20
	defaultMaxDepth = 256
	// HardMaxDepth is the largest MaxDepth honoured. The converter recurses
	// once per level, and a goroutine stack overflow is fatal rather than a
	// recoverable panic, so the depth must stay bounded whatever the flag
	// says. yaml.v3 itself refuses more than 10000 levels in one document.
	HardMaxDepth = 10000
	// maxMaxBytes keeps size arithmetic far from int64 overflow; no
	// envelope approaches a pebibyte.
	maxMaxBytes = 1 << 50
)

// DefaultLimits returns the limits used when the user sets no flags: 64 MiB
// and 256 levels.
func DefaultLimits() Limits {
	return Limits{MaxBytes: defaultMaxBytes, MaxDepth: defaultMaxDepth}
}

// normalized fills in defaults so the rest of the package never has to
// wonder whether a limit is set.
func (l Limits) normalized() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = defaultMaxBytes
	}
	if l.MaxBytes > maxMaxBytes {
		l.MaxBytes = maxMaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = defaultMaxDepth
	}
	if l.MaxDepth > HardMaxDepth {
		l.MaxDepth = HardMaxDepth
	}
	return l
}

// Error is the only error type the package returns, so callers can always
// show the user where the problem is: yamldoc's positioned error.
type Error = yamldoc.Error

// Envelope is a loaded and validated envelope.
type Envelope struct {
	// File is the name used in error messages.
	File string
	// SHA256 is the hex SHA-256 of the raw file bytes, so a verdict can be
	// tied to exactly the envelope it was computed from.
	SHA256 string
	// Facts is compact JSON of the facts mapping, keys in document order.
	Facts []byte
	// Metadata is compact JSON of the metadata mapping, or nil when the
	// envelope has none (or it is null).
	Metadata []byte
	// src is the YAML text (nil for a JSON envelope), parsed again by
	// Locate only when an annotation needs a position: keeping the node
	// tree, or a map of positions, would cost every large envelope memory
	// and time that only a failing run's annotations use.
	src []byte
}

// Load reads the file at path and parses it with Parse. A file larger than
// lim.MaxBytes is refused after reading at most MaxBytes+1 bytes, so a huge
// file costs bounded memory; anything but a regular file (a named pipe, a
// device such as /dev/zero, a directory) is refused without blocking.
func Load(path string, lim Limits) (*Envelope, error) {
	return LoadIn(path, "", lim)
}

// LoadIn is Load for a path that must lie under root: it is opened through
// an os.Root, so a symlink cannot substitute another repository's
// envelope. root "" opens the path as given (one the user named on the
// command line).
func LoadIn(path, root string, lim Limits) (*Envelope, error) {
	lim = lim.normalized()
	f, err := safeopen.Read(path, safeopen.Options{Root: root, MaxBytes: lim.MaxBytes})
	switch {
	case errors.Is(err, safeopen.ErrTooLarge):
		return nil, tooLargeFile(path, lim.MaxBytes)
	case errors.Is(err, safeopen.ErrOutsideRoot):
		return nil, &Error{File: path, Err: err, Msg: "the envelope resolves to outside the repository root " + root +
			"; write it inside the repository (vouch envelope write), or name it explicitly with --envelope"}
	case err != nil:
		return nil, &Error{File: path, Msg: safeopen.Reason(err), Err: err}
	}
	return Parse(path, f.Data, lim)
}

func tooLargeFile(file string, limit int64) error {
	return &Error{File: file, Msg: fmt.Sprintf(
		"the envelope is larger than the limit of %d bytes; shrink it or raise the limit with --max-envelope-bytes", limit)}
}

// topKeys are the keys allowed at the top level, for did-you-mean hints.
var topKeys = []string{"facts", "metadata"}

// yamlLine pulls the line number out of yaml.v3 messages such as
// "yaml: line 3: mapping values are not allowed in this context".
var yamlLine = lazyre.New(`^yaml: line (\d+): (.*)$`)

// Parse validates data, the contents of file, and converts it. A file named
// *.json must be strict JSON; anything else is YAML (of which JSON is
// nearly a subset). file is otherwise used only in error messages.
func Parse(file string, data []byte, lim Limits) (*Envelope, error) {
	lim = lim.normalized()
	if int64(len(data)) > lim.MaxBytes {
		return nil, tooLargeFile(file, lim.MaxBytes)
	}
	sum := sha256.Sum256(data)
	if IsJSONName(file) {
		// A .json envelope is strict JSON (RFC 8259): YAML's leniency
		// (trailing commas, single quotes, 01, NaN read as a string,
		// comments) would let an agent's malformed file through.
		return parseStrictJSON(file, data, lim, hex.EncodeToString(sum[:]))
	}
	if looksLikeJSON(data) {
		if env, ok, err := parseJSON(file, data, lim, hex.EncodeToString(sum[:])); ok {
			return env, err
		}
	}
	return parseYAML(file, data, lim, sum)
}

// IsJSONName reports whether file names a JSON envelope (extension .json,
// in any case), which Parse reads as strict JSON rather than as YAML.
func IsJSONName(file string) bool {
	return strings.EqualFold(filepath.Ext(file), ".json")
}

// parseYAML is Parse through yaml.v3's node tree, for YAML and for any JSON
// that parseJSON declines.
func parseYAML(file string, data []byte, lim Limits, sum [sha256.Size]byte) (*Envelope, error) {
	doc, err := decodeSingle(file, data)
	if err != nil {
		return nil, err
	}
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == yaml.DocumentNode || isNull(root) {
		return nil, &Error{File: file, Pos: yamldoc.Pos{Line: root.Line, Col: root.Column},
			Msg: "the envelope is empty; write a mapping with a top-level facts: key"}
	}
	if root.Kind != yaml.MappingNode {
		// kindName would quote a scalar: a file that is not an envelope
		// at all is not echoed.
		return nil, at(file, root, "the top level of the envelope is %s, not a mapping; write a mapping with a top-level facts: key", shapeName(root))
	}
	var facts, meta, factsKey *yaml.Node
	seen := make(map[string]*yaml.Node, 2)
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		kr := k
		if kr.Kind == yaml.AliasNode && kr.Alias != nil {
			kr = kr.Alias
		}
		if kr.Kind != yaml.ScalarNode {
			return nil, at(file, k, "a top-level key must be facts or metadata, not %s", kindName(kr))
		}
		if kr.ShortTag() == mergeTag {
			return nil, at(file, k, "merge keys are not supported; write the keys out")
		}
		if first, dup := seen[kr.Value]; dup {
			return nil, at(file, k, "duplicate key %s (first defined at line %d); remove one of them", strconv.Quote(kr.Value), first.Line)
		}
		seen[kr.Value] = k
		switch kr.Value {
		case "facts":
			facts, factsKey = v, k
		case "metadata":
			meta = v
		default:
			return nil, at(file, k, "%s", unknownTopKey(kr.Value))
		}
	}
	if facts == nil {
		return nil, at(file, root, "the envelope has no facts: key; add facts: with a mapping of facts (facts: {} if there are none)")
	}
	c := newConverter(file, lim)
	c.sizeHint = len(data)
	switch fr := resolveAlias(facts); {
	case fr == nil || isNull(fr):
		return nil, at(file, factsKey, "facts is empty (null); write facts: {} or a mapping of facts")
	case fr.Kind != yaml.MappingNode:
		return nil, at(file, facts, "facts must be a mapping, not %s; write key: value pairs under facts:", kindName(fr))
	}
	env := &Envelope{File: file, SHA256: hex.EncodeToString(sum[:])}
	if env.Facts, err = c.convert(facts); err != nil {
		return nil, err
	}
	env.src = data
	if meta != nil {
		switch mr := resolveAlias(meta); {
		case mr == nil || isNull(mr):
			// An empty metadata: key says nothing; treat it as absent.
		case mr.Kind != yaml.MappingNode:
			return nil, at(file, meta, "metadata must be a mapping, not %s; write key: value pairs under metadata: or remove it", kindName(mr))
		default:
			if env.Metadata, err = c.convert(meta); err != nil {
				return nil, err
			}
		}
	}
	return env, nil
}

// decodeSingle decodes exactly one YAML document. yaml.Unmarshal would
// silently ignore a second document, and an agent could hide facts there.
func decodeSingle(file string, data []byte) (doc *yaml.Node, err error) {
	// The fast path answers only for one document it builds exactly as
	// yaml.v3 would; anything else, errors included, is yaml.v3's.
	if doc, ok := yamlfast.Parse(data); ok {
		return doc, nil
	}
	defer func() {
		// yaml.v3 recovers its own panics, but a bug there must still not
		// crash vouch on hostile input.
		if r := recover(); r != nil {
			doc, err = nil, &Error{File: file, Msg: fmt.Sprintf("the YAML parser failed (%v); simplify the envelope", r)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var first yaml.Node
	if err := dec.Decode(&first); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{File: file, Msg: "the envelope is empty; write a mapping with a top-level facts: key"}
		}
		return nil, yamlError(file, data, err)
	}
	var second yaml.Node
	switch err := dec.Decode(&second); {
	case errors.Is(err, io.EOF):
		return &first, nil
	case err != nil:
		return nil, yamlError(file, data, err)
	default:
		return nil, &Error{File: file, Pos: yamldoc.Pos{Line: second.Line, Col: second.Column},
			Msg: "the envelope holds more than one YAML document; keep a single document (remove the --- separator)"}
	}
}

// yamlError turns a yaml.v3 syntax error into an *Error carrying its line.
func yamlError(file string, data []byte, err error) error {
	msg := err.Error()
	advice := "; fix the syntax"
	if strings.Contains(msg, "exceeded max depth") {
		advice = "; flatten the data"
	}
	pos, text := yamldoc.SyntaxPos(err, data)
	return &Error{File: file, Pos: pos, Msg: "not valid YAML: " + text + advice, Err: err}
}

// at builds an *Error positioned at n.
func at(file string, n *yaml.Node, format string, args ...any) *Error {
	return &Error{File: file, Pos: yamldoc.Pos{Line: n.Line, Col: n.Column}, Msg: fmt.Sprintf(format, args...)}
}

// resolveAlias follows alias nodes to their target, giving up (nil) on a
// broken or cyclic chain rather than looping.
func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode; i++ {
		if i > 1000 {
			return nil
		}
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == nullTag
}

// unknownTopKey is the message for a top-level key other than facts and
// metadata. The key is quoted only when it is a near miss of one of them:
// a file that is not an envelope at all (a secret a symlink points at)
// must not have its content echoed.
func unknownTopKey(key string) string {
	if hint := suggest.Hint(key, topKeys); hint != "" {
		return fmt.Sprintf("unknown top-level key %s%s; only facts and metadata are allowed", strconv.Quote(key), hint)
	}
	return "unknown top-level key; only facts and metadata are allowed"
}

// shapeName is kindName without the scalar's text.
func shapeName(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode && n.ShortTag() != nullTag {
		return "a scalar"
	}
	return kindName(n)
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.ScalarNode:
		if n.ShortTag() == nullTag {
			return "null"
		}
		return "a scalar (" + strconv.Quote(truncate(n.Value, 40)) + ")"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	return "an empty node"
}

// truncate keeps messages short when the offending text is huge.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// JSON returns the envelope as indented strict JSON, facts then metadata,
// keys in document order: what `vouch envelope write` stores at a .json
// path, which Parse reads as strict JSON whatever the source was written
// in.
func (e *Envelope) JSON() []byte {
	var b bytes.Buffer
	b.WriteString(`{"facts":`)
	b.Write(e.Facts)
	if e.Metadata != nil {
		b.WriteString(`,"metadata":`)
		b.Write(e.Metadata)
	}
	b.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		// Facts and Metadata are compact JSON the converter wrote.
		return append(b.Bytes(), '\n')
	}
	out.WriteByte('\n')
	return out.Bytes()
}
