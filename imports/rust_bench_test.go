package imports

import "testing"

const rustBenchSample = `use std::collections::{HashMap, hash_map::Entry as E};
use crate::model::{self, User};
#[path = "sys/unix.rs"] mod sys;
/* block /* nested */ comment */
fn f<'a>(x: &'a str) -> char { let _ = r#"use fake;"#; 'x' }
mod tests { use super::*; }
`

// BenchmarkExtractRust measures extraction over $VOUCH_RUST_CORPUS (e.g.
// a cargo registry source directory) when set, else over a synthetic
// sample.
func BenchmarkExtractRust(b *testing.B) {
	srcs, _ := benchCorpus(b, "VOUCH_RUST_CORPUS", []string{".rs"}, rustBenchSample)
	var total int64
	for _, s := range srcs {
		total += int64(len(s))
	}
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		for _, s := range srcs {
			extractRust(s)
		}
	}
	b.ReportMetric(float64(len(srcs))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}
