package imports

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestExtractRustForms(t *testing.T) {
	use := func(line, col int, spec, name, alias string) Site {
		return Site{Line: line, Column: col, Kind: KindUse, Spec: spec, Names: []string{name}, Alias: alias}
	}
	tests := []struct {
		name string
		src  string
		want []Site
	}{
		{"simple", "use std::io;", []Site{use(1, 10, "std::io", "io", "")}},
		{"nested groups", "use a::{b, c::{d, e as f}, self};", []Site{
			use(1, 9, "a::b", "b", ""), use(1, 16, "a::c::d", "d", ""),
			use(1, 19, "a::c::e", "e", "f"), use(1, 28, "a", "self", "")}},
		{"glob", "use a::b::*;", []Site{use(1, 11, "a::b", "*", "")}},
		{"rename", "use serde_json::Value as Json;", []Site{use(1, 17, "serde_json::Value", "Value", "Json")}},
		{"underscore rename", "use std::io::Write as _;", []Site{use(1, 14, "std::io::Write", "Write", "_")}},
		{"self leaf", "use std::io::{self, Read};", []Site{use(1, 15, "std::io", "self", ""), use(1, 21, "std::io::Read", "Read", "")}},
		{"leading colons", "use ::log::info;", []Site{use(1, 12, "::log::info", "info", "")}},
		{"pub use", "pub use crate::model::User;", []Site{use(1, 23, "crate::model::User", "User", "")}},
		{"pub crate use", "pub(crate) use super::x;", []Site{use(1, 23, "super::x", "x", "")}},
		{"pub in path use", "pub(in crate::a) use self::y;", []Site{use(1, 28, "self::y", "y", "")}},
		{"use in function", "fn main() {\n    use std::fmt::Write;\n}", []Site{use(2, 19, "std::fmt::Write", "Write", "")}},
		{"top-level group", "use {a::b, c};", []Site{use(1, 9, "a::b", "b", ""), use(1, 12, "c", "c", "")}},
		{"mod declaration", "mod parser;\npub mod lexer;", []Site{
			{Line: 1, Column: 5, Kind: KindMod, Spec: "parser", Names: []string{"parser"}},
			{Line: 2, Column: 9, Kind: KindMod, Spec: "lexer", Names: []string{"lexer"}}}},
		{"inline mod is not a file", "mod inner { fn f() {} }", nil},
		{"use in inline mod", "mod inner {\n    use crate::x::Y;\n}", []Site{use(2, 19, "crate::x::Y", "Y", "")}},
		{"super in test module is the file's module", "mod tests {\n    use super::*;\n    use self::helper::h;\n}", []Site{
			use(2, 16, "self", "*", ""), use(3, 23, "self::tests::helper::h", "h", "")}},
		{"double super in nested inline mod", "mod a { mod b { use super::super::c; } }", []Site{use(1, 35, "self::c", "c", "")}},
		{"super beyond inline mods", "mod a { use super::super::c; }", []Site{use(1, 27, "super::c", "c", "")}},
		{"mod inside inline mod", "mod a { mod b; }", []Site{{Line: 1, Column: 13, Kind: KindMod, Spec: "a::b", Names: []string{"b"}}}},
		{"path attribute", "#[path = \"sys/unix.rs\"]\n#[cfg(unix)]\npub(crate) mod sys;\nmod other;", []Site{
			{Line: 3, Column: 16, Kind: KindMod, Spec: "sys/unix.rs", Names: []string{"sys"}},
			{Line: 4, Column: 5, Kind: KindMod, Spec: "other", Names: []string{"other"}}}},
		{"path attribute escapes decoded", "#[path = \"../\\x2egit/x.rs\"]\nmod x;\n#[path = r\"a\\b.rs\"]\nmod y;", []Site{
			{Line: 2, Column: 5, Kind: KindMod, Spec: "../.git/x.rs", Names: []string{"x"}},
			{Line: 4, Column: 5, Kind: KindMod, Spec: "a\\b.rs", Names: []string{"y"}}}},
		{"path attribute under cfg_attr", "#[cfg_attr(feature = \"x\", path = \"../.vouch/e.yaml\", allow(dead_code))]\nmod x;\n#[cfg_attr(all(unix), cfg_attr(test, path = \"t.rs\"))]\nmod y;\n#[cfg_attr(path = \"no.rs\", allow(x))]\nmod z;", []Site{
			{Line: 2, Column: 5, Kind: KindMod, Spec: "../.vouch/e.yaml", Names: []string{"x"}},
			{Line: 4, Column: 5, Kind: KindMod, Spec: "t.rs", Names: []string{"y"}},
			{Line: 6, Column: 5, Kind: KindMod, Spec: "z", Names: []string{"z"}}}},
		{"path attribute applies to next item only", "#[path = \"x.rs\"]\nfn f() {}\nmod y;", []Site{
			{Line: 3, Column: 5, Kind: KindMod, Spec: "y", Names: []string{"y"}}}},
		{"extern crate", "extern crate foo;\nextern crate bar as baz;", []Site{
			{Line: 1, Column: 14, Kind: KindExternCrate, Spec: "foo"},
			{Line: 2, Column: 14, Kind: KindExternCrate, Spec: "bar", Alias: "baz"}}},
		{"strings", "let s = \"use a::b;\"; let r = r##\"use c::d; \"# mod e;\"##; let b = b\"mod f;\"; let br = br##\"use g;\"##;", nil},
		{"comments", "// use a;\n/* use b; /* nested */ mod c; */\n/// use d;\n//! mod e;\nuse f;", []Site{use(5, 5, "f", "f", "")}},
		{"char literal vs lifetime", "fn f<'a>(x: &'a str) -> char { '{' }\nuse q;\nlet c = '\"'; let d = '\\''; use r;", []Site{
			use(2, 5, "q", "q", ""), use(3, 32, "r", "r", "")}},
		// rustc compiles each of these with the `use` (checked with
		// rustc 2021): Pattern_White_Space separates tokens, and a
		// leading byte order mark is dropped.
		{"U+2028 before use", "let x = 1;\u2028use std::process;", []Site{use(1, 23, "std::process", "process", "")}},
		{"U+2029 before use", "let x = 1;\u2029use std::process;", []Site{use(1, 23, "std::process", "process", "")}},
		{"U+0085 before use", "let x = 1;\u0085use std::fs;", []Site{use(1, 22, "std::fs", "fs", "")}},
		{"U+200E and U+200F around use", "x;\u200euse\u200fstd::env;", []Site{use(1, 17, "std::env", "env", "")}},
		{"white space ends a number and a lifetime", "let n = 1\u2028; 'a\u2028: loop {}\u2028use a::b;", []Site{use(1, 39, "a::b", "b", "")}},
		{"byte order mark", "\ufeffuse std::process;", []Site{use(1, 10, "std::process", "process", "")}},
		{"byte order mark then shebang", "\ufeff#!/usr/bin/env run\nuse a;", []Site{use(2, 5, "a", "a", "")}},
		{"other non-ASCII stays in the name", "let x\u00e9use = 1; let \u00e9 = 2;", nil},
		{"raw identifier", "use r#mod::r#use;", []Site{use(1, 12, "mod::use", "use", "")}},
		{"macro_rules body skipped", "macro_rules! m { () => { use $crate::x; } }\nuse y;", []Site{use(2, 5, "y", "y", "")}},
		{"quote body skipped", "let t = quote! { use ::serde::Serialize; };\nlet u = quote_spanned! {span=> mod m; };", nil},
		{"other macro bodies scanned", "cfg_if::cfg_if! { if #[cfg(unix)] { use libc::c_int; mod unix; } }", []Site{
			use(1, 47, "libc::c_int", "c_int", ""),
			{Line: 1, Column: 58, Kind: KindMod, Spec: "unix", Names: []string{"unix"}}}},
		{"precise capturing is not a use", "fn f<'a>() -> impl Sized + use<'a> {}", nil},
		{"path segment named use", "let x = a::use_me::b;", nil},
		{"dollar crate", "use $crate::a;", []Site{use(1, 13, "$crate::a", "a", "")}},
		{"multi-line tree", "use std::{\n    collections::HashMap,\n    io,\n};", []Site{
			use(2, 18, "std::collections::HashMap", "HashMap", ""), use(3, 5, "std::io", "io", "")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := extractRust([]byte(tt.src))
			if len(errs) != 0 {
				t.Errorf("unexpected syntax errors: %v", errs)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("extractRust(%q) mismatch (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func TestExtractRustSyntaxErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []SyntaxError
	}{
		{"unterminated block comment", "use a;\n/* /* */", []SyntaxError{{Line: 2, Message: "unterminated block comment"}}},
		{"unterminated string", "use a;\nlet s = \"abc", []SyntaxError{{Line: 2, Message: "unterminated string literal"}}},
		{"unterminated raw string", "use a;\nlet s = r##\"abc\"#", []SyntaxError{{Line: 2, Message: "unterminated raw string literal"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sites, errs := extractRust([]byte(tt.src))
			if diff := cmp.Diff(tt.want, errs); diff != "" {
				t.Errorf("errors mismatch (-want +got):\n%s", diff)
			}
			if len(sites) != 1 || sites[0].Spec != "a" {
				t.Errorf("sites = %+v, want the one use of a", sites)
			}
		})
	}
}

func FuzzExtractRust(f *testing.F) {
	for _, s := range []string{
		"use a::{b, c::{d, e as f}, self};", "mod x;", "#[path = \"p.rs\"] mod y;", "extern crate z as w;",
		"r#\"", "'a'", "'a", "b'\\''", "/* /* */", "mod t { use super::*; }", "use {{{{", "macro_rules! m {",
		"#!/bin/x\nuse a;", "#![allow(x)]", "cr##\"x\"##",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sites, errs := extractRust(src)
		lines := 1
		for _, c := range src {
			if c == '\n' {
				lines++
			}
		}
		for _, s := range sites {
			if s.Line < 1 || s.Line > lines || s.Column < 1 || len(s.Names) == 0 && s.Kind != KindExternCrate {
				t.Fatalf("bad site %+v for a %d-line input", s, lines)
			}
		}
		for _, e := range errs {
			if e.Line < 1 || e.Line > lines {
				t.Fatalf("error %+v outside the %d-line input", e, lines)
			}
		}
		again, _ := extractRust(src)
		if !cmp.Equal(sites, again) {
			t.Fatalf("non-deterministic output")
		}
	})
}
