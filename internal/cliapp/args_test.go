package cliapp

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/urfave/cli/v2"
)

// testApp has vouch's shape: a command with value, boolean and aliased
// flags, and a command with a subcommand.
func testApp() *cli.App {
	return &cli.App{Name: "vouch", Commands: []*cli.Command{
		{Name: "verify", Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}},
			&cli.StringFlag{Name: "rulespec", Aliases: []string{"r"}},
			&cli.BoolFlag{Name: "strict"},
		}},
		{Name: "envelope", Subcommands: []*cli.Command{
			{Name: "write", Flags: []cli.Flag{&cli.StringFlag{Name: "from"}}},
		}},
	}}
}

func TestFlagsFirst(t *testing.T) {
	app := testApp()
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"already first", []string{"vouch", "verify", "--strict", "e.yaml"}, []string{"vouch", "verify", "--strict", "e.yaml"}},
		{"value flag after", []string{"vouch", "verify", "e.yaml", "--format", "json"}, []string{"vouch", "verify", "--format", "json", "e.yaml"}},
		{"bool flag after", []string{"vouch", "verify", "e.yaml", "--strict"}, []string{"vouch", "verify", "--strict", "e.yaml"}},
		{"flag=value", []string{"vouch", "verify", "e.yaml", "--format=json"}, []string{"vouch", "verify", "--format=json", "e.yaml"}},
		{"alias", []string{"vouch", "verify", "e.yaml", "-r", "r.yaml"}, []string{"vouch", "verify", "-r", "r.yaml", "e.yaml"}},
		{"unknown flag moves too", []string{"vouch", "verify", "e.yaml", "--bogus"}, []string{"vouch", "verify", "--bogus", "e.yaml"}},
		{"double dash stops", []string{"vouch", "verify", "--", "-odd.yaml", "--strict"}, []string{"vouch", "verify", "--", "-odd.yaml", "--strict"}},
		{"subcommand", []string{"vouch", "envelope", "write", "out.yaml", "--from", "in.yaml"}, []string{"vouch", "envelope", "write", "--from", "in.yaml", "out.yaml"}},
		{"unknown command untouched", []string{"vouch", "nope", "x", "--y"}, []string{"vouch", "nope", "x", "--y"}},
		{"global flag only", []string{"vouch", "--help"}, []string{"vouch", "--help"}},
		{"completion request untouched", []string{"vouch", "verify", "e.yaml", "--st", CompleteFlag}, []string{"vouch", "verify", "e.yaml", "--st", CompleteFlag}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, FlagsFirst(app, tt.in)); diff != "" {
				t.Errorf("FlagsFirst (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUsageError(t *testing.T) {
	flags := testApp().Commands[0].Flags
	tests := []struct {
		name, path string
		err        error
		want       string
	}{
		{"misspelt long flag", "verify", errors.New("flag provided but not defined: -fromat"),
			"unknown flag --fromat (did you mean --format?); run 'vouch verify --help'"},
		{"nothing close", "verify", errors.New("flag provided but not defined: -zzzzzzzz"),
			"unknown flag --zzzzzzzz; run 'vouch verify --help'"},
		{"other usage error, top level", "", errors.New(`invalid value "x" for flag -n`),
			`invalid value "x" for flag -n; run 'vouch --help'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := UsageError("vouch", tt.path, flags, tt.err).Error(); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestCompletionScript(t *testing.T) {
	app := testApp()
	for _, sh := range Shells() {
		s, err := CompletionScript(app, sh)
		if err != nil || s == "" {
			t.Errorf("%s: %q, %v", sh, s, err)
		}
	}
	bash, _ := CompletionScript(app, "bash")
	if want := "complete -o default -F _vouch_complete vouch\n"; !strings.HasSuffix(bash, want) {
		t.Errorf("bash script does not end with %q:\n%s", want, bash)
	}
	if _, err := CompletionScript(app, "bsh"); err == nil || !strings.Contains(err.Error(), `did you mean "bash"`) {
		t.Errorf("unknown shell: error %v, want a did-you-mean", err)
	}
}

func TestRunExitCodes(t *testing.T) {
	newApp := func(stderr *strings.Builder) *cli.App {
		app := testApp()
		app.Writer, app.ErrWriter = io.Discard, stderr
		app.ExitErrHandler = func(*cli.Context, error) {}
		app.Commands[0].Action = func(c *cli.Context) error {
			switch c.String("format") {
			case "fail":
				return Fail(1, nil)
			case "bad":
				return Fail(2, errors.New("bad input"))
			}
			return nil
		}
		QuietUsageErrors(app, func(err error) error { return Fail(2, err) })
		return app
	}
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{"pass", []string{"vouch", "verify"}, 0, ""},
		{"fail prints nothing", []string{"vouch", "verify", "--format", "fail"}, 1, ""},
		{"error printed once", []string{"vouch", "verify", "--format", "bad"}, 2, "vouch: bad input\n"},
		{"unknown command", []string{"vouch", "verfy"}, 2, "vouch: unknown command \"verfy\" (did you mean \"verify\"?); run 'vouch --help' for the list\n"},
		{"unknown flag", []string{"vouch", "verify", "--fromat", "x"}, 2, "vouch: unknown flag --fromat (did you mean --format?); run 'vouch verify --help'\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr strings.Builder
			if got := Run(newApp(&stderr), tt.args, &stderr, 2); got != tt.wantCode {
				t.Errorf("exit code %d, want %d", got, tt.wantCode)
			}
			if stderr.String() != tt.wantStderr {
				t.Errorf("stderr %q, want %q", stderr.String(), tt.wantStderr)
			}
		})
	}
}
