// Package hookwire is what vouch-hook (the small client an agent harness
// runs on every tool call) and vouch-guard --serve (the warm hook server)
// share: the framing of a request and its reply, where a user's server
// listens, and the checks each side makes of the other. It links only the
// standard library, so the client stays a small, fast-starting binary.
//
// A request carries everything a vouch-guard process takes from its
// surroundings (working directory, arguments, environment, stdin bytes),
// and the reply everything it gives back (stdout and stderr bytes, exit
// code): the server runs exactly what `vouch-guard ARGS` would have run.
package hookwire

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Bounds on a request: the server allocates nothing larger, and a client
// whose request would pass one runs vouch-guard directly instead.
const (
	// MaxStdin is the largest event vouch-guard reads (guard.MaxEventBytes;
	// a test in the server keeps them equal). A larger stdin is answered
	// by a direct run, which reports it.
	MaxStdin = 16 << 20
	// MaxArgs bounds the number of arguments, MaxArgBytes each one.
	MaxArgs     = 64
	MaxArgBytes = 4096
	// MaxDirBytes bounds the working directory's path.
	MaxDirBytes = 4096
	// MaxEnv bounds the number of environment entries, MaxEnvBytes their
	// total size.
	MaxEnv      = 4096
	MaxEnvBytes = 1 << 20
	// MaxOutput bounds each of a reply's stdout and stderr.
	MaxOutput = 32 << 20
)

// The two frames start with their own magic, so a stray peer speaking
// something else is refused at the first bytes.
const (
	requestMagic = "VHQ1"
	replyMagic   = "VHR1"
)

// ErrFrame marks a frame that is malformed or passes a bound.
var ErrFrame = errors.New("hookwire: bad frame")

// Request is one hook invocation as the client saw it.
type Request struct {
	// Dir is the client's working directory (absolute).
	Dir string
	// Args are vouch-guard's arguments, without the program name.
	Args []string
	// Env is the client's environment, as KEY=VALUE entries.
	Env []string
	// Stdin is the whole of the client's stdin.
	Stdin []byte
}

// Reply is what the invocation gave back.
type Reply struct {
	Stdout, Stderr []byte
	// Exit is the exit code, 0 to 255.
	Exit int
}

// Check reports the first way r passes a bound or could not have come
// from a process: a relative directory, a NUL byte, an entry without '='.
func (r *Request) Check() error {
	switch {
	case len(r.Dir) > MaxDirBytes:
		return fmt.Errorf("%w: working directory longer than %d bytes", ErrFrame, MaxDirBytes)
	case !filepath.IsAbs(r.Dir) || strings.IndexByte(r.Dir, 0) >= 0:
		return fmt.Errorf("%w: working directory %q is not an absolute path", ErrFrame, r.Dir)
	case len(r.Args) > MaxArgs:
		return fmt.Errorf("%w: more than %d arguments", ErrFrame, MaxArgs)
	case len(r.Env) > MaxEnv:
		return fmt.Errorf("%w: more than %d environment entries", ErrFrame, MaxEnv)
	case len(r.Stdin) > MaxStdin:
		return fmt.Errorf("%w: stdin larger than %d bytes", ErrFrame, MaxStdin)
	}
	for _, a := range r.Args {
		if len(a) > MaxArgBytes || strings.IndexByte(a, 0) >= 0 {
			return fmt.Errorf("%w: an argument is longer than %d bytes or holds a NUL byte", ErrFrame, MaxArgBytes)
		}
	}
	total := 0
	for _, e := range r.Env {
		total += len(e)
		if k, _, ok := strings.Cut(e, "="); !ok || k == "" || strings.IndexByte(e, 0) >= 0 {
			return fmt.Errorf("%w: environment entry %.40q is not KEY=VALUE", ErrFrame, e)
		}
	}
	if total > MaxEnvBytes {
		return fmt.Errorf("%w: environment larger than %d bytes", ErrFrame, MaxEnvBytes)
	}
	return nil
}

// LookupEnv returns an os.LookupEnv for r's environment.
func (r *Request) LookupEnv() func(string) (string, bool) { return EnvLookup(r.Env) }

// EnvLookup returns an os.LookupEnv over env, KEY=VALUE entries: the last
// entry of a name wins, as in a process environment read by Go.
func EnvLookup(env []string) func(string) (string, bool) {
	m := make(map[string]string, len(env))
	for _, e := range env {
		k, v, _ := strings.Cut(e, "=")
		m[k] = v
	}
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

// Getenv is os.Getenv over lookup: an unset name reads as "".
func Getenv(lookup func(string) (string, bool)) func(string) string {
	return func(k string) string {
		v, _ := lookup(k)
		return v
	}
}

// WriteRequest writes r as one frame. It refuses a request Check refuses,
// so a server never sees one from an honest client.
func WriteRequest(w io.Writer, r *Request) error {
	if err := r.Check(); err != nil {
		return err
	}
	// The frame's size, so the buffer is allocated once: growing it
	// through a request's usual 2-3 KiB took five allocations of
	// increasing size classes, each a fresh page in a hook process.
	size := len(requestMagic) + 4 + len(r.Dir) + 4 + 4 + 4 + len(r.Stdin)
	for _, a := range r.Args {
		size += 4 + len(a)
	}
	for _, e := range r.Env {
		size += 4 + len(e)
	}
	var b bytes.Buffer
	b.Grow(size)
	b.WriteString(requestMagic)
	putBytes(&b, []byte(r.Dir))
	putStrings(&b, r.Args)
	putStrings(&b, r.Env)
	putBytes(&b, r.Stdin)
	_, err := w.Write(b.Bytes())
	return err
}

// ReadRequest reads one request frame, allocating no more than the bounds
// allow whatever the frame claims.
func ReadRequest(r io.Reader) (*Request, error) {
	fr := &frameReader{r: bufio.NewReader(r)}
	fr.magic(requestMagic)
	req := &Request{Dir: string(fr.bytes(MaxDirBytes, "working directory"))}
	req.Args = fr.strings(MaxArgs, MaxArgBytes, MaxArgBytes*MaxArgs, "argument")
	req.Env = fr.strings(MaxEnv, MaxEnvBytes, MaxEnvBytes, "environment entry")
	req.Stdin = fr.bytes(MaxStdin, "stdin")
	if fr.err != nil {
		return nil, fr.err
	}
	if err := req.Check(); err != nil {
		return nil, err
	}
	return req, nil
}

// WriteReply writes r as one frame.
func WriteReply(w io.Writer, r *Reply) error {
	if r.Exit < 0 || r.Exit > 255 {
		return fmt.Errorf("%w: exit code %d is not 0 to 255", ErrFrame, r.Exit)
	}
	if len(r.Stdout) > MaxOutput || len(r.Stderr) > MaxOutput {
		return fmt.Errorf("%w: output larger than %d bytes", ErrFrame, MaxOutput)
	}
	var b bytes.Buffer
	b.Grow(len(replyMagic) + 1 + 4 + len(r.Stdout) + 4 + len(r.Stderr))
	b.WriteString(replyMagic)
	b.WriteByte(byte(r.Exit))
	putBytes(&b, r.Stdout)
	putBytes(&b, r.Stderr)
	_, err := w.Write(b.Bytes())
	return err
}

// ReadReply reads one reply frame.
func ReadReply(r io.Reader) (*Reply, error) {
	fr := &frameReader{r: bufio.NewReader(r)}
	fr.magic(replyMagic)
	exit := fr.byte()
	rep := &Reply{Exit: int(exit)}
	rep.Stdout = fr.bytes(MaxOutput, "stdout")
	rep.Stderr = fr.bytes(MaxOutput, "stderr")
	if fr.err != nil {
		return nil, fr.err
	}
	return rep, nil
}

func putUint32(b *bytes.Buffer, n int) {
	var p [4]byte
	binary.BigEndian.PutUint32(p[:], uint32(n))
	b.Write(p[:])
}

func putBytes(b *bytes.Buffer, p []byte) {
	putUint32(b, len(p))
	b.Write(p)
}

func putStrings(b *bytes.Buffer, list []string) {
	putUint32(b, len(list))
	for _, s := range list {
		putUint32(b, len(s))
		b.WriteString(s)
	}
}

// frameReader reads a frame's fields, keeping the first error: each
// method after it returns zero values, so a decoder reads straight
// through and checks once.
type frameReader struct {
	r   *bufio.Reader
	err error
}

func (f *frameReader) fail(format string, args ...any) {
	if f.err == nil {
		f.err = fmt.Errorf("%w: "+format, append([]any{ErrFrame}, args...)...)
	}
}

func (f *frameReader) full(p []byte, what string) {
	if f.err != nil {
		return
	}
	if _, err := io.ReadFull(f.r, p); err != nil {
		f.fail("%s: %v", what, err)
	}
}

func (f *frameReader) magic(want string) {
	p := make([]byte, len(want))
	f.full(p, "magic")
	if f.err == nil && string(p) != want {
		f.fail("magic %q, want %q", p, want)
	}
}

func (f *frameReader) byte() byte {
	var p [1]byte
	f.full(p[:], "exit code")
	return p[0]
}

func (f *frameReader) uint32(what string) uint32 {
	var p [4]byte
	f.full(p[:], what)
	return binary.BigEndian.Uint32(p[:])
}

// bytes reads one length-prefixed field of at most max bytes. The length
// is checked before anything is allocated.
func (f *frameReader) bytes(max int, what string) []byte {
	n := f.uint32(what + " length")
	if f.err != nil {
		return nil
	}
	if uint64(n) > uint64(max) {
		f.fail("%s of %d bytes passes the bound of %d", what, n, max)
		return nil
	}
	p := make([]byte, n)
	f.full(p, what)
	return p
}

// strings reads a counted list of at most count strings of at most each
// bytes, total bytes in all.
func (f *frameReader) strings(count, each, total int, what string) []string {
	n := f.uint32(what + " count")
	if f.err != nil {
		return nil
	}
	if uint64(n) > uint64(count) {
		f.fail("%d %ss pass the bound of %d", n, what, count)
		return nil
	}
	list := make([]string, 0, n)
	sum := 0
	for i := uint32(0); i < n && f.err == nil; i++ {
		p := f.bytes(each, what)
		sum += len(p)
		if sum > total {
			f.fail("%ss pass the bound of %d bytes", what, total)
			return nil
		}
		list = append(list, string(p))
	}
	return list
}
