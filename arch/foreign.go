package arch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/vouch-dev/vouch/yamldoc"
)

// Origin records where a rule read from another tool's configuration came
// from and how vouch understood it, so `vouch lint --explain-config` can
// show the translation and findings can be grouped the way that tool
// groups them.
type Origin struct {
	// Tool is the tool whose configuration was read ("import-linter").
	Tool string
	// Group names the tool's own rule (an import-linter contract's name):
	// one foreign rule may become several vouch rules, and reports group
	// their findings under it.
	Group string
	// Pos locates the foreign rule (its section or entry).
	Pos Pos
	// Note says how the rule was understood, including every difference
	// in meaning from the tool's; one line per remark.
	Note []string
}

// ForeignFormat reads another tool's configuration file into a Model
// whose rules carry their Origin. Readers of further tools add an entry
// to ForeignFormats; Load then finds their files and --config accepts
// them, and --explain-config prints what they produced.
type ForeignFormat struct {
	// Tool names the tool, for messages.
	Tool string
	// Files are the file names looked for at the repository root, in
	// this order, when neither architecture.yaml nor .beadloom/_graph
	// exists. A file named so is this format's when Claims says so.
	Files []string
	// Claims reports whether file, whose bytes are data, holds this
	// tool's configuration: by its name for a file only the tool uses, by
	// its content for shared files such as setup.cfg and pyproject.toml.
	Claims func(file string, data []byte) bool
	// Parse reads the configuration. root is the repository root, which
	// files the configuration names (dependency-cruiser's extends) must
	// not leave; "" confines nothing. Errors are an ErrorList, each
	// positioned in file.
	Parse func(root, file string, data []byte) (*Model, error)
}

// ForeignFormats lists the other tools' configurations vouch reads, in
// the order they are looked for.
func ForeignFormats() []ForeignFormat {
	return []ForeignFormat{importLinterFormat(), DepcruiseFormat()}
}

// loadForeign reads file with the one of formats that claims it; it
// reports whether one did. named says the
// file was given explicitly (--config): a file named as a format's but
// not holding its section is then an error rather than vouch YAML.
func loadForeign(formats []ForeignFormat, root, file string, named bool) (*Model, bool, error) {
	base := filepath.Base(file)
	var byName *ForeignFormat
	for i := range formats {
		if slices.Contains(formats[i].Files, base) && byName == nil {
			byName = &formats[i]
		}
	}
	if byName == nil && !named {
		return nil, false, nil
	}
	data, err := readLimited(file)
	if err != nil {
		return nil, true, err
	}
	for _, f := range formats {
		if f.Claims(file, data) {
			m, err := f.Parse(root, file, data)
			if m != nil {
				m.record(file, data)
			}
			return m, true, err
		}
	}
	if byName != nil && named {
		return nil, true, ErrorList{{File: file, Msg: fmt.Sprintf("holds no %s configuration; add its section, or point --config at another file", byName.Tool)}}
	}
	return nil, false, nil
}

// findForeign looks for another tool's configuration at root, in the
// order of formats, and reads the first found; nil when there is none.
func findForeign(formats []ForeignFormat, root string) (*Model, error) {
	for _, f := range formats {
		for _, name := range f.Files {
			file := filepath.Join(root, name)
			st, err := os.Stat(file)
			if err != nil || st.IsDir() {
				continue
			}
			data, err := readLimited(file)
			if err != nil {
				var el ErrorList
				if errors.As(err, &el) {
					return nil, el
				}
				return nil, ErrorList{{File: file, Msg: "cannot read: " + yamldoc.Reason(err)}}
			}
			if !f.Claims(file, data) {
				continue
			}
			m, err := f.Parse(root, file, data)
			if m != nil {
				m.record(file, data)
			}
			return m, err
		}
	}
	return nil, nil
}
