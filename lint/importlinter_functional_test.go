package lint

import (
	"context"
	"path/filepath"
	"testing"
)

// TestImportLinterFunctional runs the configurations of import-linter's own
// functional tests (testdata/importlinter-functional, its tests/assets) and
// requires the outcome import-linter's test_lint_imports expects of each:
// kept (exit 0) or broken (exit 1), and an error (vouch's exit 2) where
// import-linter refuses the configuration. Differences are listed with
// their reason.
func TestImportLinterFunctional(t *testing.T) {
	const (
		kept   = "kept"
		broken = "broken"
		failed = "error"
	)
	base := filepath.Join("testdata", "importlinter-functional")
	tests := []struct {
		dir, config, want string
	}{
		{"testpackage", "setup.cfg", kept},
		{"testpackage", ".brokencontract.ini", broken},
		// A container outside the root package: import-linter exits 1
		// with "Invalid container"; vouch exits 2 with the position.
		{"testpackage", ".malformedcontract.ini", failed},
		{"testpackage", ".externalbrokencontract.ini", broken},
		{"multipleroots", ".multiplerootskeptcontract.ini", kept},
		{"multipleroots", ".multiplerootsbrokencontract.ini", broken},
		{"testpackage", ".setup.toml", kept},
		{"testpackage", ".externalkeptcontract.ini", kept},
		{"testpackage", ".externalkeptcontract.toml", kept},
		{"testpackage", "unmatched_ignore_imports_alerting/unspecified.ini", broken},
		{"testpackage", "unmatched_ignore_imports_alerting/error.ini", broken},
		{"testpackage", "unmatched_ignore_imports_alerting/warn.ini", kept},
		{"testpackage", "unmatched_ignore_imports_alerting/none.ini", kept},
		// The test puts locationone and locationtwo on sys.path; vouch
		// finds them from where the root packages lie.
		{"namespacepackages", "keptcontract_portion.ini", kept},
		{"namespacepackages", "keptcontract_namespace.ini", kept},
		{"namespacepackages", "brokencontract_portion.ini", broken},
		{"namespacepackages", "brokencontract_namespace.ini", broken},
		{"testpackage", ".typecheckkeptcontract.ini", kept},
		{"testpackage", ".typecheckbrokencontract.ini", broken},
		// Custom contract types are Python code vouch cannot run:
		// import-linter keeps the contract, vouch refuses to count a
		// file of unevaluated contracts as checked.
		{"testpackage", ".customkeptcontract.ini", failed},
		{"testpackage", ".customkeptcontract.toml", failed},
		{"cycles", ".keptcontract.ini", kept},
		{"cycles", ".brokencontract.ini", broken},
		// A root package that is one module file: an error in both.
		{"testpackage", ".singlefilemodulecontract.ini", failed},
	}
	for _, tt := range tests {
		t.Run(tt.dir+"/"+tt.config, func(t *testing.T) {
			root := filepath.Join(base, tt.dir)
			rep, err := Check(context.Background(), root, Config{File: filepath.Join(root, tt.config), NoCache: true, Out: t.TempDir(), RequiredBy: "--config", Remedy: "point --config at a file with rules"})
			got := kept
			switch {
			case err != nil:
				got = failed
			case rep.Summary.Errors > 0:
				got = broken
			}
			if got != tt.want {
				t.Errorf("outcome %s, want %s (error %v)", got, tt.want, err)
			}
		})
	}
}
