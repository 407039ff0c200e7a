package guard

import "testing"

// TestBuiltinVouchOutputs pins the files vouch's own report and trace
// options write: on vouch's control files they ask, outside the
// repository they are refused, and vouch gate's default receipt is no
// write at all.
func TestBuiltinVouchOutputs(t *testing.T) {
	writes, trees := "protect-vouch-writes", "protect-vouch-trees"
	checkBuiltins(t, []bypassCase{
		{`echo "{}" | vouch guard check --output json=.claude/settings.json`, Ask, writes},
		{`vouch guard replay --output=.vouch/guard.yaml`, Ask, writes},
		{`vouch guard check -output json=vouch.yaml < /dev/null`, Ask, writes},
		{`vouch guard check --output text=/home/u/.bashrc < /dev/null`, Deny, "writes-outside-repo"},
		{`vouch guard check --trace .vouch < /dev/null`, Ask, writes},
		{`vouch guard check --trace /home/u < /dev/null`, Deny, "writes-outside-repo"},
		{`vouch gate --out .`, Ask, trees},
		{`vouch gate`, Allow, ""},
		{`vouch verify --output json=report.json`, Allow, ""},
		{`vouch guard check --trace /tmp/trace < /dev/null`, Allow, ""},
		{`vouch lint --out build/lint`, Allow, ""},
	})
}
