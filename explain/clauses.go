package explain

import (
	"fmt"
	"strings"

	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/compile"
	"github.com/vouch-dev/vouch/internal/lazyre"
	"github.com/vouch-dev/vouch/rulespec"
)

// semanticsIndex holds the parsed semantics clauses, so that the clauses
// shown for a predicate are the ones the engine evaluates, not a copy that
// could drift from them.
type semanticsIndex struct {
	// byHead lists the clauses defining each predicate, in source order.
	byHead map[string][]ast.Clause
	// text is each clause's printed form, computed once.
	text map[*ast.Clause]string
	// rules maps a rule name constant ("/contains") to its rule.
	rules map[string]bool
	// cache remembers the clause list for each combination of rules.
	cache map[string][]string
	// lines maps a clause's printed form to its line in semantics.dl, so
	// clauses are shown as written.
	lines map[string]string
}

// source is the clause as written in semantics.dl, or its printed form if
// it spans several lines there.
func (s *semanticsIndex) source(c *ast.Clause) string {
	return s.display(s.text[c])
}

// display maps a clause's printed form to its source line.
func (s *semanticsIndex) display(printed string) string {
	if l, ok := s.lines[printed]; ok {
		return l
	}
	return printed
}

var nameConst = lazyre.New(`/[a-z_]+`)

// clauseLines maps each clause written on a line of its own to that line,
// by the clause's printed form. Clauses come in source order, one per
// statement; a statement is the lines up to one ending in a period, and
// declarations and comments are skipped. A clause spanning several lines
// gets no entry (it is shown in printed form).
func clauseLines(src string, clauses []ast.Clause) (map[string]string, error) {
	lines := make(map[string]string)
	var stmt []string
	inDecl := false
	next := 0
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(stmt) == 0 && strings.HasPrefix(line, "Decl") {
			inDecl = true
		}
		stmt = append(stmt, line)
		if !strings.HasSuffix(line, ".") {
			continue
		}
		if !inDecl {
			if next >= len(clauses) {
				return nil, fmt.Errorf("more statements than the %d clauses", len(clauses))
			}
			if len(stmt) == 1 {
				lines[clauses[next].String()] = line
			}
			next++
		}
		stmt, inDecl = stmt[:0], false
	}
	if next != len(clauses) {
		return nil, fmt.Errorf("%d statements for %d clauses", next, len(clauses))
	}
	return lines, nil
}

func newSemanticsIndex() (*semanticsIndex, error) {
	// The generated unit is what the engine evaluates, built without
	// parsing.
	unit := compile.SemanticsUnit()
	idx := &semanticsIndex{
		byHead: make(map[string][]ast.Clause),
		text:   make(map[*ast.Clause]string),
		rules:  make(map[string]bool),
		cache:  make(map[string][]string),
	}
	for _, c := range unit.Clauses {
		idx.byHead[c.Head.Predicate.Symbol] = append(idx.byHead[c.Head.Predicate.Symbol], c)
	}
	for _, cs := range idx.byHead {
		for i := range cs {
			idx.text[&cs[i]] = cs[i].String()
		}
	}
	lines, err := clauseLines(compile.Semantics(), unit.Clauses)
	if err != nil {
		return nil, fmt.Errorf("explain: read the semantics: %w", err)
	}
	idx.lines = lines
	for _, r := range rulespec.Rules() {
		idx.rules["/"+string(r)] = true
	}
	return idx, nil
}

// clausesFor returns the semantics clauses that can take part in deciding a
// predicate whose body uses rule and whose condition (if any) uses when:
// starting from verdict/2 and vacuous/1, every clause reachable through
// body literals, leaving out clauses that name only other rule types and
// clauses that need a table (such as vacuous_when_absent) none of whose rows
// concern these rules.
func (s *semanticsIndex) clausesFor(rule rulespec.Rule, when rulespec.Rule, strict bool) []string {
	key := fmt.Sprintf("%s|%s|%v", rule, when, strict)
	if out, ok := s.cache[key]; ok {
		return out
	}
	ours := map[string]bool{"/" + string(rule): true}
	if when != "" {
		ours["/"+string(when)] = true
	}
	w := &clauseWalk{s: s, ours: ours, kept: make(map[string][]*ast.Clause), emitted: make(map[string]bool)}
	// Relations that hold no facts for this predicate: without --strict
	// there is no option fact, and without a condition nothing is skipped.
	if !strict {
		w.kept["option"] = nil
	}
	if when == "" {
		w.kept["skipped"] = nil
	}
	w.emit("verdict")
	w.emit("vacuous")
	s.cache[key] = w.out
	return w.out
}

type clauseWalk struct {
	s    *semanticsIndex
	ours map[string]bool
	// kept holds, per visited predicate, the clauses that can fire for
	// these rules; an extensional predicate maps to a nil-free marker.
	kept    map[string][]*ast.Clause
	emitted map[string]bool
	out     []string
}

var extensional = []*ast.Clause{nil}

// available works out which clauses of pred can fire and reports whether
// pred can hold any fact at all.
func (w *clauseWalk) available(pred string) bool {
	if k, ok := w.kept[pred]; ok {
		return len(k) > 0
	}
	clauses := w.s.byHead[pred]
	if len(clauses) == 0 {
		w.kept[pred] = extensional
		return true
	}
	w.kept[pred] = nil // guards against recursion
	var kept []*ast.Clause
	for i := range clauses {
		c := &clauses[i]
		if !w.relevant(w.s.text[c]) {
			continue
		}
		ok := true
		// A positive premise on a relation that can hold no fact for these
		// rules (a table with no rows for them) means the clause never
		// fires; negated premises always may hold.
		for _, p := range c.Premises {
			if a, isAtom := p.(ast.Atom); isAtom && !strings.HasPrefix(a.Predicate.Symbol, ":") && a.Predicate.Symbol != pred {
				if !w.available(a.Predicate.Symbol) {
					ok = false
					break
				}
			}
		}
		if ok {
			kept = append(kept, c)
		}
	}
	w.kept[pred] = kept
	return len(kept) > 0
}

// emit writes pred's kept clauses after those of every relation they read.
func (w *clauseWalk) emit(pred string) {
	if w.emitted[pred] {
		return
	}
	w.emitted[pred] = true
	if !w.available(pred) {
		return
	}
	kept := w.kept[pred]
	for _, c := range kept {
		if c == nil {
			return
		}
		for _, p := range c.Premises {
			switch t := p.(type) {
			case ast.Atom:
				if !strings.HasPrefix(t.Predicate.Symbol, ":") {
					w.emit(t.Predicate.Symbol)
				}
			case ast.NegAtom:
				w.emit(t.Atom.Predicate.Symbol)
			}
		}
	}
	for _, c := range kept {
		w.out = append(w.out, w.s.source(c))
	}
}

// relevant reports whether a clause concerns these rules: it names none of
// the rule types, or at least one of ours.
func (w *clauseWalk) relevant(text string) bool {
	any := false
	for _, m := range nameConst().FindAllString(text, -1) {
		if w.s.rules[m] {
			any = true
			if w.ours[m] {
				return true
			}
		}
	}
	return !any
}
