package repofacts

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vouch-dev/vouch/imports"
)

// TestJSAssetExts keeps jsAssetExts in step with the files vouch imports
// follows: a required file with one of them is not read as JavaScript
// there, and one with another extension is, so repository facts and
// vouch imports read the same files.
func TestJSAssetExts(t *testing.T) {
	exts := []string{".txt", ".dat", ".yaml", ".sh", ""}
	for e := range jsAssetExts {
		exts = append(exts, e)
	}
	slices.Sort(exts)
	for _, ext := range exts {
		t.Run(ext, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "a.js"), []byte(`require("./x`+ext+`")`+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "x"+ext), []byte(`require("zz")`+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := imports.Scan(context.Background(), dir, imports.Options{NoCache: true})
			if err != nil {
				t.Fatal(err)
			}
			followed := slices.Contains(res.Files, "x"+ext)
			if followed == jsAssetExts[ext] {
				t.Errorf("vouch imports follows x%s: %v; jsAssetExts has it: %v", ext, followed, jsAssetExts[ext])
			}
		})
	}
}
