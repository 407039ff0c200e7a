package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/imports"
	"github.com/vouch-dev/vouch/internal/junittest"
)

// update rewrites golden files (lint/testdata/*.json) instead of comparing
// against them: go test ./lint/ -update.
var update = flag.Bool("update", false, "rewrite golden files")

var (
	binDir   string
	binOnce  sync.Once
	binPath  string
	binError error
)

func TestMain(m *testing.M) {
	flag.Parse()
	// The import cache goes to a directory of the run's own, not the
	// user's (the built binary inherits it).
	cache, err := os.MkdirTemp("", "vouch-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(imports.CacheDirEnv, cache)
	code := m.Run()
	os.RemoveAll(cache)
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// vouchBinary builds cmd/vouch once per test binary, so the CLI tests here
// check the command's real output.
func vouchBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			binError = err
			return
		}
		if binDir, err = os.MkdirTemp("", "vouch-lint-test-"); err != nil {
			binError = err
			return
		}
		binPath = filepath.Join(binDir, "vouch")
		cmd := exec.Command(goTool, "build", "-o", binPath, "github.com/vouch-dev/vouch/cmd/vouch")
		if out, err := cmd.CombinedOutput(); err != nil {
			binError = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if errors.Is(binError, exec.ErrNotFound) {
		t.Skip("no go tool to build vouch:", binError)
	}
	if binError != nil {
		t.Fatal(binError)
	}
	return binPath
}

// runVouch runs vouch in dir and returns its stdout and exit code.
func runVouch(t *testing.T, dir string, args ...string) ([]byte, int) {
	t.Helper()
	cmd := exec.Command(vouchBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return stdout.Bytes(), 0
	case errors.As(err, &ee):
		return stdout.Bytes(), ee.ExitCode()
	}
	t.Fatalf("vouch %q: %v\n%s", args, err, stderr.Bytes())
	return nil, 0
}

// fixture copies testdata/lint/NAME into a temporary directory, so runs
// write their .vouch directory there rather than into the repository.
func fixture(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "lint", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// elapsed is the only field of the JSON report that varies between runs.
var elapsed = regexp.MustCompile(`"elapsed_ms": \d+`)

// TestCLIJSONGolden pins `vouch lint --format json` on testdata/lint/basic
// to lint/testdata/basic.json, the contract docs/lint.md documents. The
// report is deterministic except summary.elapsed_ms, which is written as 0
// in the golden and zeroed before comparing.
func TestCLIJSONGolden(t *testing.T) {
	dir := fixture(t, "basic")
	args := []string{"lint", "--format", "json", "--today", "2025-01-01", "--no-cache"}
	got, code := runVouch(t, dir, args...)
	if code != 1 {
		t.Fatalf("exit code = %d, want 1 (findings)\n%s", code, got)
	}
	if !elapsed.Match(got) {
		t.Fatalf("no summary.elapsed_ms in\n%s", got)
	}
	got = elapsed.ReplaceAll(got, []byte(`"elapsed_ms": 0`))
	golden := filepath.Join("testdata", "basic.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./lint/ -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("vouch lint --format json (-%s +got); if intended, run go test ./lint/ -update and update docs/lint.md:\n%s", golden, diff)
	}

	// A second run (the .vouch directory now exists) gives the same report.
	again, _ := runVouch(t, dir, args...)
	if diff := cmp.Diff(string(got), string(elapsed.ReplaceAll(again, []byte(`"elapsed_ms": 0`)))); diff != "" {
		t.Errorf("JSON report differs between runs (-first +second):\n%s", diff)
	}

	// Every key the report emits is documented in docs/lint.md's JSON schema.
	var v any
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "lint.md"))
	if err != nil {
		t.Fatal(err)
	}
	var undocumented []string
	for _, k := range jsonKeys(v, nil) {
		if !bytes.Contains(doc, []byte(`"`+k+`":`)) && !slices.Contains(undocumented, k) {
			undocumented = append(undocumented, k)
		}
	}
	if len(undocumented) > 0 {
		t.Errorf("JSON keys missing from docs/lint.md's schema: %q", undocumented)
	}
}

// jsonKeys lists every object key in v, depth first.
func jsonKeys(v any, out []string) []string {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			out = append(jsonKeys(e, out), k)
		}
	case []any:
		for _, e := range v {
			out = jsonKeys(e, out)
		}
	}
	return out
}

// TestCLIJUnitGolden pins `vouch lint --format junit` on testdata/lint/basic
// to lint/testdata/basic.junit.xml and checks it against the JUnit schema's
// rules (internal/junittest), for findings, a clean run and a
// configuration error.
func TestCLIJUnitGolden(t *testing.T) {
	for _, tc := range []struct {
		name, arch, golden string
		code               int
	}{
		{name: "findings", golden: "basic.junit.xml", code: 1},
		{name: "clean", arch: "nodes:\n  - {ref_id: cli, kind: service, source: src/cli}\n  - {ref_id: auth, kind: domain, source: src/auth}\n" +
			"rules:\n  - {name: cli-not-auth, deny: {from: {ref_id: cli}, to: {ref_id: auth}}}\n", golden: "clean.junit.xml"},
		{name: "config error", arch: "rules:\n  - {name: x, deny: {frm: {}}}\n", golden: "error.junit.xml", code: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := fixture(t, "basic")
			if tc.arch != "" {
				if err := os.WriteFile(filepath.Join(dir, "architecture.yaml"), []byte(tc.arch), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, code := runVouch(t, dir, "lint", "--format", "junit", "--today", "2025-01-01", "--no-cache")
			if code != tc.code {
				t.Fatalf("exit code = %d, want %d\n%s", code, tc.code, got)
			}
			junittest.Validate(t, got)
			golden := filepath.Join("testdata", tc.golden)
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./lint/ -update)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("vouch lint --format junit (-%s +got); if intended, run go test ./lint/ -update:\n%s", golden, diff)
			}
		})
	}
}
