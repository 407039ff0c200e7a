package envelope

import (
	"strconv"

	"gopkg.in/yaml.v3"
)

// checkExpansion refuses an alias bomb (such as "billion laughs") before
// any of it is expanded. It runs once per conversion, when the first alias
// is met, so documents without aliases never pay for it.
func (c *converter) checkExpansion() error {
	c.memo = make(map[*yaml.Node]int64)
	c.worst, c.worstSize = nil, -1
	total, err := c.lowerBound(c.root, 1)
	if err != nil {
		return err
	}
	if c.used+total <= c.maxBytes || c.worst == nil {
		return nil
	}
	size := "at least " + strconv.FormatInt(c.worstSize, 10) + " bytes"
	if c.worstSize > c.maxBytes {
		size = "more than " + strconv.FormatInt(c.maxBytes, 10) + " bytes"
	}
	return c.errAt(c.worst, "alias *%s expands to %s of JSON, taking the envelope past the limit of %d bytes; write the values out instead of repeating aliases, or raise the limit with --max-envelope-bytes",
		c.worst.Value, size, c.maxBytes)
}

// lowerBound returns a lower bound on the length of n's JSON, saturating
// just above maxBytes so that exponential growth cannot overflow. Alias
// targets are memoized, which keeps the work linear in the size of the
// document however often each anchor is repeated. Beyond maxDepth the
// bound is cut to 1 byte: that stays a lower bound, keeps the recursion
// shallow, and conversion will report the depth anyway.
func (c *converter) lowerBound(n *yaml.Node, depth int) (int64, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return 0, nil
		}
		return c.lowerBound(n.Content[0], depth)
	case yaml.ScalarNode:
		// Strings cost at least their text plus quotes; other scalars can
		// shrink ("0x10" is 16) but never below one byte.
		switch n.ShortTag() {
		case nullTag, boolTag, intTag, floatTag:
			return 1, nil
		}
		return c.sat(int64(len(n.Value)), 2), nil
	case yaml.AliasNode:
		target := n.Alias
		if target == nil {
			return 0, c.errAt(n, "alias *%s has no anchor; define &%s before using it", n.Value, n.Value)
		}
		size, ok := c.memo[target]
		if ok && size < 0 {
			return 0, c.errAt(n, "alias *%s refers to the value that contains it, which would repeat forever; write the value out", n.Value)
		}
		if !ok {
			c.memo[target] = -1
			var err error
			if size, err = c.lowerBound(target, depth); err != nil {
				return 0, err
			}
			c.memo[target] = size
		}
		if size > c.worstSize {
			c.worst, c.worstSize = n, size
		}
		return size, nil
	case yaml.SequenceNode, yaml.MappingNode:
		if depth > c.maxDepth {
			return 1, nil
		}
		total := int64(2) // brackets
		if len(n.Content) > 1 {
			total = c.sat(total, int64(len(n.Content)-1)) // commas, or colons and commas
		}
		for i, child := range n.Content {
			var size int64
			if n.Kind == yaml.MappingNode && i%2 == 0 {
				// A key is written as a string whatever its tag.
				kr := resolveAlias(child)
				if kr == nil {
					continue
				}
				size = c.sat(int64(len(kr.Value)), 2)
			} else {
				var err error
				if size, err = c.lowerBound(child, depth+1); err != nil {
					return 0, err
				}
			}
			total = c.sat(total, size)
		}
		return total, nil
	}
	return 1, nil
}

// sat adds without exceeding maxBytes+1, the smallest value that is over
// the limit, so repeated doubling never overflows int64.
func (c *converter) sat(a, b int64) int64 {
	limit := c.maxBytes + 1
	if a >= limit || b >= limit || a+b >= limit {
		return limit
	}
	return a + b
}
