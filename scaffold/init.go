package scaffold

import (
	"io"

	"github.com/vouch-dev/vouch/config"
)

// InitOptions are one `vouch init` invocation.
type InitOptions struct {
	// Options' Root "" is found from the working directory (the git top
	// level, else the directory itself); Binary "" is the running vouch,
	// found from Argv0 (FindBinary).
	Options
	// Argv0 is how the running vouch was invoked.
	Argv0 string
	// Guard sets up vouch guard (RunGuard) instead of the gate (Run).
	Guard bool
	// Daemon (with Guard) makes the hooks run vouch-hook, the fast-mode
	// client of a warm vouch-guard --serve.
	Daemon bool
}

// Init is `vouch init`: it finds the root and the binary the hooks run,
// scaffolds the gate or the guard, and tells w what it did, also when
// it stopped part way, so the user sees what was already written.
func Init(o InitOptions, w io.Writer) error {
	if o.Root == "" {
		root, _, err := config.Discover(".")
		if err != nil {
			return err
		}
		o.Root = root
	}
	if o.Binary == "" {
		bin, err := FindBinary(o.Argv0)
		if err != nil {
			return err
		}
		o.Binary = bin
	}
	write := (*Result).WriteText
	var res *Result
	var err error
	if o.Guard {
		// The guard's hooks are always merged; no CI job is installed.
		write = (*Result).WriteGuardText
		res, err = RunGuard(Options{Root: o.Root, Force: o.Force, Binary: o.Binary, Daemon: o.Daemon})
	} else {
		res, err = Run(o.Options)
	}
	if res != nil {
		if werr := write(res, w); werr != nil && err == nil {
			err = werr
		}
	}
	return err
}
