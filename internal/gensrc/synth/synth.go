// Package synth writes synthetic repositories for vouch's benchmarks: N
// source files in each of Go, Python, JavaScript, TypeScript and Rust, about
// 10 KB each, with import mixes like real projects (standard library,
// first-party, third-party, aliased, relative, nested and conditional
// imports) laid out so that every language's resolver has real work to do.
package synth

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Options configures Generate.
type Options struct {
	// FilesPerLang is the number of source files written per language.
	FilesPerLang int
	// TargetSize is the approximate size of each file in bytes; 0 means
	// 10 KiB.
	TargetSize int
	// Seed makes output reproducible; the same options give the same
	// repository byte for byte.
	Seed uint64
}

// Stats describes what Generate wrote.
type Stats struct {
	Files int   // all files, manifests included
	Bytes int64 // total bytes
}

// packagesPer is how many files share a package or directory.
const packagesPer = 20

// Generate writes a repository into dir, which must exist or be creatable.
func Generate(dir string, opts Options) (Stats, error) {
	if opts.TargetSize <= 0 {
		opts.TargetSize = 10 << 10
	}
	g := &gen{dir: dir, rng: rand.New(rand.NewPCG(opts.Seed, 0x766f756368)), opts: opts}
	g.write("go.mod", "module example.com/synth\n\ngo 1.22\n\nrequire (\n\tgithub.com/spf13/cobra v1.8.0\n\tgolang.org/x/sync v0.7.0\n\tgoogle.golang.org/grpc v1.64.0\n)\n")
	g.write("pyproject.toml", "[project]\nname = \"synth\"\n")
	g.write("package.json", "{\n  \"name\": \"synth\",\n  \"dependencies\": {\"react\": \"^18\", \"lodash\": \"^4\", \"@scope/ui\": \"^1\"}\n}\n")
	g.write("tsconfig.json", "{\n  \"compilerOptions\": {\"baseUrl\": \".\", \"paths\": {\"@app/*\": [\"web/*\"]}}\n}\n")
	n := opts.FilesPerLang
	for i := 0; i < n && g.err == nil; i++ {
		g.goFile(i)
		g.pyFile(i)
		g.jsFile(i, false)
		g.jsFile(i, true)
	}
	g.rust(n)
	return g.stats, g.err
}

type gen struct {
	dir   string
	rng   *rand.Rand
	opts  Options
	stats Stats
	err   error
}

func (g *gen) write(rel, content string) {
	if g.err != nil {
		return
	}
	p := filepath.Join(g.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		g.err = fmt.Errorf("creating directory for %s: %w", rel, err)
		return
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		g.err = fmt.Errorf("writing %s: %w", rel, err)
		return
	}
	g.stats.Files++
	g.stats.Bytes += int64(len(content))
}

func (g *gen) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

// pad appends body blocks until b reaches the target size.
func (g *gen) pad(b *strings.Builder, block func(i int) string) {
	for i := 0; b.Len() < g.opts.TargetSize; i++ {
		b.WriteString(block(i))
	}
}

var goStd = []string{"fmt", "os", "strings", "context", "errors", "io", "net/http", "encoding/json", "sync", "time", "path/filepath", "sort", "bytes", "strconv"}
var goExt = []string{"github.com/spf13/cobra", "golang.org/x/sync/errgroup", "google.golang.org/grpc/codes", "github.com/unknown/dep/v2/sub"}

func (g *gen) goFile(i int) {
	pkg := i / packagesPer
	var b strings.Builder
	if i%7 == 0 {
		b.WriteString("//go:build linux || darwin\n\n")
	}
	fmt.Fprintf(&b, "// Package p%d is synthetic.\npackage p%d\n\nimport (\n", pkg, pkg)
	for k := 0; k < 5+g.rng.IntN(6); k++ {
		fmt.Fprintf(&b, "\t%q\n", goStd[(i+k)%len(goStd)])
	}
	b.WriteString("\n")
	for k := 0; k < 1+g.rng.IntN(4); k++ {
		dep := g.rng.IntN(max(pkg, 1))
		fmt.Fprintf(&b, "\tdep%d \"example.com/synth/pkg/p%d\"\n", k, dep)
	}
	fmt.Fprintf(&b, "\t%q\n\t_ %q\n)\n\n", g.pick(goExt), "embed")
	g.pad(&b, func(k int) string {
		return fmt.Sprintf(`// handler%[1]d serves a synthetic request; it exists to make the file a
// realistic size for the extractor benchmarks.
func handler%[1]d_%[2]d(ctx context.Context, in []string) (map[string]int, error) {
	out := make(map[string]int, len(in))
	for i, s := range in {
		if strings.HasPrefix(s, "import") {
			return nil, fmt.Errorf("bad input %%q at %%d", s, i)
		}
		out[s] += i * %[1]d
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	return out, nil
}

`, k, i)
	})
	g.write(fmt.Sprintf("pkg/p%d/f%d.go", pkg, i), b.String())
}

var pyStd = []string{"os", "sys", "json", "re", "typing", "collections", "dataclasses", "itertools", "functools", "pathlib", "logging", "subprocess"}
var pyExt = []string{"numpy", "requests", "django.db.models", "yaml", "attr"}

func (g *gen) pyFile(i int) {
	pkg := i / packagesPer
	var b strings.Builder
	b.WriteString("\"\"\"Synthetic module.\n\nimport this_is_a_docstring\n\"\"\"\nfrom __future__ import annotations\n\n")
	for k := 0; k < 4+g.rng.IntN(5); k++ {
		fmt.Fprintf(&b, "import %s\n", pyStd[(i+k)%len(pyStd)])
	}
	fmt.Fprintf(&b, "from typing import TYPE_CHECKING, Any, Optional\nimport %s as ext\n", g.pick(pyExt))
	fmt.Fprintf(&b, "from synth.p%d import m%d\nfrom . import m%d as sibling\nfrom .. import shared\n", g.rng.IntN(max(pkg, 1)), i%packagesPer, (i+1)%packagesPer)
	b.WriteString("from .m0 import (\n    helper,\n    other as renamed,\n)\n\nif TYPE_CHECKING:\n    from synth.shared import Config\n\ntry:\n    import ujson as fastjson\nexcept ImportError:  # pragma: no cover\n    fastjson = None\n\n")
	g.pad(&b, func(k int) string {
		return fmt.Sprintf(`

class Handler%[1]d:
    """Handle things; 'import fake' inside a docstring is not an import."""

    def __init__(self, name: str, size: int = %[1]d) -> None:
        self.name = name
        self.size = size

    def run(self, items: list[str]) -> dict[str, Any]:
        import hashlib
        out = {}
        for i, item in enumerate(items):
            key = f"{self.name}-{item!r:>{self.size}}-{i}"
            out[key] = hashlib.sha1(key.encode()).hexdigest()
        return out
`, k)
	})
	g.write(fmt.Sprintf("src/synth/p%d/m%d.py", pkg, i%packagesPer), b.String())
	if i%packagesPer == 0 {
		g.write(fmt.Sprintf("src/synth/p%d/__init__.py", pkg), "")
		if i == 0 {
			g.write("src/synth/__init__.py", "")
			g.write("src/synth/shared.py", "class Config:\n    pass\n")
		}
	}
}

var jsExt = []string{"react", "lodash", "@scope/ui", "node:fs", "path", "express"}

func (g *gen) jsFile(i int, ts bool) {
	pkg := i / packagesPer
	ext, top := ".js", "web"
	if ts {
		ext, top = ".ts", "web"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// Synthetic module %d.\nimport React, { useState } from 'react';\nimport * as _ from 'lodash';\nimport { Button } from '%s';\n", i, g.pick(jsExt))
	fmt.Fprintf(&b, "import { helper%d } from './m%d%s';\nimport util from '../c%d/m0%s';\n", i, (i+1)%packagesPer, ext, g.rng.IntN(max(pkg, 1)), ext)
	if ts {
		fmt.Fprintf(&b, "import type { Props } from '@app/c%d/m0';\nexport * from './m%d';\n", pkg, (i+2)%packagesPer)
	} else {
		b.WriteString("const fs = require('fs');\nconst cfg = require('./config.json');\n")
	}
	b.WriteString("const lazy = () => import('./lazy');\n\n")
	g.pad(&b, func(k int) string {
		return fmt.Sprintf("export function widget%[1]d(props) {\n  const [n, setN] = useState(%[1]d);\n  const s = `import ${props.name} from 'x'`; // not an import\n  const re = /import\\s+from/g;\n  return _.map(props.items, (x, i) => x + n + i + s.length + re.lastIndex);\n}\n\n", k)
	})
	g.write(fmt.Sprintf("%s/c%d/m%d%s", top, pkg, i%packagesPer, ext), b.String())
}

func (g *gen) rust(n int) {
	crates := (n + packagesPer - 1) / packagesPer
	var ws strings.Builder
	ws.WriteString("[workspace]\nmembers = [\n")
	for c := 0; c < crates; c++ {
		fmt.Fprintf(&ws, "  \"crates/c%d\",\n", c)
	}
	ws.WriteString("]\n")
	g.write("Cargo.toml", ws.String())
	for c := 0; c < crates && g.err == nil; c++ {
		count := min(packagesPer, n-c*packagesPer)
		g.write(fmt.Sprintf("crates/c%d/Cargo.toml", c), fmt.Sprintf("[package]\nname = \"c%d\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n", c))
		var lib strings.Builder
		for m := 1; m < count; m++ {
			fmt.Fprintf(&lib, "pub mod m%d;\n", m)
		}
		lib.WriteString("\nuse std::collections::HashMap;\nuse serde::{Deserialize, Serialize};\n\n")
		g.pad(&lib, func(k int) string { return rustFn(k) })
		g.write(fmt.Sprintf("crates/c%d/src/lib.rs", c), lib.String())
		for m := 1; m < count; m++ {
			var b strings.Builder
			fmt.Fprintf(&b, "//! Synthetic module.\nuse std::{collections::{HashMap, HashSet}, fmt, io::{self, Write}};\nuse crate::m%d;\nuse super::*;\nuse serde::Serialize as Ser;\n", max(1, m-1))
			if c > 0 {
				fmt.Fprintf(&b, "use c%d::m1;\n", g.rng.IntN(c))
			}
			b.WriteString("\n")
			g.pad(&b, func(k int) string { return rustFn(k) })
			g.write(fmt.Sprintf("crates/c%d/src/m%d.rs", c, m), b.String())
		}
	}
}

func rustFn(k int) string {
	return fmt.Sprintf(`/// Counts words; "use fake::path;" in a string is not an import.
pub fn count_%[1]d<'a>(words: &[&'a str]) -> HashMap<&'a str, usize> {
    let mut out = HashMap::new();
    for w in words {
        *out.entry(*w).or_insert(0) += %[1]d;
    }
    let _s = r#"use not::real;"#;
    out
}

`, k)
}
