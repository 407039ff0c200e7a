// Package output is the one home of what every vouch command's output has
// in common: JSON encoding, GitHub Actions annotations, the colour rule and
// SARIF logs. Each report package renders its own model; it reaches here
// for the shared conventions so they cannot drift apart between commands.
package output
