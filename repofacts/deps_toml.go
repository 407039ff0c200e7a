package repofacts

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// decodeTOML parses a TOML document with a complete TOML parser: a
// hand-written reader of "[table]" and "key = value" lines misfiles what
// follows a multi-line string, an inline table or a dotted key, and a
// manifest the agent writes must be read as its tool reads it.
func decodeTOML(file string, data []byte) (map[string]any, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		var pe toml.ParseError
		var ppe *toml.ParseError
		switch {
		case errors.As(err, &pe):
		case errors.As(err, &ppe):
			pe = *ppe
		default:
			return nil, &manifestError{file: file, msg: err.Error()}
		}
		return nil, &manifestError{file: file, line: pe.Position.Line, col: pe.Position.Col, msg: pe.Message}
	}
	return doc, nil
}

// tomlFields renders the fields of a table that are present, in the
// order given: `git = "https://…", branch = "main"`.
func tomlFields(t map[string]any, keys ...string) string {
	var parts []string
	for _, k := range keys {
		if v, ok := t[k]; ok {
			parts = append(parts, k+" = "+tomlText(v))
		}
	}
	return strings.Join(parts, ", ")
}

func tomlText(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

func table(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// --- Cargo ---

// cargoTables are the dependency tables Cargo reads at the top level and
// under each target (the _ spellings are older Cargo's).
var cargoTables = []string{"dependencies", "dev-dependencies", "dev_dependencies", "build-dependencies", "build_dependencies"}

// cargoSourceKeys say where a dependency's code comes from.
var cargoSourceKeys = []string{"git", "branch", "tag", "rev", "path", "registry", "registry-index"}

// cargo reads every dependency table however it is written (a [table], an
// inline table, dotted keys, under target.'cfg(…)'), workspace
// dependencies, [patch.*] and [replace]. A dependency renamed with
// package = is the package it names.
func (c *collector) cargo(file string, data []byte) error {
	doc, err := decodeTOML(file, data)
	if err != nil {
		return err
	}
	for _, t := range cargoTables {
		c.cargoTable(file, doc[t], "")
	}
	targets := table(doc["target"])
	for _, name := range sortedKeys(targets) {
		tt := table(targets[name])
		for _, t := range cargoTables {
			c.cargoTable(file, tt[t], "")
		}
	}
	c.cargoTable(file, table(doc["workspace"])["dependencies"], "")
	patch := table(doc["patch"])
	for _, reg := range sortedKeys(patch) {
		c.cargoTable(file, patch[reg], "patch."+reg)
	}
	replace := table(doc["replace"])
	for _, id := range sortedKeys(replace) {
		c.cargoDep(file, cargoSpecName(id), replace[id], "replace."+id)
	}
	return nil
}

func (c *collector) cargoTable(file string, v any, via string) {
	t := table(v)
	for _, k := range sortedKeys(t) {
		c.cargoDep(file, k, t[k], via)
	}
}

// cargoDep records one dependency. via names a [patch] or [replace]
// entry: every field is then its origin, so any change to it is seen.
func (c *collector) cargoDep(file, key string, v any, via string) {
	switch v := v.(type) {
	case string:
		origin := ""
		if via != "" {
			origin = via + ": " + strconv.Quote(v)
		}
		c.add(file, EcoCargo, key, v, origin)
	case map[string]any:
		name := key
		if p, ok := v["package"].(string); ok && p != "" {
			name = p
		}
		version, _ := v["version"].(string)
		origin := tomlFields(v, cargoSourceKeys...)
		if origin != "" {
			version = tomlFields(v, append([]string{"version"}, cargoSourceKeys...)...)
		} else if ws, _ := v["workspace"].(bool); ws && version == "" {
			version = "workspace = true"
		}
		if via != "" {
			origin = via + ": " + tomlFields(v, append([]string{"version", "package"}, cargoSourceKeys...)...)
		}
		if c.add(file, EcoCargo, name, version, origin) && name != key {
			c.out[len(c.out)-1].importAs = key
		}
	default:
		c.add(file, EcoCargo, key, "", via)
	}
}

// cargoSpecName is the crate a [replace] package id names:
// "foo:0.1.0", "foo@0.1.0", "https://…#foo:0.1.0".
func cargoSpecName(id string) string {
	if i := strings.LastIndex(id, "#"); i >= 0 {
		id = id[i+1:]
	}
	if i := strings.IndexAny(id, ":@"); i >= 0 {
		id = id[:i]
	}
	return id
}

// --- pyproject.toml ---

// pyproject reads PEP 621's [project] dependencies and optional
// dependencies, [build-system] requires, PEP 735 [dependency-groups],
// Poetry's dependency tables (main, dev and every group) and uv's
// dev-dependencies, override-dependencies and sources.
func (c *collector) pyproject(file string, data []byte) error {
	doc, err := decodeTOML(file, data)
	if err != nil {
		return err
	}
	project := table(doc["project"])
	c.pyList(file, project["dependencies"])
	opt := table(project["optional-dependencies"])
	for _, k := range sortedKeys(opt) {
		c.pyList(file, opt[k])
	}
	c.pyList(file, table(doc["build-system"])["requires"])
	groups := table(doc["dependency-groups"])
	for _, k := range sortedKeys(groups) {
		c.pyList(file, groups[k])
	}
	tool := table(doc["tool"])
	poetry := table(tool["poetry"])
	c.poetryTable(file, poetry["dependencies"])
	c.poetryTable(file, poetry["dev-dependencies"])
	pg := table(poetry["group"])
	for _, g := range sortedKeys(pg) {
		c.poetryTable(file, table(pg[g])["dependencies"])
	}
	uv := table(tool["uv"])
	c.pyList(file, uv["dev-dependencies"])
	c.pyList(file, uv["override-dependencies"])
	sources := table(uv["sources"])
	for _, n := range sortedKeys(sources) {
		for _, s := range tableList(sources[n]) {
			f := tomlFields(s, "git", "branch", "tag", "rev", "path", "url", "index", "workspace", "editable", "subdirectory", "marker")
			c.add(file, EcoPython, n, f, "tool.uv.sources: "+f)
		}
	}
	return nil
}

// pyList records an array of PEP 508 requirements; other elements (a
// dependency group's {include-group = …}) name none.
func (c *collector) pyList(file string, v any) {
	list, _ := v.([]any)
	for _, e := range list {
		if s, ok := e.(string); ok {
			n, ver, origin := pep508(s)
			c.add(file, EcoPython, n, ver, origin)
		}
	}
}

var poetrySourceKeys = []string{"git", "branch", "tag", "rev", "path", "url", "source", "subdirectory"}

// poetryTable records a Poetry dependency table: name = "constraint",
// name = {version, git, path, url, …}, or a list of such tables.
func (c *collector) poetryTable(file string, v any) {
	t := table(v)
	for _, k := range sortedKeys(t) {
		if k == "python" {
			continue
		}
		items, ok := t[k].([]any)
		if !ok {
			items = []any{t[k]}
		}
		for _, it := range items {
			switch it := it.(type) {
			case string:
				c.add(file, EcoPython, k, it, "")
			case map[string]any:
				version, _ := it["version"].(string)
				origin := tomlFields(it, poetrySourceKeys...)
				if origin != "" {
					version = tomlFields(it, append([]string{"version"}, poetrySourceKeys...)...)
				}
				c.add(file, EcoPython, k, version, origin)
			default:
				c.add(file, EcoPython, k, "", "")
			}
		}
	}
}

// tableList is a table, or the tables of an array.
func tableList(v any) []map[string]any {
	switch v := v.(type) {
	case map[string]any:
		return []map[string]any{v}
	case []map[string]any:
		return v
	case []any:
		var out []map[string]any
		for _, e := range v {
			if m, ok := e.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	return nil
}
