// Package buildinfo says which vouch this binary is: the version given with
// -ldflags at link time, else the module version the Go toolchain recorded
// (go install module@version, or since Go 1.24 a pseudo-version for a
// checkout build), else the VCS revision of a checkout build.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Version is the binary's version as a string for `vouch version`, receipts
// and SARIF. ldflags is the value set with -ldflags "-X main.version=...";
// "" or "dev" means none was given.
func Version(ldflags string) string {
	info, _ := debug.ReadBuildInfo()
	return fromInfo(ldflags, info)
}

// fromInfo is Version over given build information, so tests can feed it
// the cases a real binary cannot show at once.
func fromInfo(ldflags string, info *debug.BuildInfo) string {
	if ldflags != "" && ldflags != "dev" {
		return ldflags
	}
	if info == nil {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		// A module version: a tag, or a pseudo-version naming a commit.
		return v
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := "devel-" + rev
	if modified == "true" {
		v += "-dirty"
	}
	return v
}

// InstallRef is what `go install github.com/vouch-dev/vouch/cmd/vouch@REF`
// should name to install this same vouch: the module version, else the
// commit a checkout was built from (go accepts a revision as a query), else
// "" when the binary does not know where it came from. It never answers
// "latest": the module has no tagged release, and CI must install the vouch
// that wrote its configuration.
func InstallRef(ldflags string) string {
	info, _ := debug.ReadBuildInfo()
	return installRef(ldflags, info)
}

func installRef(ldflags string, info *debug.BuildInfo) string {
	if strings.HasPrefix(ldflags, "v") && ldflags != "" {
		return ldflags
	}
	if info == nil {
		return ""
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		// Go 1.24 and later stamp a checkout build with a pseudo-version,
		// marked +dirty when the tree had changes; go install refuses
		// that suffix, and the commit the version names is the nearest
		// thing it can install.
		return strings.TrimSuffix(v, "+dirty")
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && s.Value != "" {
			return s.Value
		}
	}
	return ""
}
