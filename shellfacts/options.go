package shellfacts

import (
	"slices"
	"strings"
)

// optSpec describes a program's options well enough to tell options, their
// values and operands apart. It does not need to know every option: an
// unknown option is taken to have no value, which at worst makes a value
// look like an operand (more facts, never fewer).
type optSpec struct {
	withValue string   // short options that take a value ("n" for -n 5 or -n5)
	long      []string // long options that take a value (--output FILE or --output=FILE)
	posix     bool     // options end at the first operand, as for wrappers (no GNU permutation)
	// plusOpts marks programs where +x is an option too (shells' +o).
	plusOpts bool
	// abbrev lists every long option the program knows, for programs
	// (git, through its parse-options) that accept any unambiguous prefix
	// of one: `git push --force-w` is --force-with-lease and `git rebase
	// --ex CMD` is --exec. A rule written against the full name must see
	// the abbreviation as that name.
	abbrev []string

	// The fields below let a caller fail closed: with closed set, an
	// option the tables do not name is reported in parsed.unknown
	// rather than silently taken to have no value (for a wrapper, a
	// value taken for the wrapped program hides the real command).
	flags     string   // short options that take no value
	longFlags []string // long options that take no value
	// optional and longOptional take a value only when it is attached
	// (-rDIR, --root=DIR): a separate word is never theirs.
	optional     string
	longOptional []string
	long2        []string // long options that take two values (nix --option NAME VALUE)
	closed       bool
	// gnu resolves an unambiguous prefix of a long option named in the
	// tables to that option, as getopt_long does (sed --in is
	// --in-place); an ambiguous prefix is reported in parsed.unknown.
	gnu bool
}

// opt is one option found in the arguments.
type opt struct {
	name   string // "-o" or "--output"
	val    field  // the value, when the option takes one
	hasVal bool
	at     int // index of the option's word in the arguments
}

// parsed is the result of splitting arguments into options and operands.
type parsed struct {
	opts     []opt
	operands []field
	// unknown lists the option words the spec does not name (closed)
	// or abbreviates ambiguously (gnu).
	unknown []string
}

// has reports whether any of the named options was given.
func (p parsed) has(names ...string) bool {
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// values returns the values given to any of the named options.
func (p parsed) values(names ...string) []field {
	var out []field
	for _, o := range p.opts {
		if !o.hasVal {
			continue
		}
		for _, n := range names {
			if o.name == n {
				out = append(out, o.val)
			}
		}
	}
	return out
}

func (s optSpec) takesLong(name string) bool {
	return slices.Contains(s.long, name)
}

// knowsLong reports whether the tables name the long option.
func (s optSpec) knowsLong(name string) bool {
	return slices.Contains(s.long, name) || slices.Contains(s.longFlags, name) || slices.Contains(s.longOptional, name) || slices.Contains(s.long2, name) || slices.Contains(s.abbrev, name)
}

// gnuExpand resolves name as getopt_long does: an exact match, else the
// one long option it begins; ok is false when it begins several.
func (s optSpec) gnuExpand(name string) (full string, ok bool) {
	if name == "" || s.knowsLong(name) {
		return name, true
	}
	match := ""
	for _, list := range [][]string{s.long, s.longFlags, s.longOptional, s.long2, s.abbrev} {
		for _, k := range list {
			if strings.HasPrefix(k, name) && k != match {
				if match != "" {
					return name, false
				}
				match = k
			}
		}
	}
	if match == "" {
		return name, true
	}
	return match, true
}

// expand names the long option that name abbreviates: itself when it is
// known or when no abbreviations are accepted, the one known option it
// begins when there is exactly one, and itself when it begins several
// (git refuses an ambiguous abbreviation, so nothing runs).
func (s optSpec) expand(name string) string {
	if len(s.abbrev) == 0 || name == "" {
		return name
	}
	match := ""
	consider := func(k string) bool {
		if k == name {
			match = ""
			return true
		}
		if strings.HasPrefix(k, name) && k != match {
			if match != "" {
				match = ""
				return true
			}
			match = k
		}
		return false
	}
	for _, k := range s.abbrev {
		// git also accepts --no-X for any option X, and abbreviations
		// of that (commit's --no-ve could be --no-verify or
		// --no-verbose, so git refuses it).
		if consider(k) || (!strings.HasPrefix(k, "no-") && consider("no-"+k)) {
			return name
		}
	}
	if match == "" {
		return name
	}
	return match
}

// parseOpts splits fs into options and operands following getopt's rules.
func parseOpts(fs []field, spec optSpec) parsed {
	var p parsed
	for i := 0; i < len(fs); i++ {
		f := fs[i]
		s := f.s
		if !f.known() || len(s) < 2 || (s[0] != '-' && !(spec.plusOpts && s[0] == '+')) {
			p.operands = append(p.operands, f)
			if spec.posix {
				p.operands = append(p.operands, fs[i+1:]...)
				return p
			}
			continue
		}
		if s == "--" {
			p.operands = append(p.operands, fs[i+1:]...)
			return p
		}
		if strings.HasPrefix(s, "--") {
			name, val, hasEq := strings.Cut(s[2:], "=")
			ambiguous := false
			if spec.gnu {
				full, ok := spec.gnuExpand(name)
				if !ok {
					p.unknown = append(p.unknown, "--"+name)
					ambiguous = true
				}
				name = full
			} else {
				name = spec.expand(name)
			}
			if spec.closed && !ambiguous && !spec.knowsLong(name) {
				p.unknown = append(p.unknown, "--"+name)
			}
			o := opt{name: "--" + name, at: i}
			switch {
			case hasEq:
				o.val, o.hasVal = field{s: val, static: true, raw: f.raw}, true
				if slices.Contains(spec.long2, name) && i+1 < len(fs) {
					i++ // --option=NAME VALUE
				}
			case slices.Contains(spec.long2, name):
				if i+1 < len(fs) {
					o.val, o.hasVal = fs[i+1], true
				}
				i = min(i+2, len(fs)-1)
			case spec.takesLong(name) && i+1 < len(fs):
				i++
				o.val, o.hasVal = fs[i], true
			}
			p.opts = append(p.opts, o)
			continue
		}
		// A cluster of short options: -rf, -n5, -ec 'cmd'.
		prefix := s[:1]
		for j := 1; j < len(s); j++ {
			c := s[j]
			o := opt{name: prefix + string(c), at: i}
			if strings.IndexByte(spec.optional, c) >= 0 {
				if j+1 < len(s) {
					o.val, o.hasVal = field{s: s[j+1:], static: true, raw: f.raw}, true
				}
				p.opts = append(p.opts, o)
				break
			}
			if spec.closed && strings.IndexByte(spec.withValue, c) < 0 && strings.IndexByte(spec.flags, c) < 0 {
				p.unknown = append(p.unknown, o.name)
			}
			if strings.IndexByte(spec.withValue, c) >= 0 {
				if j+1 < len(s) {
					o.val, o.hasVal = field{s: s[j+1:], static: true, raw: f.raw}, true
				} else if i+1 < len(fs) {
					i++
					o.val, o.hasVal = fs[i], true
				}
				p.opts = append(p.opts, o)
				break
			}
			p.opts = append(p.opts, o)
		}
	}
	return p
}
