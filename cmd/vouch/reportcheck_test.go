package main

import (
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/vouch-dev/vouch/internal/junittest"
	"github.com/vouch-dev/vouch/internal/sariftest"
)

// cmdJUnitCheck checks a JUnit report against the JUnit 10 schema's rules
// (internal/junittest): junitcheck FILE, where FILE may be stdout.
func cmdJUnitCheck(ts *testscript.TestScript, neg bool, args []string) {
	reportCheck(ts, neg, args, "junitcheck", junittest.Check)
}

// cmdSARIFCheck checks a SARIF log against the OASIS 2.1.0 schema and
// GitHub's ingestion rules (internal/sariftest): sarifcheck FILE.
func cmdSARIFCheck(ts *testscript.TestScript, neg bool, args []string) {
	reportCheck(ts, neg, args, "sarifcheck", sariftest.Check)
}

func reportCheck(ts *testscript.TestScript, neg bool, args []string, name string, check func([]byte) []error) {
	if len(args) != 1 {
		ts.Fatalf("usage: %s FILE", name)
	}
	errs := check([]byte(ts.ReadFile(args[0])))
	switch {
	case neg && len(errs) == 0:
		ts.Fatalf("%s %s: unexpectedly valid", name, args[0])
	case !neg && len(errs) > 0:
		for _, e := range errs {
			ts.Logf("%v", e)
		}
		ts.Fatalf("%s %s: %d problems", name, args[0], len(errs))
	}
}
