package guard

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/vouch-dev/vouch/config"
)

// DefaultPolicy is where a repository keeps its guard policy, relative to
// its root.
const DefaultPolicy = ".vouch/guard.yaml"

// Setup is what every guard command resolves before deciding anything:
// the repository root, the policy file and the principal.
type Setup struct {
	// Root is the repository root (vouch.yaml's directory, else the git
	// top level, else the working directory).
	Root string
	// Policy is the policy file: the --policy flag, else guard.policy in
	// vouch.yaml, else DefaultPolicy under Root.
	Policy string
	// Env carries the principal (VOUCH_PRINCIPAL over vouch.yaml's) and
	// the environment lookup.
	Env Env
	// Home is the user's home directory, for paths written with ~.
	Home string
}

// LoadSetup resolves a Setup from vouch.yaml found from the working
// directory; policy is the --policy flag ("" for none) and lookupEnv reads
// VOUCH_PRINCIPAL (os.LookupEnv in the CLI).
func LoadSetup(policy string, lookupEnv func(string) (string, bool)) (*Setup, error) {
	return LoadSetupAt("", policy, lookupEnv)
}

// LoadSetupAt is LoadSetup as run in directory dir ("" for this
// process's own) with the environment lookupEnv: the hook server answers
// for clients in other directories with other environments, without
// changing its own. With dir set, the home directory is lookupEnv's HOME
// (what os.UserHomeDir reads on the Unix systems the server runs on).
func LoadSetupAt(dir, policy string, lookupEnv func(string) (string, bool)) (*Setup, error) {
	wd := "."
	if dir != "" {
		wd = dir
	}
	cfg, err := config.Load(wd, "")
	if err != nil {
		return nil, fmt.Errorf("invalid configuration:\n%w", err)
	}
	s := &Setup{Root: cfg.Root, Policy: PolicyPath(cfg, policy)}
	if cfg.Guard != nil {
		s.Env.Principal = cfg.Guard.Principal
	}
	if v, ok := lookupEnv("VOUCH_PRINCIPAL"); ok {
		p, err := ParsePrincipal(v)
		if err != nil {
			return nil, fmt.Errorf("VOUCH_PRINCIPAL: %w", err)
		}
		s.Env.Principal = p
	}
	s.Env.Getenv = lookupEnv
	if dir == "" {
		s.Home, _ = os.UserHomeDir()
	} else {
		s.Home, _ = lookupEnv("HOME")
	}
	return s, nil
}

// PolicyPath is the policy file a command uses: flag when given, else
// guard.policy in vouch.yaml, else DefaultPolicy under the root.
func PolicyPath(cfg *config.Config, flag string) string {
	switch {
	case flag != "":
		return flag
	case cfg.Guard != nil && cfg.Guard.Policy != "":
		return cfg.Guard.Policy
	}
	return filepath.Join(cfg.Root, DefaultPolicy)
}
