package guard

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

const cacheTestPolicy = `apiVersion: vouch/v1
kind: Ruleset
rules:
  - id: no-rm-rf
    type: pre
    tool: Bash
    when:
      args.command: {matches: '\brm\s+-rf\b'}
    then: {action: deny, message: "Recursive delete refused."}
`

// poisonCache writes, as the disk cache entry of policy in repo, a
// compiled policy without rules: what an agent working in repo can do.
func poisonCache(t *testing.T, repo, policy string) {
	t.Helper()
	p, err := LoadPolicy("x.yaml", []byte(policy))
	if err != nil {
		t.Fatal(err)
	}
	p.Rules = nil
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(repo, ".vouch", "cache")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "guard-"+cacheKey([]byte(policy))+".json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPolicyCacheNeverReadsDiskCache: with a memory cache (the hook
// server's), a repository's disk cache is never read, so an entry an
// agent edited in one repository is served neither there nor to another
// repository whose policy has the same bytes.
func TestPolicyCacheNeverReadsDiskCache(t *testing.T) {
	tests := []struct {
		name string
		// order is the repositories asking, in turn; the poisoned one is
		// "evil".
		order []string
	}{
		{"poisoned repository first", []string{"evil", "real"}},
		{"poisoned repository alone", []string{"evil"}},
		{"clean repository first", []string{"real", "evil", "real"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			for _, r := range []string{"evil", "real"} {
				if err := os.MkdirAll(filepath.Join(base, r, ".vouch"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(base, r, ".vouch", "guard.yaml"), []byte(cacheTestPolicy), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			poisonCache(t, filepath.Join(base, "evil"), cacheTestPolicy)
			want, err := LoadPolicy("x.yaml", []byte(cacheTestPolicy))
			if err != nil {
				t.Fatal(err)
			}
			mem := &PolicyCache{}
			for _, r := range tt.order {
				dir := filepath.Join(base, r)
				p, err := loadPolicyFile(dir, ".vouch/guard.yaml", ".vouch/cache", mem)
				if err != nil {
					t.Fatal(err)
				}
				if len(p.Rules) != len(want.Rules) || len(p.Rules) == 0 {
					t.Fatalf("%s: policy has %d rules, want the %d its source has", r, len(p.Rules), len(want.Rules))
				}
			}
		})
	}
}

// TestPolicyCacheEvictsLeastRecentlyUsed: a full cache drops its least
// recently used entry, not all of them, so many policies sent by one
// client cannot flush the one every other call uses.
func TestPolicyCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := &PolicyCache{}
	key := func(i int) string { return fmt.Sprintf("k%d", i) }
	for i := range maxCachedPolicies {
		c.put(key(i), &Policy{Name: key(i)}, 1)
	}
	// k0 is used again, so k1 is now the least recently used.
	if c.get(key(0), "p") == nil {
		t.Fatal("k0 missing before the cache was full")
	}
	for i := maxCachedPolicies; i < maxCachedPolicies+10; i++ {
		c.put(key(i), &Policy{Name: key(i)}, 1)
		if c.get(key(0), "p") == nil {
			t.Fatalf("k0, used after every put, was evicted by the put of %s", key(i))
		}
	}
	tests := []struct {
		key  string
		want bool
	}{
		{key(0), true},
		{key(1), false},
		{key(10), false},
		{key(11), true},
		{key(maxCachedPolicies + 9), true},
	}
	for _, tt := range tests {
		if got := c.get(tt.key, "p") != nil; got != tt.want {
			t.Errorf("%s cached: %v, want %v", tt.key, got, tt.want)
		}
	}
	n := 0
	for i := range maxCachedPolicies + 10 {
		if c.get(key(i), "p") != nil {
			n++
		}
	}
	if n != maxCachedPolicies {
		t.Errorf("%d entries, want %d", n, maxCachedPolicies)
	}
}

// TestPolicyCacheBoundsBytes: the cache holds at most
// maxCachedPolicyBytes of policy source, dropping the least recently
// used entries to make room, and keeps no policy longer than that.
func TestPolicyCacheBoundsBytes(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name  string
		sizes []int
		// want is which entries are cached at the end.
		want []bool
	}{
		{"small entries all kept", []int{mib, mib, mib}, []bool{true, true, true}},
		{"over the bound drops the oldest", []int{16 * mib, 16 * mib, 16 * mib}, []bool{false, true, true}},
		{"one large entry drops several", []int{10 * mib, 10 * mib, 10 * mib, 30 * mib}, []bool{false, false, false, true}},
		{"exactly the bound is kept", []int{mib, maxCachedPolicyBytes}, []bool{false, true}},
		{"over the bound is not kept and drops nothing", []int{mib, maxCachedPolicyBytes + 1}, []bool{true, false}},
		{"policies of MaxPolicyBytes", slices.Repeat([]int{MaxPolicyBytes}, 10), append([]bool{false, false}, slices.Repeat([]bool{true}, 8)...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &PolicyCache{}
			for i, n := range tt.sizes {
				c.put(fmt.Sprint(i), &Policy{}, n)
			}
			total := 0
			for i, want := range tt.want {
				got := c.get(fmt.Sprint(i), "p") != nil
				if got != want {
					t.Errorf("entry %d (%d bytes) cached: %v, want %v", i, tt.sizes[i], got, want)
				}
				if got {
					total += tt.sizes[i]
				}
			}
			if total > maxCachedPolicyBytes {
				t.Errorf("cached %d bytes of source, over the bound %d", total, maxCachedPolicyBytes)
			}
		})
	}
}

// TestDiskCacheEntryMustMatch: a disk cache entry is used only when it
// records the key its file name is made of and the sha256 of the policy
// being loaded; an entry without them, or for another policy's bytes
// (renamed to this policy's name), is ignored and the policy compiled
// from its source.
func TestDiskCacheEntryMustMatch(t *testing.T) {
	other := cacheTestPolicy + "  - id: other\n    type: pre\n    tool: Read\n    then: {action: deny, message: x}\n"
	tests := []struct {
		name string
		// entry makes the forged entry from the compiled policy p.
		entry    func(p *Policy) any
		wantUsed bool
	}{
		{"no key", func(p *Policy) any { return p }, false},
		{"key of another policy", func(p *Policy) any {
			return cacheEntry{Key: cacheKey([]byte(other)), Policy: *p}
		}, false},
		{"sha256 of another policy", func(p *Policy) any {
			q := *p
			q.SHA256 = sha256Hex([]byte(other))
			return cacheEntry{Key: cacheKey([]byte(cacheTestPolicy)), Policy: q}
		}, false},
		{"no sha256", func(p *Policy) any {
			q := *p
			q.SHA256 = ""
			return cacheEntry{Key: cacheKey([]byte(cacheTestPolicy)), Policy: q}
		}, false},
		// Both recorded right: whoever can write the cache can do this,
		// which is why protect-vouch guards it as it guards the policy.
		{"key and sha256 of this policy", func(p *Policy) any {
			return cacheEntry{Key: cacheKey([]byte(cacheTestPolicy)), Policy: *p}
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := t.TempDir()
			p, err := LoadPolicy("x.yaml", []byte(cacheTestPolicy))
			if err != nil {
				t.Fatal(err)
			}
			p.Rules = nil
			b, err := json.Marshal(tt.entry(p))
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(repo, ".vouch", "cache")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "guard-"+cacheKey([]byte(cacheTestPolicy))+".json"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := LoadPolicyCached("x.yaml", []byte(cacheTestPolicy), dir)
			if err != nil {
				t.Fatal(err)
			}
			if used := len(got.Rules) == 0; used != tt.wantUsed {
				t.Errorf("forged entry used: %v, want %v (rules %d)", used, tt.wantUsed, len(got.Rules))
			}
		})
	}
}
