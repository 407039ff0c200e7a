package shellfacts

import (
	"slices"
	"testing"
)

// TestParallelFill pins how one job's inputs fill parallel's replacement
// strings: shell-quoted, {} all of them, {N} the Nth, with the path
// modifiers applied, and a custom string (-I XX) as {}.
func TestParallelFill(t *testing.T) {
	tests := []struct {
		script  string
		job     []string
		customs []string
		want    string
	}{
		{"rm -rf {}", []string{"/"}, nil, "rm -rf '/'"},
		{"cat {/}", []string{"/x/.env"}, nil, "cat '.env'"},
		{"mv {} {.}.bak", []string{"a/b.txt"}, nil, "mv 'a/b.txt' 'a/b'.bak"},
		{"cp {1} {2//}", []string{"a", "d/e/f"}, nil, "cp 'a' 'd/e'"},
		{"echo {/.} {#}", []string{"d/x.tar"}, nil, "echo 'x' 1"},
		{"echo {3}", []string{"a"}, nil, "echo "},
		{"echo XX", []string{"it's"}, []string{"XX"}, `echo 'it'\''s'`},
	}
	for _, tt := range tests {
		if got := parallelFill(tt.script, tt.job, parallelRepls{customs: tt.customs}); got != tt.want {
			t.Errorf("parallelFill(%q, %q) = %q, want %q", tt.script, tt.job, got, tt.want)
		}
	}
}

// TestParallelReplQuoted pins which replacement strings sit where an
// input could end the quoting around it.
func TestParallelReplQuoted(t *testing.T) {
	tests := []struct {
		script string
		want   bool
	}{
		{"gzip {}", false},
		{"echo {} | wc", false},
		{`echo "{}"`, true},
		{"echo '{}'", true},
		{"cat <<EOF\n{}\nEOF", true},
		{"echo 'x' {}", false},
		{"echo (", true},
	}
	for _, tt := range tests {
		if got := parallelReplQuoted(tt.script, parallelRepls{}); got != tt.want {
			t.Errorf("parallelReplQuoted(%q) = %v, want %v", tt.script, got, tt.want)
		}
	}
}

// TestParallelJobs pins the jobs of static inputs: one per combination,
// none past maxParallelJobs.
func TestParallelJobs(t *testing.T) {
	got := parallelJobs([][]string{{"a", "b"}, {"1"}})
	if len(got) != 2 || !slices.Equal(got[0], []string{"a", "1"}) || !slices.Equal(got[1], []string{"b", "1"}) {
		t.Errorf("parallelJobs = %q", got)
	}
	big := make([]string, maxParallelJobs+1)
	if parallelJobs([][]string{big}) != nil {
		t.Error("parallelJobs past the bound is not nil")
	}
}
