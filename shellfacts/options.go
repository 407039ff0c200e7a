package shellfacts

import "strings"

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
	for _, l := range s.long {
		if l == name {
			return true
		}
	}
	return false
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
			name = spec.expand(name)
			o := opt{name: "--" + name, at: i}
			switch {
			case hasEq:
				o.val, o.hasVal = field{s: val, static: true, raw: f.raw}, true
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
