package guard

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDeriveHostileArguments: an event without a usable cwd resolves
// relative paths against the repository root, never "/", and arguments
// of the wrong type are not dropped: a path that is not a string lies
// within no directory, and a command that is not a list of strings is
// code that cannot be known.
func TestDeriveHostileArguments(t *testing.T) {
	tests := []struct {
		name        string
		call        Call
		wantReads   []string
		wantWrites  []string
		wantUnknown bool
	}{
		{"no cwd", Call{Tool: "Read", Args: map[string]any{"file_path": "secrets/key"}}, []string{"/repo/secrets/key"}, nil, false},
		{"relative cwd", Call{Tool: "Read", Cwd: "sub", Args: map[string]any{"file_path": "key"}}, []string{"/repo/sub/key"}, nil, false},
		{"path list", Call{Tool: "Write", Cwd: "/repo", Args: map[string]any{"file_path": []any{"/etc/x", 1.0}}}, nil, []string{"/etc/x", "invalid:1"}, false},
		{"path object", Call{Tool: "Write", Cwd: "/repo", Args: map[string]any{"file_path": map[string]any{"p": "/etc/x"}}}, nil, []string{"invalid:map[p:/etc/x]"}, false},
		{"argv with a number", Call{Tool: "Bash", Cwd: "/repo", Args: map[string]any{"command": []any{"rm", "-rf", "/home/u", 1.0}}}, nil, nil, true},
		{"command object", Call{Tool: "Bash", Cwd: "/repo", Args: map[string]any{"command": map[string]any{"x": "rm -rf /"}}}, nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Derive(&tt.call, "", "/repo")
			if !slices.Equal(f.Reads, tt.wantReads) || !slices.Equal(f.Writes, tt.wantWrites) {
				t.Errorf("reads %q writes %q, want %q %q", f.Reads, f.Writes, tt.wantReads, tt.wantWrites)
			}
			if got := len(f.Unknown) > 0; got != tt.wantUnknown {
				t.Errorf("unknown %q, want some: %v", f.Unknown, tt.wantUnknown)
			}
		})
	}
}

// TestDeriveWritesRepository: a tree a command may rewrite takes in the
// repository when it is the root or a directory above it, not when it is
// a directory inside the root or beside it; without a root nothing is
// known to take it in.
func TestDeriveWritesRepository(t *testing.T) {
	tests := []struct {
		command, cwd, root string
		trees, repository  []string
	}{
		{"tar xf a.tar", "/repo", "/repo", []string{"/repo"}, []string{"/repo"}},
		{"cp -r /tmp/e/. ..", "/repo", "/repo", []string{"/"}, []string{"/"}},
		{"cp -r /tmp/e/. /repo2", "/repo", "/repo", []string{"/repo2"}, nil},
		{"tar xf a.tar -C src", "/repo", "/repo", []string{"/repo/src"}, nil},
		{"tar xf a.tar", "/repo", "", []string{"/repo"}, nil},
		{"cp -r src/a.go x && git status", "/repo", "/repo", []string{"/repo/x"}, nil},
	}
	for _, tt := range tests {
		c := Call{Tool: "Bash", Cwd: tt.cwd, Args: map[string]any{"command": tt.command}}
		f := Derive(&c, "", tt.root)
		if !slices.Equal(f.WritesTrees, tt.trees) || !slices.Equal(f.WritesRepository, tt.repository) {
			t.Errorf("%q in %s (root %q): trees %q repository %q, want %q %q", tt.command, tt.cwd, tt.root, f.WritesTrees, f.WritesRepository, tt.trees, tt.repository)
		}
		if got, want := f.derivedSelector("writes_repository"), f.derivedSelector("writes_trees"); len(tt.repository) == 0 && got != missing || want == missing {
			t.Errorf("%q: derived.writes_repository %v, derived.writes_trees %v", tt.command, got, want)
		}
	}
}

// TestDeriveTreesOutsideRoot: a tree written elsewhere is outside the
// root, while git's work tree around a root in a subdirectory (vouch.yaml
// in a monorepo's project) takes the root in and is not.
func TestDeriveTreesOutsideRoot(t *testing.T) {
	mono, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{".git", "project"} {
		if err := os.MkdirAll(filepath.Join(mono, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// other is outside the temporary directory, which is scratch space.
	root, other := filepath.Join(mono, "project"), "/nonexistent-vouch/other"
	tests := []struct {
		command             string
		repository, outside []string
	}{
		{"git pull", []string{mono}, nil},
		// reset writes the other repository's index too.
		{"git -C " + other + " reset --hard", nil, []string{other, other + "/.git"}},
		{"patch -d " + other + " -p1 < x.patch", nil, []string{other}},
		{"patch -p1 < x.patch", []string{root}, nil},
	}
	for _, tt := range tests {
		c := Call{Tool: "Bash", Cwd: root, Args: map[string]any{"command": tt.command}}
		f := Derive(&c, "", root)
		if !slices.Equal(f.WritesRepository, tt.repository) || !slices.Equal(f.OutsideRoot, tt.outside) {
			t.Errorf("%q: writes_repository %q outside_root %q, want %q %q", tt.command, f.WritesRepository, f.OutsideRoot, tt.repository, tt.outside)
		}
	}
}

// TestDeriveShellDirectory: a shell tool that takes the directory its
// command runs in (Gemini's directory and dir_path, Codex's workdir, cwd,
// working_directory) has its relative paths resolved there, against the
// event's cwd, not in the event's cwd; a directory argument that is not
// a plain path leaves relative writes and removals unresolved (as after
// a cd to an unknown place, they are also kept as resolved in the cwd).
func TestDeriveShellDirectory(t *testing.T) {
	tests := []struct {
		name                    string
		args                    map[string]any
		deletes, writes         []string
		deletesUnres, writesUnr bool
	}{
		{"gemini directory", map[string]any{"command": "rm -rf objects refs HEAD", "directory": ".git"}, []string{"/repo/.git/HEAD", "/repo/.git/objects", "/repo/.git/refs"}, nil, false, false},
		{"gemini dir_path", map[string]any{"command": "printf 'rules: []' > guard.yaml", "dir_path": ".vouch"}, nil, []string{"/repo/.vouch/guard.yaml"}, false, false},
		{"codex workdir", map[string]any{"command": []any{"rm", "-rf", "x"}, "workdir": "/elsewhere"}, []string{"/elsewhere/x"}, nil, false, false},
		{"cwd", map[string]any{"command": "touch a", "cwd": "sub"}, nil, []string{"/repo/sub/a"}, false, false},
		{"working_directory", map[string]any{"command": "touch a", "working_directory": "../up"}, nil, []string{"/up/a"}, false, false},
		{"same directory twice", map[string]any{"command": "touch a", "directory": "sub", "dir_path": "./sub"}, nil, []string{"/repo/sub/a"}, false, false},
		{"absolute paths stay", map[string]any{"command": "touch /repo/b", "dir_path": "sub"}, nil, []string{"/repo/b"}, false, false},
		{"empty directory", map[string]any{"command": "touch a", "dir_path": ""}, nil, []string{"/repo/a"}, false, false},
		{"two directories", map[string]any{"command": "touch a", "directory": "x", "dir_path": "y"}, nil, []string{"/repo/a"}, false, true},
		{"variable", map[string]any{"command": "rm a", "dir_path": "$HOME"}, []string{"/repo/a"}, nil, true, false},
		{"tilde", map[string]any{"command": "touch a", "cwd": "~/x"}, nil, []string{"/repo/a"}, false, true},
		{"not a string", map[string]any{"command": "touch a", "workdir": 3.0}, nil, []string{"/repo/a"}, false, true},
		{"NUL", map[string]any{"command": "touch a", "workdir": "a\x00b"}, nil, []string{"/repo/a"}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Call{Tool: "run_shell_command", Cwd: "/repo", Args: tt.args}
			f := Derive(&c, "", "/repo")
			if !slices.Equal(f.Deletes, tt.deletes) || !slices.Equal(f.Writes, tt.writes) {
				t.Errorf("deletes %q writes %q, want %q %q", f.Deletes, f.Writes, tt.deletes, tt.writes)
			}
			if got := len(f.DeletesUnresolved) > 0; got != tt.deletesUnres {
				t.Errorf("deletes_unresolved %q, want some: %v", f.DeletesUnresolved, tt.deletesUnres)
			}
			if got := len(f.WritesUnresolved) > 0; got != tt.writesUnr {
				t.Errorf("writes_unresolved %q, want some: %v", f.WritesUnresolved, tt.writesUnr)
			}
		})
	}
}

// TestDeriveWritesPolicy: writes_policy follows the policy the setup
// names, wherever it is (--policy, guard.policy in vouch.yaml, an inline
// policy's vouch.yaml), and the compiled-policy cache; a find below the
// policy's directory whose -name tests cannot reach it does not count.
func TestDeriveWritesPolicy(t *testing.T) {
	tests := []struct {
		name, policy string
		call         Call
		want         []string
	}{
		{"write the policy", "policies/guard.yaml", Call{Tool: "Write", Args: map[string]any{"file_path": "/repo/policies/guard.yaml"}}, []string{"/repo/policies/guard.yaml"}},
		{"absolute policy", "/repo/policies/guard.yaml", Call{Tool: "Write", Args: map[string]any{"file_path": "/repo/POLICIES/guard.yaml"}}, []string{"/repo/POLICIES/guard.yaml"}},
		{"shell write", "policies/guard.yaml", Call{Tool: "Bash", Args: map[string]any{"command": "printf 'rules: []' > policies/guard.yaml"}}, []string{"/repo/policies/guard.yaml"}},
		{"remove its directory", "policies/guard.yaml", Call{Tool: "Bash", Args: map[string]any{"command": "rm -rf policies"}}, []string{"/repo/policies"}},
		{"tree over it", "policies/guard.yaml", Call{Tool: "Bash", Args: map[string]any{"command": "cp -r /x/. policies"}}, []string{"/repo/policies"}},
		{"find reaching it", "policies/guard.yaml", Call{Tool: "Bash", Args: map[string]any{"command": "find policies -name '*.yaml' -delete"}}, []string{"/repo/policies"}},
		{"find not reaching it", "policies/guard.yaml", Call{Tool: "Bash", Args: map[string]any{"command": "find . -name '*.pyc' -delete"}}, nil},
		{"inline policy", "vouch.yaml" + "#guard.policy", Call{Tool: "Edit", Args: map[string]any{"file_path": "/repo/vouch.yaml"}}, []string{"/repo/vouch.yaml"}},
		{"cache entry", "", Call{Tool: "Write", Args: map[string]any{"file_path": "/repo/.vouch/cache/guard-0123.json"}}, []string{"/repo/.vouch/cache/guard-0123.json"}},
		{"another file", "policies/guard.yaml", Call{Tool: "Write", Args: map[string]any{"file_path": "/repo/policies/other.yaml"}}, nil},
		{"reading it", "policies/guard.yaml", Call{Tool: "Read", Args: map[string]any{"file_path": "/repo/policies/guard.yaml"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.call.Cwd = "/repo"
			f := DeriveIn(&tt.call, DeriveContext{Root: "/repo", Dir: "/repo", Policy: tt.policy})
			if !slices.Equal(f.WritesPolicy, tt.want) {
				t.Errorf("writes_policy %q, want %q", f.WritesPolicy, tt.want)
			}
		})
	}
}
