package imports

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchCorpus loads the files under $envVar with one of exts, or, when the
// variable is unset, falls back to synthetic copies of sample so the
// benchmark always runs.
func benchCorpus(b *testing.B, envVar string, exts []string, sample string) ([][]byte, []string) {
	b.Helper()
	dir := os.Getenv(envVar)
	if dir == "" {
		var srcs [][]byte
		var names []string
		for i := range 200 {
			srcs = append(srcs, []byte(strings.Repeat(sample, 20)))
			names = append(names, "synthetic"+strings.Repeat("x", i%3)+exts[0])
		}
		return srcs, names
	}
	var srcs [][]byte
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				srcs = append(srcs, data)
				names = append(names, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return srcs, names
}

const jsBenchSample = `import React, {useState} from 'react';
import type {Props} from './types';
export * from './util';
const re = /['"]/g, half = total / 2;
const s = ` + "`hello ${name} ${require('./x')}`" + `;
function C(p: Props) { return <div className="a">{p.children} it's</div>; }
// a comment with import x from 'y'
`

// BenchmarkExtractJS measures extraction over $VOUCH_JS_CORPUS (e.g. a
// node_modules directory) when set, else over a synthetic sample.
func BenchmarkExtractJS(b *testing.B) {
	srcs, names := benchCorpus(b, "VOUCH_JS_CORPUS", []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}, jsBenchSample)
	var total int64
	for _, s := range srcs {
		total += int64(len(s))
	}
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		for i, s := range srcs {
			extractJS(s, strings.Contains(filepath.Ext(names[i]), "ts"))
		}
	}
	b.ReportMetric(float64(len(srcs))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}
