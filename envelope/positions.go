package envelope

import (
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/vouch-dev/vouch/yamldoc"
)

// Locate returns, for each path of keys and array indexes (from facts
// down), where the envelope wrote the value it selects: the key's line and
// column for an entry of a mapping, the element's own for an array
// element. When a path goes further than the envelope does, it gives the
// nearest enclosing value written. A zero Pos means not even the first
// step was written, or the envelope is JSON (whose positions are not
// kept). The YAML is parsed again here, once for all the paths, so only a
// run that reports positions pays for them.
func (e *Envelope) Locate(paths [][]string) []yamldoc.Pos {
	out := make([]yamldoc.Pos, len(paths))
	if e.src == nil {
		return out
	}
	var doc yaml.Node
	if yaml.Unmarshal(e.src, &doc) != nil || len(doc.Content) != 1 {
		return out
	}
	facts := child(resolveAlias(doc.Content[0]), "facts")
	for i, p := range paths {
		out[i] = locate(facts, p)
	}
	return out
}

func locate(n *yaml.Node, path []string) yamldoc.Pos {
	var pos yamldoc.Pos
	for _, step := range path {
		n = resolveAlias(n)
		if n == nil {
			break
		}
		var at *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := resolveAlias(n.Content[i]); k != nil && k.Kind == yaml.ScalarNode && k.Value == step {
					at, n = k, n.Content[i+1]
					break
				}
			}
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(step); err == nil && i >= 0 && i < len(n.Content) {
				at, n = n.Content[i], n.Content[i]
			}
		}
		if at == nil {
			break
		}
		pos = yamldoc.Pos{Line: at.Line, Col: at.Column}
	}
	return pos
}

// child is the value of key in mapping n, or nil.
func child(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := resolveAlias(n.Content[i]); k != nil && k.Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
