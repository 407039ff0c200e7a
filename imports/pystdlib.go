package imports

import (
	_ "embed"
	"strings"
)

// pyStdlibText lists the top-level module names of the Python standard
// library, one per line, covering Python 3.8 to 3.13. It was generated once
// on a machine with Python 3.11.7:
//
//	python3 -c 'import sys; print("\n".join(sorted(set(sys.stdlib_module_names) | EXTRA)))'
//
// where EXTRA adds the names 3.11 lacks: modules removed before 3.11
// (binhex, formatter, parser, symbol, _bootlocale, dummy_threading,
// _dummy_thread) and modules added in 3.12/3.13 (_colorize, _pyrepl,
// _opcode_metadata, _interpchannels, _interpqueues, _interpreters,
// _android_support, _ios_support, _pylong, _wmi). Modules removed in 3.12
// and 3.13 (distutils, imp, asyncore, cgi, ...) are still in 3.11's list.
// An embedded list, not `python3` at run time, keeps results identical on
// every machine.
//
//go:embed pystdlib.txt
var pyStdlibText string

// pyStdlibModules returns the standard-library top-level module names as a
// set; each resolver builds its own so no mutable state is shared.
func pyStdlibModules() map[string]bool {
	m := make(map[string]bool, 320)
	for _, name := range strings.Split(pyStdlibText, "\n") {
		if name = strings.TrimSpace(name); name != "" {
			m[name] = true
		}
	}
	return m
}
