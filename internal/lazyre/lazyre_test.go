package lazyre

import "testing"

func TestNew(t *testing.T) {
	re := New(`^a(b+)$`)
	if m := re().FindStringSubmatch("abbb"); len(m) != 2 || m[1] != "bbb" {
		t.Errorf("match = %q, want the group bbb", m)
	}
	if re() != re() {
		t.Error("New compiled the pattern twice")
	}
}
