// Package selectors parses and evaluates claim selectors: paths that point
// into the facts mapping of an action envelope.
//
// # Syntax
//
// A selector is a sequence of steps, written one after another:
//
//	a.b                key "a", then key "b"
//	items[0]           key "items", then element 0 of that array
//	items[*].id        key "items", every element, key "id" of each
//	a["odd.key"]       a key that cannot be written bare
//	["first key"].b    a quoted key may also open the selector
//	[""]               the empty key
//
// A bare key is a run of characters other than '.', '[', ']', '"',
// whitespace and control characters; bare keys after the first are joined
// with '.'. Every other key goes in brackets as a double-quoted, JSON-style
// string (\" \\ \/ \b \f \n \r \t and \uXXXX escapes). An index is a
// non-negative decimal number without sign or leading zeros, at most
// 2147483647. [*] is the wildcard.
//
// Keys and indexes never cross over: a.0 names the key "0" of an object and
// a[0] names element 0 of an array.
//
// Syntax errors are reported as *SyntaxError with a 1-based column counted
// in characters (runes), and where possible a hint about what to write
// instead.
//
// # Evaluation
//
// Selector.Select walks a gjson.Result holding the facts mapping. A claim is
// absent when a key is missing, an index is out of range, a step meets a
// value of the wrong kind, or the value reached is JSON null. Selectors with
// wildcards always yield one flat JSON array of the non-null matches in
// document order; see Selector.Select for the details.
//
// A bare leading "facts" key followed by other steps (facts.a, facts[0]) is
// the prefix authors tend to write by mistake: Parse drops it, so the
// selector reads the same whatever the envelope holds, and Select warns.
// The quoted spelling ["facts"] names a key literally called facts.
package selectors
