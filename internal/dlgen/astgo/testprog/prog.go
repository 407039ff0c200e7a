// Package testprog holds a Mangle program using every syntax form, to prove
// that internal/dlgen spells each one exactly as the parser builds it.
package testprog

import _ "embed"

//go:generate go run github.com/vouch-dev/vouch/internal/dlgen -pkg testprog -func prog -o prog_gen.go prog.dl

//go:embed prog.dl
var source string
