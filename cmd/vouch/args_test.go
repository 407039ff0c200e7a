package main

import (
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFlagsFirst(t *testing.T) {
	app := newApp(io.Discard, io.Discard)
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"already first", []string{"vouch", "verify", "--strict", "e.yaml"}, []string{"vouch", "verify", "--strict", "e.yaml"}},
		{"value flag after", []string{"vouch", "verify", "e.yaml", "--format", "json"}, []string{"vouch", "verify", "--format", "json", "e.yaml"}},
		{"bool flag after", []string{"vouch", "verify", "e.yaml", "--strict"}, []string{"vouch", "verify", "--strict", "e.yaml"}},
		{"flag=value", []string{"vouch", "verify", "e.yaml", "--format=json"}, []string{"vouch", "verify", "--format=json", "e.yaml"}},
		{"alias", []string{"vouch", "verify", "e.yaml", "-r", "r.yaml"}, []string{"vouch", "verify", "-r", "r.yaml", "e.yaml"}},
		{"unknown flag moves too", []string{"vouch", "verify", "e.yaml", "--bogus"}, []string{"vouch", "verify", "--bogus", "e.yaml"}},
		{"double dash stops", []string{"vouch", "verify", "--", "-odd.yaml", "--strict"}, []string{"vouch", "verify", "--", "-odd.yaml", "--strict"}},
		{"subcommand", []string{"vouch", "envelope", "write", "out.yaml", "--from", "in.yaml"}, []string{"vouch", "envelope", "write", "--from", "in.yaml", "out.yaml"}},
		{"unknown command untouched", []string{"vouch", "nope", "x", "--y"}, []string{"vouch", "nope", "x", "--y"}},
		{"global flag only", []string{"vouch", "--help"}, []string{"vouch", "--help"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, flagsFirst(app, tt.in)); diff != "" {
				t.Errorf("flagsFirst (-want +got):\n%s", diff)
			}
		})
	}
}
