package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/imports"
)

// parityRepo is a repository with architecture findings of every
// severity, plus a passing envelope.
var parityRepo = map[string]string{
	"vouch.yaml": "architecture:\n  config: architecture.yaml\n",
	"architecture.yaml": `nodes:
  - {ref_id: billing, kind: domain, source: src/billing}
  - {ref_id: auth, kind: domain, source: src/auth}
  - {ref_id: shop, kind: domain, source: src/shop}
rules:
  - name: billing-auth-boundary
    reason: use events
    deny: {from: {ref_id: billing}, to: {ref_id: auth}}
  - name: shop-auth
    severity: warn
    deny: {from: {ref_id: shop}, to: {ref_id: auth}}
`,
	"src/billing/invoice.py":  "from src.auth import tokens\nfrom src.shop import cart\n",
	"src/shop/cart.py":        "from src.auth import tokens\nfrom src.billing import invoice\n",
	"src/auth/tokens.py":      "X = 1\n",
	"src/auth/__init__.py":    "",
	"analysis/rulespec.yaml":  "claims:\n  - {name: summary, selector: summary}\npredicates:\n  - {claim: summary, rule: exists}\n",
	".vouch/envelope.yaml":    "facts:\n  summary: done\n",
	"src/billing/__init__.py": "",
	"src/shop/__init__.py":    "",
}

// TestLintGateParity: vouch lint and vouch gate run the one architecture
// pipeline, so on the same repository they report identical findings,
// with the import cache and with --no-cache.
func TestLintGateParity(t *testing.T) {
	dir := t.TempDir()
	for name, text := range parityRepo {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	type findings struct {
		Findings []map[string]any `json:"findings"`
		Summary  map[string]any   `json:"summary"`
	}
	runJSON := func(args ...string) findings {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"vouch"}, args...), &stdout, &stderr)
		if code == exitError {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		var got struct {
			findings
			Lint *findings `json:"lint"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stdout.String())
		}
		if got.Lint != nil {
			got.findings = *got.Lint
		}
		delete(got.Summary, "elapsed_ms")
		return got.findings
	}
	for _, noCache := range []bool{false, true} {
		var extra []string
		if noCache {
			extra = []string{"--no-cache"}
		}
		lint := runJSON(append([]string{"lint", "--format", "json"}, extra...)...)
		gate := runJSON(append([]string{"gate", "--format", "json"}, extra...)...)
		if len(lint.Findings) < 2 {
			t.Fatalf("no-cache=%v: lint found %d findings, want the violation and the warning: %v", noCache, len(lint.Findings), lint.Findings)
		}
		if diff := cmp.Diff(lint, gate); diff != "" {
			t.Errorf("no-cache=%v: lint and gate disagree (-lint +gate):\n%s", noCache, diff)
		}
	}
	// The cache is kept outside the repository, where the work cannot
	// plant entries.
	if found, _ := filepath.Glob(filepath.Join(os.Getenv(imports.CacheDirEnv), "imports", "*", "imports.bin")); len(found) == 0 {
		t.Errorf("the cached runs wrote no import cache under $%s", imports.CacheDirEnv)
	}
	if _, err := os.Stat(filepath.Join(dir, ".vouch", "cache", "imports.bin")); err == nil {
		t.Errorf("the cached runs wrote an import cache into the working tree")
	}
}
