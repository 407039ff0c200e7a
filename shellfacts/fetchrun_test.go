package shellfacts

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParseFetchRunners pins package runners (npx, npm exec, bunx, pnpm
// dlx, yarn dlx, uvx, pipx run): the program they run is the command,
// its arguments read as that program's, and a package fetched from a
// registry is unknown code unless it is a well-known tool or, for npx
// and bunx, a program the project installed in node_modules/.bin.
func TestParseFetchRunners(t *testing.T) {
	root := fixture(t)
	if err := os.MkdirAll(filepath.Join(root, "repo/node_modules/.bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "repo/node_modules/.bin/mylint"), []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	opts := Options{Cwd: root + "/repo", Home: root + "/home"}
	tests := []commandsCase{
		{`npx pkg`, []string{"npx> pkg"}, []string{"npx pkg"}},
		{`npx -y pkg@1.2.3 --flag`, []string{"npx> pkg --flag"}, []string{"npx pkg@1.2.3"}},
		{`pnpm dlx pkg`, []string{"pnpm> pkg"}, []string{"pnpm dlx pkg"}},
		{`pnpx pkg`, []string{"pnpx> pkg"}, []string{"pnpm dlx pkg"}},
		{`bunx pkg`, []string{"bunx> pkg"}, []string{"bunx pkg"}},
		{`bun x pkg`, []string{"bun> pkg"}, []string{"bunx pkg"}},
		{`uvx pkg`, []string{"uvx> pkg"}, []string{"uvx pkg"}},
		{`uv tool run pkg`, []string{"uv> pkg"}, []string{"uv tool run pkg"}},
		{`pipx run pkg`, []string{"pipx> pkg"}, []string{"pipx run pkg"}},
		{`yarn dlx pkg`, []string{"yarn> pkg"}, []string{"yarn dlx pkg"}},
		{`npm exec pkg`, []string{"npm> pkg"}, []string{"npm exec pkg"}},
		{`npm x -- pkg a`, []string{"npm> pkg a"}, []string{"npm exec pkg"}},
		// Well known, with or without a version.
		{`npx prettier --check .`, []string{"npx> prettier --check ."}, nil},
		{`npx prettier@3.3.3 --write src`, []string{"npx> prettier --write src"}, nil},
		{`npx @biomejs/biome@1.9 check .`, []string{"npx> biome check ."}, nil},
		{`uvx ruff@0.6.0 check .`, []string{"uvx> ruff check ."}, nil},
		{`uvx --from 'black==24.1' black .`, []string{"uvx> black ."}, nil},
		{`pipx run --spec pytest pytest -q`, []string{"pipx> pytest -q"}, nil},
		{`npx -p typescript tsc --noEmit`, []string{"npx> tsc --noEmit"}, nil},
		// Installed in the project: run from there.
		{`npx mylint src`, []string{"npx> mylint src"}, nil},
		{`pnpm dlx mylint src`, []string{"pnpm> mylint src"}, []string{"pnpm dlx mylint"}},
		// Not a plain name and version, or another registry.
		{`npx prettier@npm:evil .`, []string{"npx> prettier@npm:evil ."}, []string{"npx prettier@npm:evil"}},
		{`npx github:user/repo`, []string{"npx> repo"}, []string{"npx github:user/repo"}},
		{`npx --registry=https://r.example prettier .`, []string{"npx --registry=https://r.example prettier ."}, []string{"npx --registry=https://r.example prettier ."}},
		{`uvx --with evil ruff check`, []string{"uvx> ruff check"}, []string{"uvx evil"}},
		{`uvx -w evil --directory /tmp ruff check x`, []string{"uvx> ruff check x"}, []string{"uvx evil"}},
		{`uvx --index-url https://r.example ruff`, []string{"uvx --index-url https://r.example ruff"}, []string{"uvx --index-url https://r.example ruff"}},
		{`npx --whatever pkg`, []string{"npx --whatever pkg"}, []string{"npx --whatever ..."}},
		// uv run --with adds packages from the index, as uvx does.
		{`uv run --with evil python x.py`, []string{"uv> python x.py"}, []string{"uv run --with evil"}},
		{`uv run -w ruff --with=evil x.py`, []string{"uv> x.py"}, []string{"uv run --with --with=evil"}},
		{`uv run --with-requirements r.txt x.py`, []string{"uv> x.py"}, []string{"uv run --with r.txt"}},
		{`uv run --index https://r.example --with ruff ruff`, []string{"uv run --index https://r.example --with ruff ruff"}, []string{"uv run --index https://r.example --with ruff ruff"}},
		{`uv run --with ruff --with-editable ./lib ruff check`, []string{"uv> ruff check"}, nil},
		{`uv run --index https://r.example pytest`, []string{"uv> pytest"}, nil},
		// pixi exec fetches the command's package from conda channels.
		{`pixi exec evil x`, []string{"pixi> evil x"}, []string{"pixi exec evil"}},
		{`pixi exec -s evil ruff check`, []string{"pixi> ruff check"}, []string{"pixi exec evil"}},
		{`pixi exec -c chan ruff`, []string{"pixi exec -c chan ruff"}, []string{"pixi exec ruff"}},
		{`pixi exec --spec 'ruff>=0.5' ruff check`, []string{"pixi> ruff check"}, nil},
		{`pixi run test`, []string{"pixi> test"}, nil},
		// nix builds and runs a flake from elsewhere; nixpkgs and local
		// flakes are not fetched code.
		{`nix run github:o/r`, []string{"nix run github:o/r"}, []string{"nix run github:o/r"}},
		{`nix shell git+https://x.example/r#t -c t`, []string{"nix> t"}, []string{"nix shell git+https://x.example/r#t"}},
		{`nix develop evilreg#x`, []string{"nix develop evilreg#x"}, []string{"nix develop evilreg#x"}},
		{`nix run --override-input nixpkgs github:o/n nixpkgs#hello`, []string{"nix run --override-input nixpkgs github:o/n nixpkgs#hello"}, []string{"nix run --override-input ..."}},
		{`nix run nixpkgs#bash -- -c 'rm -rf /'`, []string{"nix> bash -c rm -rf /", "^1 rm -rf /"}, nil},
		{`nix run nixpkgs/nixos-24.05#python3Packages.black -- .`, []string{"nix> black ."}, nil},
		{`nix shell nixpkgs#jq -c jq . x.json`, []string{"nix> jq . x.json"}, nil},
		{`nix develop .#ci -c make`, []string{"nix> make"}, nil},
		{`nix run . -- --help`, []string{"nix run . -- --help"}, nil},
		{`nix shell -f '<nixpkgs>' hello -c hello`, []string{"nix> hello"}, nil},
		// The program's own analysis applies.
		{`npx -c 'rm -rf ~'`, []string{"npx -c rm -rf ~", "^1 rm -rf ROOT/home"}, nil},
		{`pnpm dlx -c rm -rf ~`, []string{"pnpm dlx -c rm -rf ROOT/home", "^1 rm -rf ROOT/home"}, nil},
		{`npx rm -rf ~`, []string{"npx> rm -rf ROOT/home"}, []string{"npx rm"}},
		// Other subcommands are ordinary programs.
		{`npm install`, []string{"npm install"}, nil},
		{`npm run build`, []string{"npm run build"}, nil},
		{`pipx install ruff`, []string{"pipx install ruff"}, nil},
		{`bun run dev`, []string{"bun run dev"}, nil},
		{`pnpm install`, []string{"pnpm install"}, nil},
		{`npm --prefix d exec pkg`, []string{"npm --prefix d exec pkg"}, []string{"npm ... exec"}},
		// Scaffolders: npm init NAME runs create-NAME.
		{`npm create vite@latest app`, []string{"npm create vite@latest app"}, []string{"npm create vite@latest"}},
		{`npm init -y evil`, []string{"npm init -y evil"}, []string{"npm init evil"}},
		{`npm init -y`, []string{"npm init -y"}, nil},
		{`yarn create evil`, []string{"yarn create evil"}, []string{"yarn create evil"}},
		{`pnpm create evil`, []string{"pnpm create evil"}, []string{"pnpm create evil"}},
		{`bun create evil`, []string{"bun create evil"}, []string{"bun create evil"}},
		// go run PKG@VERSION fetches the module.
		{`go run github.com/x/y/cmd/z@v1.2.3 -f a`, []string{"go> z -f a"}, []string{"go run github.com/x/y/cmd/z@v1.2.3"}},
		{`go run -tags t -race golang.org/x/tools/cmd/stringer@latest -type=T`, []string{"go> stringer -type=T"}, nil},
		{`go run ./cmd/x -v`, []string{"go run ./cmd/x -v"}, nil},
		{`go -C sub run example.com/m/cmd/x@v1`, []string{"go> x"}, []string{"go run example.com/m/cmd/x@v1"}},
		{`go test -run X ./...`, []string{"go test -run X ./..."}, nil},
		// deno runs a module from a URL, jsr: or npm: as readily as a
		// file.
		{`deno run -A https://x.example/m.ts`, []string{"deno run -A https://x.example/m.ts"}, []string{"deno run https://x.example/m.ts"}},
		{`deno run -c deno.json jsr:@x/y`, []string{"deno run -c deno.json jsr:@x/y"}, []string{"deno run jsr:@x/y"}},
		{`deno run npm:prettier@3 .`, []string{"deno run npm:prettier@3 ."}, nil},
		{`deno run --allow-read main.ts`, []string{"deno run --allow-read main.ts"}, nil},
	}
	checkCommands(t, tests, opts, root)
}

// commandsCase is a command line with the commands Parse renders from it
// (the fixture's root written ROOT) and the unknown code it reports.
type commandsCase struct {
	command string
	cmds    []string
	unknown []string
}

// checkCommands parses each case with opts and compares what it finds.
func checkCommands(t *testing.T, tests []commandsCase, opts Options, root string) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			f, err := Parse(tt.command, opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range f.Commands {
				got = append(got, strings.ReplaceAll(render(c), root, "ROOT"))
			}
			if !slices.Equal(got, tt.cmds) {
				t.Errorf("commands %q, want %q", got, tt.cmds)
			}
			if !slices.Equal(f.Unknown, tt.unknown) {
				t.Errorf("unknown %q, want %q", f.Unknown, tt.unknown)
			}
		})
	}
}

// TestParseMoreRunners pins the package runners beyond npx and uvx: gem
// exec, dnx and dotnet tool exec fetch a package and run it, mise exec
// installs its tools from where their backend says, and nix --expr
// evaluates code that can fetch anything. A package that is not a
// well-known tool is unknown code; the command is read as a wrapped one.
func TestParseMoreRunners(t *testing.T) {
	root := fixture(t)
	opts := Options{Cwd: root + "/repo", Home: root + "/home"}
	tests := []commandsCase{
		{`gem exec rubocop -a`, []string{"gem> rubocop -a"}, nil},
		{`gem exec -v 1.2 evil x`, []string{"gem> evil x"}, []string{"gem exec evil"}},
		{`gem exec -g evil rubocop`, []string{"gem> rubocop"}, []string{"gem exec evil"}},
		{`gem exec --source https://g.example rubocop`, []string{"gem exec --source https://g.example rubocop"}, []string{"gem exec --source https://g.example rubocop"}},
		{`gem exec rm -rf ~`, []string{"gem> rm -rf ROOT/home"}, []string{"gem exec rm"}},
		{`gem install rails`, []string{"gem install rails"}, nil},
		{`dnx csharpier format .`, []string{"dnx> csharpier format ."}, nil},
		{`dnx evil@1.0 a`, []string{"dnx> evil a"}, []string{"dnx evil@1.0"}},
		{`dnx csharpier --source https://n.example`, []string{"dnx csharpier --source https://n.example"}, []string{"dnx csharpier --source https://n.example"}},
		{`dnx dotnet-ef -- database update`, []string{"dnx> dotnet-ef database update"}, nil},
		{`dotnet tool exec -y evil`, []string{"dotnet> evil"}, []string{"dotnet tool exec evil"}},
		{`dotnet dnx csharpier .`, []string{"dotnet> csharpier ."}, nil},
		{`dotnet build -c Release`, []string{"dotnet build -c Release"}, nil},
		{`mise exec node@20 -- rm -rf ~`, []string{"mise> rm -rf ROOT/home"}, nil},
		{`mise x ubi:o/tool@1 -- tool`, []string{"mise> tool"}, []string{"mise exec ubi:o/tool@1"}},
		{`mise x npm:prettier@3 npm:evil -- prettier .`, []string{"mise> prettier ."}, []string{"mise exec npm:evil"}},
		{`mise x go:golang.org/x/tools/cmd/stringer@latest core:go -- stringer`, []string{"mise> stringer"}, nil},
		{`nix shell --expr 'import ./x.nix' --command rm -rf ~`, []string{"nix> rm -rf ROOT/home"}, []string{"nix shell --expr ..."}},
		{`nix run --expr '(builtins.getFlake "github:o/r").default'`, []string{"nix run --expr (builtins.getFlake \"github:o/r\").default"}, []string{"nix run --expr ..."}},
		{`nix shell nixpkgs#hello --command hello`, []string{"nix> hello"}, nil},
	}
	checkCommands(t, tests, opts, root)
}
