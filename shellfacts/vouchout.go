package shellfacts

import "strings"

// vouchCommand: vouch init scaffolds files (vouchInit); the report and
// trace options of every subcommand write files too. --output
// [FORMAT=]FILE writes a report to FILE (`vouch guard check --output
// json=.claude/settings.json` replaces the hook settings with a
// decision), and --trace DIR (guard) and --out DIR (gate, verify, lint;
// -o for gate and verify) write programs, traces and a receipt into DIR
// under names vouch picks, so DIR is a tree written. Nothing is recorded
// for what a subcommand writes by default (vouch gate's receipt in its
// out directory): that is how the agent checks its work.
func vouchCommand(w *walker, c *call) {
	vouchInit(w, c)
	// vouch's flags are Go flag package ones: one dash or two, the value
	// as the next word or after =. Every word is looked at, as a flag
	// may follow a subcommand's name or, for some, its operands.
	for i := 0; i < len(c.args); i++ {
		f := c.args[i]
		if !f.known() || !strings.HasPrefix(f.s, "-") {
			continue
		}
		if f.s == "--" {
			return
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(f.s, "-"), "-"), "=")
		switch name {
		case "output", "trace", "out", "o":
		default:
			continue
		}
		v := field{s: val, static: true, raw: f.raw}
		if !hasVal {
			if i+1 >= len(c.args) {
				return
			}
			i++
			v = c.args[i]
		}
		if !v.known() {
			w.incomplete("vouch " + name + " only known at run time")
			w.unresolvedWrite(w.writes, "vouch -"+name+" "+v.raw)
			continue
		}
		if name == "output" {
			// FORMAT=FILE, or FILE alone; - is standard output.
			if _, file, ok := strings.Cut(v.s, "="); ok {
				v.s = file
			}
			w.path(v, w.writes, "vouch --output")
			continue
		}
		if v.s == "" {
			continue
		}
		w.path(v, w.writes, "vouch -"+name)
		w.tree(v.s, "vouch -"+name)
	}
}
