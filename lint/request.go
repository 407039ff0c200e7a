package lint

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/repofacts"
	"github.com/vouch-dev/vouch/yamldoc"
)

// Request is what `vouch lint` was asked on its command line. Resolve
// fills what it leaves out from vouch.yaml's architecture: section, so a
// flag always wins over the file.
type Request struct {
	// Path is the PATH argument; "" scans the root every command uses
	// (vouch.yaml's directory, else the git top level, else the working
	// directory).
	Path string
	// Config and Baseline are --config and --baseline; "" takes
	// vouch.yaml's.
	Config, Baseline string
	// Strict is --strict when given; nil takes vouch.yaml's.
	Strict *bool
	// UpdateBaseline is --update-baseline: record today's findings.
	UpdateBaseline bool
	// NewFromRev is --new-from-rev; NewFromRevSet says it was given, so
	// an empty value is refused rather than read as absent.
	NewFromRev    string
	NewFromRevSet bool
	// Today is --today, YYYY-MM-DD; "" is today.
	Today string
	// NoCache and Out are --no-cache and --out.
	NoCache bool
	Out     string
	// PythonRoots, when not nil, is --python-root.
	PythonRoots []string
}

// Resolve reads vouch.yaml (PATH/vouch.yaml when Path is a directory,
// else the one found from the working directory) and returns the root to
// scan and the Config for Check. A vouch.yaml that does not load is a
// ConfigErrors; contradictory options are plain errors.
func Resolve(req Request) (string, Config, error) {
	arc, cfgRoot, section, err := archSection(req.Path)
	if err != nil {
		var cl config.ErrorList
		if errors.As(err, &cl) {
			return "", Config{}, &ConfigErrors{List: cl}
		}
		return "", Config{}, err
	}
	root := req.Path
	if root == "" {
		root = cfgRoot
	}
	cfg := Config{File: pick(req.Config, arc.Config), Baseline: pick(req.Baseline, arc.Baseline),
		SkipBaseline: req.UpdateBaseline, Strict: arc.Strict, NoCache: req.NoCache, Out: req.Out,
		PythonRoots: req.PythonRoots}
	if req.Strict != nil {
		cfg.Strict = *req.Strict
	}
	if req.Baseline == "" {
		cfg.BaselineAt = BaselineAt(arc)
	}
	if req.UpdateBaseline && cfg.Baseline == "" {
		return "", Config{}, errors.New("--update-baseline needs --baseline FILE (or architecture.baseline in vouch.yaml)")
	}
	if req.Today != "" {
		if cfg.Today, err = time.Parse("2006-01-02", req.Today); err != nil {
			return "", Config{}, fmt.Errorf("--today %q is not a date; want YYYY-MM-DD", req.Today)
		}
	}
	switch {
	case req.NewFromRev != "":
		cfg.NewFromRev, cfg.NewFromFrom = req.NewFromRev, "--new-from-rev"
	case req.NewFromRevSet:
		return "", Config{}, errors.New("--new-from-rev needs a revision (a branch, tag or commit)")
	case arc.NewFrom != "":
		cfg.NewFromRev, cfg.NewFromFrom = arc.NewFrom, arc.NewFromAt
	}
	if cfg.NewFromRev != "" && req.UpdateBaseline {
		return "", Config{}, errors.New("--update-baseline records every finding; it cannot be combined with --new-from-rev or architecture.new_from")
	}
	// No rules: an error when they were asked for (--config, or vouch.yaml's
	// architecture: section), else a notice that nothing was checked.
	switch {
	case req.Config != "":
		cfg.RequiredBy, cfg.Remedy = "--config", "point --config at a file with rules"
	case section:
		cfg.RequiredBy, cfg.Remedy = "vouch.yaml's architecture: section", "remove the section to turn the check off"
	}
	return root, cfg, nil
}

// archSection reads vouch.yaml for lint: path/vouch.yaml when path is a
// directory, else the one found upward from the working directory. It
// returns the architecture settings (empty when there is no section), the
// root of the vouch.yaml read (the discovered root when none was read),
// and whether the section is present.
func archSection(path string) (*config.Architecture, string, bool, error) {
	none := &config.Architecture{}
	if path != "" {
		if st, err := os.Stat(path); err != nil || !st.IsDir() {
			return none, "", false, nil // the scan reports a bad PATH
		}
	}
	cfg, err := config.Load(".", path)
	if err != nil {
		return none, "", false, err
	}
	if cfg.File == "" || cfg.Architecture == nil {
		return none, cfg.Root, false, nil
	}
	return cfg.Architecture, cfg.Root, true, nil
}

func pick(flag, fallback string) string {
	if flag != "" {
		return flag
	}
	return fallback
}

// UpdateBaseline writes the baselinable findings of rep to file and
// returns how many findings it recorded and how many it left out
// (inert-rule and exemption findings, which are configuration problems).
func UpdateBaseline(file string, rep *Report) (recorded, left int, err error) {
	entries := MakeBaseline(rep.Findings)
	if err := WriteBaseline(file, entries); err != nil {
		return 0, 0, err
	}
	for _, e := range entries {
		recorded += e.Count
	}
	return recorded, len(rep.Findings) - recorded, nil
}

// RecordBaseline is --update-baseline: it writes rep's findings to
// cfg.Baseline and says on w what it recorded and what it could not.
func RecordBaseline(w io.Writer, cfg Config, rep *Report) error {
	n, left, err := UpdateBaseline(cfg.Baseline, rep)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "vouch: lint: recorded %s in %s\n", Plural(n, "finding"), cfg.Baseline)
	if left > 0 {
		fmt.Fprintf(w, "vouch: lint: %d inert-rule or exemption findings are configuration problems and were not recorded; fix the configuration\n", left)
	}
	return nil
}

// WriteNotes writes what a run under cfg says beside its report, on
// standard error: warnings about the configuration, and with
// --new-from-rev how many findings were already present.
func (r *Report) WriteNotes(w io.Writer, cfg Config) {
	for _, n := range r.Notices {
		fmt.Fprintln(w, "vouch: lint: warning: "+repofacts.ShownText(n.Error()))
	}
	if cfg.NewFromRev != "" {
		fmt.Fprintf(w, "vouch: lint: %s already present at %s left out (%s)\n",
			Plural(r.Preexisting, "finding"), cfg.NewFromRev, cfg.NewFromFrom)
	}
}

// ErrorsOf lists err's configuration errors: a *ConfigErrors' list, else
// err itself as one error without a position.
func ErrorsOf(err error) []*ConfigError {
	var ce *ConfigErrors
	if errors.As(err, &ce) {
		return ce.List
	}
	return []*ConfigError{{Msg: err.Error()}}
}

// BaselineAt is where vouch.yaml's architecture section names the
// baseline, for Config.BaselineAt.
func BaselineAt(a *config.Architecture) yamldoc.Error {
	if a == nil {
		return yamldoc.Error{}
	}
	return yamldoc.Error{File: a.BaselineFile, Pos: yamldoc.Pos{Line: a.BaselineLine, Col: a.BaselineCol}}
}
