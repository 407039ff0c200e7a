package guard

import (
	"fmt"
	"strings"

	"github.com/vouch-dev/vouch/suggest"
)

// HookInvocation recognises the invocation a harness makes on every tool
// call, `guard` followed by only the hook's flags (ParseHookFlags); args
// are vouch's arguments without the program name. Recognising it lets
// vouch decide the call without building its whole command line (whose
// construction and parsing were about 4% of a hook process's CPU).
// Anything else, help, completion, another command and flag errors
// included, is false and left to the full command line.
func HookInvocation(args []string) (HookRequest, bool) {
	if len(args) == 0 || args[0] != "guard" {
		return HookRequest{}, false
	}
	req, err := ParseHookFlags(args[1:])
	return req, err == nil
}

// ArgsError is the usage error of `vouch guard` given an argument: the
// hook takes none (its event comes on stdin), so the argument is most
// likely a mistyped subcommand, and the error suggests one.
func ArgsError(arg string) error {
	names := []string{"check", "replay", "test", "validate"}
	return fmt.Errorf("unknown guard command %q%s; the hook itself takes no arguments (the event comes on stdin); commands are %s",
		arg, suggest.Hint(arg, names), strings.Join(names, ", "))
}
