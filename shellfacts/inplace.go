package shellfacts

import "strings"

// yqFiles: yq reads its files as jq does; with -i (--inplace) it
// rewrites them (yq -i '.a = 1' f.yaml, yq e -i ... f.yaml).
func yqFiles(w *walker, c *call) {
	jqFiles(w, c)
	inplace := false
	var operands []field
	for i := 0; i < len(c.args); i++ {
		f := c.args[i]
		switch {
		case f.known() && (f.s == "-i" || f.s == "--inplace" || (strings.HasPrefix(f.s, "-") && !strings.HasPrefix(f.s, "--") && strings.Contains(f.s, "i") && len(f.s) <= 4)):
			inplace = true
		case f.known() && (f.s == "-I" || f.s == "--indent" || f.s == "-o" || f.s == "--output-format" || f.s == "-p" || f.s == "--input-format" || f.s == "--arg" || f.s == "--argjson"):
			i++
			if f.s == "--arg" || f.s == "--argjson" {
				i++
			}
		case f.known() && strings.HasPrefix(f.s, "-") && f.s != "-":
		default:
			operands = append(operands, f)
		}
	}
	if !inplace {
		return
	}
	if len(operands) > 0 && operands[0].known() {
		switch operands[0].s {
		case "e", "eval", "ea", "eval-all":
			operands = operands[1:]
		}
	}
	if len(operands) > 1 {
		w.pathsTo(operands[1:], w.writes, c.name+" -i")
	}
}

// spongeFiles: sponge FILE soaks up its input and writes FILE.
func spongeFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{})
	w.pathsTo(p.operands, w.writes, c.name)
}

// renameFiles: rename EXPR FILE... (perl's) and rename FROM TO FILE...
// (util-linux's) move each file to a name the expression makes: the file
// is removed and a file in its place written. Every operand after the
// first is taken as a file, util-linux's TO included.
func renameFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "e", long: []string{"expr"}})
	ops := p.operands
	if len(p.values("-e", "--expr")) == 0 && len(ops) > 0 {
		ops = ops[1:]
	}
	w.removeTo(ops, w.deletes, true, c.name)
	w.pathsTo(ops, w.writes, c.name)
}
