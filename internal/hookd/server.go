// Package hookd is the warm hook server, `vouch-guard --serve`: it keeps
// one process (its packages initialised, one guard Engine) ready to decide
// tool calls, so a hook call costs a small client's start-up and a round
// trip instead of a whole vouch-guard start-up. Each request is run
// exactly as `vouch-guard ARGS` would have run it in the client's working
// directory, with the client's environment and stdin bytes, and answered
// with the bytes and exit code that run gives (docs/guard.md, "Fast mode").
package hookd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/vouch-dev/vouch/guard"
	"github.com/vouch-dev/vouch/internal/hookwire"
)

// DefaultIdle is how long a server waits for a request before it exits.
const DefaultIdle = 10 * time.Minute

// ioTimeout bounds reading one request and writing its reply: a client
// that connects and stalls must not hold a goroutine and descriptor for
// ever. A real client sends its request at once and reads its reply at
// once.
const ioTimeout = 10 * time.Second

// ErrRunning is Run finding another server for the same binary holding
// the lock: the one that lost a race to start exits quietly.
var ErrRunning = errors.New("a hook server for this vouch-guard is already running")

// Handler answers one request.
type Handler func(*hookwire.Request) *hookwire.Reply

// GuardHandler runs each request as vouch-guard (guard.Invocation.Main)
// in the client's directory and environment, deciding with e.
func GuardHandler(e *guard.Engine, version string) Handler {
	// Compiled policies are kept by the disk cache's key (the policy's
	// bytes), so an edited policy is a miss, as it is on disk. They are
	// compiled from the policy itself, never read from a repository's
	// disk cache, so one entry can serve every repository with those
	// bytes.
	policies := &guard.PolicyCache{}
	return func(req *hookwire.Request) *hookwire.Reply {
		var out, errb bytes.Buffer
		inv := guard.Invocation{Dir: req.Dir, LookupEnv: req.LookupEnv(), Engine: e, Policies: policies}
		code := inv.Main(req.Args, bytes.NewReader(req.Stdin), &out, &errb, version)
		return &hookwire.Reply{Stdout: out.Bytes(), Stderr: errb.Bytes(), Exit: code}
	}
}

// Server listens for one binary identity in one socket directory.
type Server struct {
	// Dir is the socket directory (hookwire.SocketDir), already checked.
	Dir string
	// Identity names the socket and lock file: the binary's own.
	Identity hookwire.Identity
	// Idle is how long the server waits for a request before it exits.
	Idle time.Duration
	// UID is the only user whose clients are served.
	UID int
	// Handle answers a request.
	Handle Handler
}

// Run serves until Idle passes without a connection or ctx ends, then
// waits for the requests under way. It returns ErrRunning when another
// server holds the lock.
func (s *Server) Run(ctx context.Context) error {
	if err := hookwire.CheckDir(s.Dir, s.UID); err != nil {
		return err
	}
	lock, err := lockExclusive(hookwire.LockPath(s.Dir, s.Identity))
	if err != nil {
		return err
	}
	defer lock.Close()
	sock := hookwire.SocketPath(s.Dir, s.Identity)
	// Holding the lock, any socket at the path is a dead server's: a
	// live one would hold the lock.
	if err := os.Remove(sock); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove stale hook socket: %w", err)
	}
	ln, err := hookwire.Listen(sock)
	if err != nil {
		return fmt.Errorf("hook server: %w", err)
	}
	defer ln.Close()
	stop := context.AfterFunc(ctx, func() { ln.SetDeadline(time.Now()) })
	defer stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		if err := ln.SetDeadline(time.Now().Add(s.Idle)); err != nil {
			return fmt.Errorf("hook server: %w", err)
		}
		if ctx.Err() != nil {
			return nil
		}
		c, err := ln.Accept()
		if err != nil {
			if hookwire.IsTimeout(err) {
				return nil // idle, or ctx ended
			}
			return fmt.Errorf("hook server: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.serve(c)
		}()
	}
}

// serve answers one connection. Whatever goes wrong, the connection is
// closed without a reply, and the client runs vouch-guard itself: the
// answer is then the direct one, fail-closed deny included.
func (s *Server) serve(c *hookwire.Conn) {
	defer c.Close()
	defer func() { _ = recover() }()
	if err := hookwire.CheckClient(c, s.UID); err != nil {
		return
	}
	if err := c.SetDeadline(time.Now().Add(ioTimeout)); err != nil {
		return
	}
	req, err := hookwire.ReadRequest(c)
	if err != nil {
		return
	}
	rep := s.Handle(req)
	if rep == nil {
		return
	}
	if err := c.SetDeadline(time.Now().Add(ioTimeout)); err != nil {
		return
	}
	_ = hookwire.WriteReply(c, rep)
}
