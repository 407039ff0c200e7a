package shellfacts

import (
	"strings"
)

// outputLongOpts are long options that, in the programs vouch does not
// model, name the file or directory the program writes its output to
// (pandoc --output=x.html, esbuild --outfile=out.js, tsc --outDir dist).
var outputLongOpts = []string{"--output", "--output-file", "--outfile", "--out-file", "--outFile",
	"--outdir", "--out-dir", "--outDir", "--output-dir", "--output-directory"}

// outputShortPrograms are programs whose -o names the file they write:
// compilers, linkers and document converters. Elsewhere -o means other
// things (grep -o, ssh -o, mount -o, kubectl -o json).
var outputShortPrograms = map[string]bool{
	"gcc": true, "g++": true, "cc": true, "c++": true, "clang": true, "clang++": true, "tcc": true,
	"gfortran": true, "rustc": true, "ld": true, "ld.lld": true, "ld.gold": true, "as": true,
	"nasm": true, "yasm": true, "nvcc": true, "emcc": true, "swiftc": true, "ghc": true,
	"pandoc": true, "uglifyjs": true, "terser": true, "babel": true,
}

// outputArgs records the files a program vouch does not otherwise model
// writes through an output option: go build -o ~/.local/bin/git and
// pandoc -o .claude/settings.json write where they are told, which the
// rules on writes outside the repository and on vouch's own files must
// see. A long option's value is taken as a path only when it looks like
// one (a slash or a dot, and no = or braces), since many programs spell
// an output format so (--output json, --output=jsonpath={.items}).
func (w *walker) outputArgs(name string, args []field) {
	short := outputShortPrograms[name]
	if name == "go" {
		// go build -o and go test -c -o; go run passes its options on
		// to the program it runs.
		short = len(args) > 0 && args[0].known() && (args[0].s == "build" || args[0].s == "test")
	}
	for i := 0; i < len(args); i++ {
		f := args[i]
		if !f.known() {
			continue
		}
		s := f.s
		if s == "--" || (name == "go" && s == "-args") {
			return
		}
		next := func() (field, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return field{}, false
		}
		if short {
			var v field
			var ok bool
			switch {
			case s == "-o":
				v, ok = next()
			case name == "go" && strings.HasPrefix(s, "-o="):
				v, ok = field{s: s[3:], static: true, raw: f.raw}, true
			case name != "go" && strings.HasPrefix(s, "-o") && len(s) > 2:
				v, ok = field{s: s[2:], static: true, raw: f.raw}, true
			}
			if ok {
				// A value only known at run time (-o "$DIR/t.test") is
				// left alone, as before this was modelled: a build's
				// output named by a variable is common, and treating it
				// as an unresolved write would ask about each one.
				if v.known() && v.s != "-" {
					w.path(v, w.writes, name+" -o")
				}
				continue
			}
		}
		for _, opt := range outputLongOpts {
			var v field
			var ok bool
			switch {
			case s == opt:
				v, ok = next()
			case strings.HasPrefix(s, opt+"="):
				v, ok = field{s: s[len(opt)+1:], static: true, raw: f.raw}, true
			}
			if !ok {
				continue
			}
			if v.known() && pathLike(v.s) {
				w.path(v, w.writes, name+" "+opt)
			}
			break
		}
	}
}

// pathLike reports whether an option's value reads as a file's path
// rather than a format's name.
func pathLike(s string) bool {
	if s == "" || s == "-" || strings.ContainsAny(s, "={}") {
		return false
	}
	return strings.HasPrefix(s, "~") || strings.ContainsAny(s, "/.")
}
