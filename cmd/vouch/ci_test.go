package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"gopkg.in/yaml.v3"
)

// scriptCmds are testscript commands that run what vouch ships for other
// tools (hooks, CI jobs) the way those tools would, as far as can be done
// offline.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"claudehook": cmdClaudeHook,
	"ghsteps":    cmdGHSteps,
	"precommit":  cmdPreCommitHooks,
	"docs":       cmdDocs,
	"junitcheck": cmdJUnitCheck,
	"sarifcheck": cmdSARIFCheck,
}

// runExpect runs sh -c script as testscript's exec does, honouring !.
func runExpect(ts *testscript.TestScript, neg bool, script string) {
	err := ts.Exec("sh", "-c", script)
	switch {
	case neg && err == nil:
		ts.Fatalf("unexpected success")
	case !neg && err != nil:
		ts.Fatalf("%v", err)
	}
}

// cmdClaudeHook runs the commands a Claude Code settings file registers
// for an event, with a minimal event on stdin: claudehook FILE EVENT.
func cmdClaudeHook(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: claudehook FILE EVENT")
	}
	var settings struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &settings); err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	var cmds []string
	for _, e := range settings.Hooks[args[1]] {
		for _, h := range e.Hooks {
			if h.Type != "command" || h.Command == "" {
				ts.Fatalf("%s: hook %+v is not a command hook", args[0], h)
			}
			if !strings.HasPrefix(h.Command, "/") {
				ts.Fatalf("%s: hook command %q does not start with an absolute path", args[0], h.Command)
			}
			cmds = append(cmds, h.Command)
		}
	}
	if len(cmds) == 0 {
		ts.Fatalf("%s: no %s hook", args[0], args[1])
	}
	event := fmt.Sprintf(`{"session_id":"s","hook_event_name":%q,"stop_hook_active":false,"cwd":%q}`, args[1], ts.Getenv("WORK"))
	script := ""
	for _, c := range cmds {
		script += fmt.Sprintf("printf '%%s' '%s' | %s || exit $?\n", event, c)
	}
	runExpect(ts, neg, script)
}

// ghStep is one step of a GitHub workflow job or composite action.
type ghStep struct {
	Name  string            `yaml:"name"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Run   string            `yaml:"run"`
	Shell string            `yaml:"shell"`
	With  map[string]string `yaml:"with"`
	Env   map[string]string `yaml:"env"`
}

var installRe = regexp.MustCompile(`^go install github\.com/vouch-dev/vouch/cmd/vouch@(\S+)$`)

// cmdGHSteps runs the steps of a workflow's jobs or of a composite
// action: ghsteps FILE [input=value ...]. `${{ inputs.x }}` takes the
// given value, else the input's default; `if:` supports always(), &&
// and inputs.x == 'y'. The vouch install step is checked (a pinned
// version, never @latest) and skipped, as are uses: steps other than
// upload-sarif, whose sarif_file must then be a SARIF 2.1.0 log.
func cmdGHSteps(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: ghsteps FILE [input=value ...]")
	}
	var doc struct {
		Inputs map[string]struct {
			Default  string `yaml:"default"`
			Required bool   `yaml:"required"`
		} `yaml:"inputs"`
		Runs struct {
			Using string   `yaml:"using"`
			Steps []ghStep `yaml:"steps"`
		} `yaml:"runs"`
		Jobs map[string]struct {
			Steps []ghStep `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(ts.ReadFile(args[0])), &doc); err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	inputs := map[string]string{}
	for k, v := range doc.Inputs {
		inputs[k] = v.Default
	}
	for _, a := range args[1:] {
		k, v, ok := strings.Cut(a, "=")
		if _, known := doc.Inputs[k]; !ok || !known {
			ts.Fatalf("unknown input %q", a)
		}
		inputs[k] = v
	}
	for k, v := range doc.Inputs {
		if v.Required && inputs[k] == "" {
			ts.Fatalf("%s: input %s is required", args[0], k)
		}
	}
	var steps []ghStep
	if doc.Runs.Using != "" {
		if doc.Runs.Using != "composite" {
			ts.Fatalf("%s: runs.using is %q, want composite", args[0], doc.Runs.Using)
		}
		steps = doc.Runs.Steps
	} else {
		var jobs []string
		for j := range doc.Jobs {
			jobs = append(jobs, j)
		}
		sort.Strings(jobs)
		for _, j := range jobs {
			steps = append(steps, doc.Jobs[j].Steps...)
		}
	}
	expand := regexp.MustCompile(`\$\{\{\s*inputs\.([a-z_-]+)\s*\}\}`)
	sub := func(s string) string {
		return expand.ReplaceAllStringFunc(s, func(m string) string {
			k := expand.FindStringSubmatch(m)[1]
			v, ok := inputs[k]
			if !ok {
				ts.Fatalf("%s: unknown input %q", args[0], k)
			}
			return v
		})
	}
	// Like GitHub: a step runs only while every earlier one succeeded,
	// unless its if: says always() or !cancelled(); the job fails with
	// the first failure.
	var script strings.Builder
	script.WriteString("status=0\n")
	var sarif []string
	installed := false
	for _, s := range steps {
		if s.If != "" && !ghCondition(ts, s.If, inputs) {
			continue
		}
		regardless := strings.Contains(s.If, "always()") || strings.Contains(s.If, "!cancelled()")
		if s.Uses != "" {
			if strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@") {
				sarif = append(sarif, sub(s.With["sarif_file"]))
			}
			continue
		}
		run := strings.TrimSpace(sub(s.Run))
		if m := installRe.FindStringSubmatch(run); m != nil {
			if m[1] == "latest" || m[1] == "" {
				ts.Fatalf("%s: vouch is installed @%s; pin a version", args[0], m[1])
			}
			installed = true
			continue
		}
		if doc.Runs.Using == "composite" && s.Shell == "" {
			ts.Fatalf("%s: composite step %q has no shell:", args[0], s.Name)
		}
		var env strings.Builder
		for k, v := range s.Env {
			fmt.Fprintf(&env, "%s=%s ", k, shQuote(sub(v)))
		}
		step := fmt.Sprintf("%ssh -e -c %s || { s=$?; [ $status -ne 0 ] || status=$s; }", env.String(), shQuote(run))
		if regardless {
			fmt.Fprintf(&script, "%s\n", step)
		} else {
			fmt.Fprintf(&script, "if [ $status -eq 0 ]; then %s; fi\n", step)
		}
	}
	script.WriteString("exit $status\n")
	if !installed {
		ts.Fatalf("%s: no step installs vouch", args[0])
	}
	err := ts.Exec("sh", "-c", script.String())
	for _, f := range sarif {
		var log struct {
			Version string `json:"version"`
			Runs    []any  `json:"runs"`
		}
		if jerr := json.Unmarshal([]byte(ts.ReadFile(f)), &log); jerr != nil || log.Version != "2.1.0" || len(log.Runs) == 0 {
			ts.Fatalf("upload-sarif's %s is not a SARIF 2.1.0 log (%v)", f, jerr)
		}
	}
	switch {
	case neg && err == nil:
		ts.Fatalf("unexpected success")
	case !neg && err != nil:
		ts.Fatalf("%v", err)
	}
}

// ghCondition evaluates the if: expressions vouch's files use.
func ghCondition(ts *testscript.TestScript, expr string, inputs map[string]string) bool {
	expr = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(expr), "${{"), "}}"))
	cmp := regexp.MustCompile(`^inputs\.([a-z_-]+)\s*==\s*'([^']*)'$`)
	for _, part := range strings.Split(expr, "&&") {
		part = strings.TrimSpace(part)
		if part == "always()" || part == "success()" || part == "!cancelled()" {
			continue
		}
		m := cmp.FindStringSubmatch(part)
		if m == nil {
			ts.Fatalf("if: %q is beyond what this test evaluates", expr)
		}
		if inputs[m[1]] != m[2] {
			return false
		}
	}
	return true
}

// cmdPreCommitHooks runs a hook of a pre-commit framework manifest as the
// framework would with pass_filenames: false: precommit FILE ID.
func cmdPreCommitHooks(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: precommit FILE ID")
	}
	var hooks []struct {
		ID            string   `yaml:"id"`
		Name          string   `yaml:"name"`
		Entry         string   `yaml:"entry"`
		Language      string   `yaml:"language"`
		PassFilenames *bool    `yaml:"pass_filenames"`
		Args          []string `yaml:"args"`
	}
	if err := yaml.Unmarshal([]byte(ts.ReadFile(args[0])), &hooks); err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	for _, h := range hooks {
		if h.ID == "" || h.Name == "" || h.Entry == "" || h.Language == "" {
			ts.Fatalf("%s: hook %+v lacks one of id, name, entry, language", args[0], h)
		}
		if h.ID != args[1] {
			continue
		}
		if h.PassFilenames == nil || *h.PassFilenames {
			ts.Fatalf("%s: hook %s must set pass_filenames: false (vouch finds its own inputs)", args[0], h.ID)
		}
		cmd := h.Entry
		for _, a := range h.Args {
			cmd += " " + shQuote(a)
		}
		runExpect(ts, neg, cmd)
		return
	}
	ts.Fatalf("%s: no hook with id %s", args[0], args[1])
}

func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
