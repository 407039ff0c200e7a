package hookd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/vouch-dev/vouch/guard"
	"github.com/vouch-dev/vouch/internal/hookwire"
)

// IdleEnv names the variable that sets --idle's default, so the server
// vouch-hook starts in the background (with no flags of its own) can be
// given a shorter or longer life.
const IdleEnv = "VOUCH_GUARD_IDLE"

// Main is vouch-guard's entry point: `vouch-guard --serve [--idle D]`
// runs the hook server, anything else is one hook invocation
// (guard.Main), byte for byte what vouch-guard has always done.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, lookupEnv func(string) (string, bool), version string) int {
	if len(args) == 0 || (args[0] != "--serve" && args[0] != "-serve") {
		return guard.Main(args, stdin, stdout, stderr, lookupEnv, version)
	}
	idle, err := parseServeFlags(args[1:], lookupEnv)
	if err == nil && runtime.GOOS != "linux" {
		err = hookwire.ErrUnsupported
	}
	if err != nil {
		fmt.Fprintf(stderr, "vouch-guard --serve: %v\n", err)
		return 2
	}
	if err := Serve(context.Background(), idle, lookupEnv, version); err != nil {
		if errors.Is(err, ErrRunning) {
			return 0
		}
		fmt.Fprintf(stderr, "vouch-guard --serve: %v\n", err)
		return 1
	}
	return 0
}

// parseServeFlags reads --idle DURATION (or --idle=DURATION), whose
// default is $VOUCH_GUARD_IDLE, else DefaultIdle.
func parseServeFlags(args []string, lookupEnv func(string) (string, bool)) (time.Duration, error) {
	idle := DefaultIdle
	if v, ok := lookupEnv(IdleEnv); ok && v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return 0, fmt.Errorf("%s=%q is not a positive duration such as 30s or 10m", IdleEnv, v)
		}
		idle = d
	}
	for i := 0; i < len(args); i++ {
		name, value, inline := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if name != "idle" || !strings.HasPrefix(args[i], "-") {
			return 0, fmt.Errorf("unexpected argument %q: --serve takes only --idle DURATION", args[i])
		}
		if !inline {
			if i+1 >= len(args) {
				return 0, errors.New("--idle needs a value")
			}
			i++
			value = args[i]
		}
		d, err := time.ParseDuration(value)
		if err != nil || d <= 0 {
			return 0, fmt.Errorf("--idle %q is not a positive duration such as 30s or 10m", value)
		}
		idle = d
	}
	return idle, nil
}

// Serve runs the server for the running binary until it has been idle
// for idle (or ctx ends), in the user's socket directory.
func Serve(ctx context.Context, idle time.Duration, lookupEnv func(string) (string, bool), version string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find vouch-guard's own binary: %w", err)
	}
	id, err := hookwire.IdentityOf(exe)
	if err != nil {
		return err
	}
	uid := os.Getuid()
	dir, err := hookwire.SocketDir(hookwire.Getenv(lookupEnv), uid, true)
	if err != nil {
		return err
	}
	e, err := guard.NewEngine()
	if err != nil {
		return err
	}
	s := &Server{Dir: dir, Identity: id, Idle: idle, UID: uid, Handle: GuardHandler(e, version)}
	return s.Run(ctx)
}
