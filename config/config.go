// Package config reads vouch.yaml, the optional repository configuration,
// and finds the repository root that every command resolves paths under.
//
// The root is the directory holding vouch.yaml, found upward from the
// working directory; else the git top level (the nearest directory with a
// .git entry); else the working directory. Paths in vouch.yaml are relative
// to the root. Command-line flags override the file.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/vouch-dev/vouch/envelope"
	"github.com/vouch-dev/vouch/suggest"
	"github.com/vouch-dev/vouch/yamldoc"
)

// FileName is the configuration file's name at the repository root.
const FileName = "vouch.yaml"

// MaxBytes caps the size of vouch.yaml: it is a handful of settings.
const MaxBytes = 1 << 20

// Defaults for settings the file leaves out.
const (
	DefaultRulespec = "analysis/rulespec.yaml"
	DefaultEnvelope = ".vouch/envelope.yaml"
)

// Config is the repository configuration with defaults filled in. Paths
// are joined to Root, so they work from the working directory as they are.
type Config struct {
	// File is the vouch.yaml that was read, or "" when there is none.
	File string
	// SHA256 is the hex sha256 of the bytes of File that were parsed, so
	// a receipt records exactly the configuration the gate ran under.
	SHA256 string
	// Root is the repository root, relative to the working directory when
	// it was discovered (".", "..", ...).
	Root string
	// Rulespec and Envelope are the default rulespec and envelope paths.
	Rulespec, Envelope string
	// Out is the directory for artifacts and the receipt; "" means the
	// envelope's directory.
	Out string
	// Strict turns vacuous passes into failures.
	Strict bool
	// Base is the base revision repository facts compare the working
	// tree with (`base:`); "" means the merge-base with the default
	// branch's upstream, else HEAD when the repository has no remote.
	// --base overrides it.
	Base string
	// BaseLine and BaseCol locate base: for messages.
	BaseLine, BaseCol int
	// Limits bound the envelope; zero fields mean the defaults.
	Limits envelope.Limits
	// Architecture is the architecture: section, nil when the file has
	// none. With it, `vouch gate` also evaluates the architecture rules.
	Architecture *Architecture
	// Guard is the guard: section, nil when the file has none.
	Guard *Guard
}

// Guard configures `vouch guard`.
type Guard struct {
	// Policy is the guard policy file, joined to the root; "" means the
	// default .vouch/guard.yaml. A policy written in vouch.yaml itself
	// (guard.policy holds the ruleset, not a path) is this file's path
	// followed by InlinePolicy.
	Policy string
	// Principal is who the agent acts for, as selectors principal.*
	// read it; VOUCH_PRINCIPAL overrides it.
	Principal map[string]any
}

// Architecture configures the architecture rules (`vouch lint`, and the
// gate when the section is present).
type Architecture struct {
	// Config is the architecture file (architecture.yaml style), a
	// .beadloom/_graph directory or its rules.yml, joined to the root; ""
	// means vouch lint's search: architecture.yaml, else .beadloom/_graph.
	Config string
	// Baseline is the JSON file of accepted findings, joined to the root;
	// "" means none.
	Baseline string
	// BaselineFile, BaselineLine and BaselineCol locate the
	// architecture.baseline value in vouch.yaml, for messages about the
	// file it names.
	BaselineFile              string
	BaselineLine, BaselineCol int
	// Strict makes warnings (and inert rules) fail.
	Strict bool
	// Observe reports architecture findings in the gate without blocking
	// (mode: observe).
	Observe bool
	// NewFrom is the git revision `vouch lint` reports new findings
	// since (architecture.new_from; --new-from-rev overrides it); "" for
	// every finding.
	NewFrom string
	// NewFromAt is where NewFrom is written, file:line:col, for messages.
	NewFromAt string
	// Line and Col locate the architecture: key, for messages.
	Line, Col int
}

// Architecture modes.
const (
	ModeEnforce = "enforce"
	ModeObserve = "observe"
)

// Error is one problem in vouch.yaml, at file:line:col.
type Error = yamldoc.Error

// ErrorList is every problem found in one file, in file order.
type ErrorList = yamldoc.ErrorList

// Load finds the root from wd (or takes root when it is not empty, as
// --root does) and reads root/vouch.yaml if it exists. A malformed file is
// an ErrorList; a file that cannot be read is a plain error.
//
// The paths in the result (Root, File, and those vouch.yaml names) are
// relative to wd, as a command run in wd uses them, and root is taken
// relative to wd too; files are read there. With wd "." that is the
// working directory; a server answering for a client passes the client's
// directory, so its messages name the same paths a run there would.
func Load(wd, root string) (*Config, error) {
	// "." reads paths exactly as given, as Load always has.
	base := wd
	if wd == "." {
		base = ""
	}
	at := func(p string) string { return yamldoc.At(base, p) }
	file := ""
	if root == "" {
		var err error
		if root, file, err = Discover(wd); err != nil {
			return nil, err
		}
	} else {
		st, err := os.Stat(at(root))
		if err != nil {
			return nil, fmt.Errorf("--root %s: %w", root, err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("--root %s: not a directory", root)
		}
		// Anything at the name counts: a directory or a named pipe called
		// vouch.yaml is an error below, never a silent fall back to the
		// defaults (which would drop strict: and architecture:).
		if _, err := os.Lstat(at(filepath.Join(root, FileName))); err == nil {
			file = filepath.Join(root, FileName)
		}
	}
	if file == "" {
		// Without vouch.yaml the defaults are still under the root, so
		// every command finds the same rulespec and envelope from any
		// subdirectory. Paths given on the command line stay relative
		// to the working directory.
		return defaults(root), nil
	}
	// Opened under the root (a symlink cannot pull in another project's
	// configuration), without blocking, regular files only.
	f, err := yamldoc.ReadFileAt(base, file, "vouch.yaml", MaxBytes, root)
	if err != nil {
		return nil, err
	}
	cfg, err := Parse(file, root, f.Data)
	if err != nil {
		return nil, err
	}
	cfg.SHA256 = f.SHA256
	return cfg, nil
}

// LoadRoot is Load as every command's --root flag asks for it: from the
// working directory, or under root when rootSet (an empty --root is
// refused rather than read as "find it"). Errors say which input was
// wrong, so each command words them the same way.
func LoadRoot(root string, rootSet bool) (*Config, error) {
	if rootSet && root == "" {
		return nil, errors.New("--root is empty")
	}
	cfg, err := Load(".", root)
	if err != nil {
		return nil, fmt.Errorf("invalid configuration:\n%w", err)
	}
	return cfg, nil
}

// Discover walks up from wd. It returns root relative to wd, and the path
// of vouch.yaml when one was found.
func Discover(wd string) (root, file string, err error) {
	abs, err := filepath.Abs(wd)
	if err != nil {
		return "", "", fmt.Errorf("find the repository root: %w", err)
	}
	rel := func(dir string) string {
		r, err := filepath.Rel(abs, dir)
		if err != nil {
			return dir
		}
		return r
	}
	gitTop := ""
	for dir := abs; ; {
		// Whatever is at the name is the configuration: Load refuses a
		// directory or a named pipe rather than running with defaults.
		if _, err := os.Lstat(filepath.Join(dir, FileName)); err == nil {
			r := rel(dir)
			return r, filepath.Join(r, FileName), nil
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			// A vouch.yaml above the git top level belongs to another
			// project: stop here.
			gitTop = dir
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if gitTop != "" {
		return rel(gitTop), "", nil
	}
	return ".", "", nil
}

func defaults(root string) *Config {
	return &Config{
		Root:     root,
		Rulespec: filepath.Join(root, DefaultRulespec),
		Envelope: filepath.Join(root, DefaultEnvelope),
		Limits:   envelope.DefaultLimits(),
	}
}

// Keys are the settings vouch.yaml may hold, for did-you-mean hints.
var (
	topKeys    = []string{"architecture", "base", "envelope", "guard", "limits", "out", "rulespec", "strict"}
	guardKeys  = []string{"policy", "principal"}
	limitsKeys = []string{"max_depth", "max_envelope_bytes"}
	archKeys   = []string{"baseline", "config", "mode", "new_from", "strict"}
	archModes  = []string{ModeEnforce, ModeObserve}
)

// Parse reads vouch.yaml's text. file names it in errors; root is the
// directory its paths are relative to. Every problem is reported at once.
func Parse(file, root string, data []byte) (cfg *Config, err error) {
	defer func() {
		// yaml.v3 has panicked on hostile input before; a config file must
		// never crash vouch.
		if r := recover(); r != nil {
			cfg, err = nil, ErrorList{{File: file, Msg: fmt.Sprintf("not valid YAML: %v", r)}}
		}
	}()
	cfg = defaults(root)
	cfg.File = file
	top, err := yamldoc.Decode(file, data, "vouch.yaml")
	if err != nil {
		return nil, err
	}
	if top == nil {
		return cfg, nil // an empty vouch.yaml marks the root and sets nothing
	}
	p := &parser{Parser: yamldoc.Parser{File: file}}
	for k, v := range p.fields(top, "vouch.yaml", topKeys) {
		switch k {
		case "rulespec":
			if s, ok := p.path(v, k); ok {
				cfg.Rulespec = filepath.Join(root, s)
			}
		case "envelope":
			if s, ok := p.path(v, k); ok {
				cfg.Envelope = filepath.Join(root, s)
			}
		case "out":
			if s, ok := p.path(v, k); ok {
				cfg.Out = filepath.Join(root, s)
			}
		case "strict":
			cfg.Strict, _ = p.boolean(v, k)
		case "base":
			if s, ok := p.revision(v, k); ok {
				cfg.Base, cfg.BaseLine, cfg.BaseCol = s, v.Line, v.Column
			}
		case "architecture":
			cfg.Architecture = p.architecture(v, root)
		case "guard":
			cfg.Guard = p.guard(v, root, file)
		case "limits":
			for lk, lv := range p.fields(v, "limits", limitsKeys) {
				n, ok := p.positive(lv, lk)
				if !ok {
					continue
				}
				switch lk {
				case "max_envelope_bytes":
					cfg.Limits.MaxBytes = n
				case "max_depth":
					if n > envelope.HardMaxDepth {
						p.Errorf(lv, "max_depth %d is above the hard limit %d", n, envelope.HardMaxDepth)
						continue
					}
					cfg.Limits.MaxDepth = int(n)
				}
			}
		}
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	return cfg, nil
}

type parser struct {
	yamldoc.Parser
}

// fields is yamldoc's mapping walk, refusing aliases: vouch.yaml is a few
// settings, and an alias there is more likely a mistake than a shortcut.
func (p *parser) fields(n *yaml.Node, what string, known []string) map[string]*yaml.Node {
	out := p.Fields(n, what, known)
	for k, v := range out {
		if v.Kind == yaml.AliasNode {
			p.Errorf(v, "aliases are not supported in %s; write the value out", what)
			delete(out, k)
		}
	}
	return out
}

func (p *parser) path(v *yaml.Node, key string) (string, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" || v.Value == "" {
		p.Errorf(v, "%s must be a path relative to the repository root, found %s", key, yamldoc.KindName(v))
		return "", false
	}
	if filepath.IsAbs(v.Value) {
		p.Errorf(v, "%s must be relative to the repository root, found the absolute path %q", key, v.Value)
		return "", false
	}
	local := filepath.FromSlash(v.Value)
	if !filepath.IsLocal(local) {
		p.Errorf(v, "%s must stay inside the repository root, found %q", key, v.Value)
		return "", false
	}
	return local, true
}

// boolean reads a true/false setting.
func (p *parser) boolean(v *yaml.Node, key string) (bool, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
		p.Errorf(v, "%s must be true or false, found %s", key, yamldoc.KindName(v))
		return false, false
	}
	return v.Value == "true" || v.Value == "True" || v.Value == "TRUE", true
}

// architecture reads the architecture: section. An empty section (null or
// {}) turns the architecture rules on with vouch lint's defaults.
func (p *parser) architecture(v *yaml.Node, root string) *Architecture {
	a := &Architecture{Line: v.Line, Col: v.Column}
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return a
	}
	for k, av := range p.fields(v, "architecture", archKeys) {
		switch k {
		case "config":
			if s, ok := p.path(av, "architecture.config"); ok {
				a.Config = filepath.Join(root, s)
			}
		case "baseline":
			if s, ok := p.path(av, "architecture.baseline"); ok {
				a.Baseline = filepath.Join(root, s)
				a.BaselineFile, a.BaselineLine, a.BaselineCol = p.File, av.Line, av.Column
			}
		case "strict":
			a.Strict, _ = p.boolean(av, "architecture.strict")
		case "new_from":
			if s, ok := p.revision(av, "architecture.new_from"); ok {
				a.NewFrom = s
				a.NewFromAt = fmt.Sprintf("%s:%d:%d: architecture.new_from", p.File, av.Line, av.Column)
			}
		case "mode":
			if av.Kind != yaml.ScalarNode || av.Tag != "!!str" || !yamldoc.Contains(archModes, av.Value) {
				hint := ""
				if av.Kind == yaml.ScalarNode {
					hint = suggest.Hint(av.Value, archModes)
				}
				p.Errorf(av, "architecture.mode must be enforce or observe, found %s%s", yamldoc.KindName(av), hint)
				continue
			}
			a.Observe = av.Value == ModeObserve
		}
	}
	return a
}

// BaseRef is vouch.yaml's base: and where it is written, for messages,
// or "", "" when it sets none.
func (c *Config) BaseRef() (ref, from string) {
	if c.Base == "" {
		return "", ""
	}
	return c.Base, fmt.Sprintf("%s:%d:%d: base:", c.File, c.BaseLine, c.BaseCol)
}

// revision reads a git revision: a non-empty string that git cannot take
// for an option.
func (p *parser) revision(v *yaml.Node, key string) (string, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" || v.Value == "" {
		p.Errorf(v, "%s must be a git revision such as main or origin/main, found %s", key, yamldoc.KindName(v))
		return "", false
	}
	if v.Value[0] == '-' || strings.ContainsAny(v.Value, "\x00\n") {
		p.Errorf(v, "%s %q is not a git revision; write a branch, tag or commit such as origin/main", key, v.Value)
		return "", false
	}
	return v.Value, true
}

// positive reads a positive integer setting.
func (p *parser) positive(v *yaml.Node, key string) (int64, bool) {
	var n int64
	if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || v.Decode(&n) != nil || n <= 0 {
		p.Errorf(v, "%s must be a positive integer, found %s", key, yamldoc.KindName(v))
		return 0, false
	}
	return n, true
}

// InlinePolicy marks a guard policy written in vouch.yaml itself: the
// policy "path" is the configuration file's name followed by it.
const InlinePolicy = "#guard.policy"

func (p *parser) guard(v *yaml.Node, root, file string) *Guard {
	g := &Guard{}
	for k, n := range p.fields(v, "guard", guardKeys) {
		switch k {
		case "policy":
			if n.Kind == yaml.MappingNode {
				// The ruleset itself; the guard's loader checks it,
				// with positions in this file.
				g.Policy = file + InlinePolicy
				continue
			}
			if s, ok := p.path(n, k); ok {
				g.Policy = filepath.Join(root, s)
			}
		case "principal":
			if n.Kind != yaml.MappingNode {
				p.Errorf(n, "guard.principal must be a mapping (role: ..., user_id: ..., claims: ...), found %s", yamldoc.KindName(n))
				continue
			}
			var m map[string]any
			if err := n.Decode(&m); err != nil {
				p.Errorf(n, "guard.principal: %v", err)
				continue
			}
			g.Principal = m
		}
	}
	return g
}
