package guard

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/canonpath"
	"github.com/vouch-dev/vouch/config"
	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/internal/atomicfile"
	"github.com/vouch-dev/vouch/internal/safeopen"
	"github.com/vouch-dev/vouch/yamldoc"
)

// LoadPolicyFile reads a policy, using the compiled form cached under
// cacheDir (keyed by the file's sha256) when there is one. cacheDir ""
// disables the cache. A cache that cannot be written is not an error: the
// next call compiles again.
func LoadPolicyFile(path, cacheDir string) (*Policy, error) {
	return LoadPolicyFileAt("", path, cacheDir)
}

// LoadPolicyFileAt is LoadPolicyFile with path and cacheDir taken
// relative to dir ("" for the working directory). Messages name path as
// given, as a run in dir would.
func LoadPolicyFileAt(dir, path, cacheDir string) (*Policy, error) {
	return loadPolicyFile(dir, path, cacheDir, nil)
}

// loadPolicyFile is LoadPolicyFileAt with a compiled-policy cache in
// memory in front of the one in cacheDir (mem nil for none).
func loadPolicyFile(dir, path, cacheDir string, mem *PolicyCache) (*Policy, error) {
	cacheDir = yamldoc.At(dir, cacheDir)
	if file, ok := strings.CutSuffix(path, config.InlinePolicy); ok {
		return loadInline(dir, file, cacheDir, mem)
	}
	// Opening a FIFO blocks until a writer appears and a device can
	// stream forever: refuse anything but a regular file before opening
	// it, so validate and check cannot hang on one.
	if fi, err := os.Stat(yamldoc.At(dir, path)); err == nil && !fi.Mode().IsRegular() {
		return nil, yamldoc.ErrorList{{File: path, Msg: "the guard policy is not a regular file (" + safeopen.Kind(fi.Mode()) + "); point --policy at a YAML file"}}
	}
	f, err := yamldoc.ReadFileAt(dir, path, "guard policy", MaxPolicyBytes, "")
	if err != nil {
		return nil, err
	}
	return loadCached(path, f.Data, sha256Hex(f.Data), cacheDir, mem, func() (*Policy, error) { return LoadPolicy(path, f.Data) })
}

// CheckPolicyLocation refuses a policy that is a symbolic link leading
// outside root: whoever can plant a link in the repository (an agent
// writing files) must not be able to swap in a policy kept elsewhere. A
// policy named directly by an absolute path outside the root is fine; only
// links are checked. root "" skips the check.
func CheckPolicyLocation(path, root string) error {
	return CheckPolicyLocationAt("", path, root)
}

// CheckPolicyLocationAt is CheckPolicyLocation with path and root taken
// relative to dir ("" for the working directory).
func CheckPolicyLocationAt(dir, path, root string) error {
	if root == "" {
		return nil
	}
	path = strings.TrimSuffix(path, config.InlinePolicy)
	fi, err := os.Lstat(yamldoc.At(dir, path))
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return nil
	}
	// A relative path through relative links resolves to a relative
	// target here, which a server resolving for a client in dir reports
	// joined to dir: the one message that names a path differently.
	target, err := filepath.EvalSymlinks(yamldoc.At(dir, path))
	if err != nil {
		return yamldoc.ErrorList{{File: path, Msg: "the guard policy is a symbolic link that does not resolve: " + yamldoc.Reason(err)}}
	}
	absRoot, err := filepath.Abs(yamldoc.At(dir, root))
	if err == nil {
		if r, err2 := filepath.EvalSymlinks(absRoot); err2 == nil {
			absRoot = r
		}
	}
	if abs, err := filepath.Abs(yamldoc.At(dir, target)); err != nil || !canonpath.Within(abs, absRoot) {
		return yamldoc.ErrorList{{File: path, Msg: fmt.Sprintf("the guard policy is a symbolic link to %s, outside the repository root %s; copy the policy into the repository or name it with --policy", target, absRoot)}}
	}
	return nil
}

// LoadPolicyCached is LoadPolicyFile for bytes already read.
func LoadPolicyCached(path string, data []byte, cacheDir string) (*Policy, error) {
	return loadCached(path, data, sha256Hex(data), cacheDir, nil, func() (*Policy, error) { return LoadPolicy(path, data) })
}

// PolicyCache holds compiled policies in memory by the same key as the
// cache under .vouch/cache (the policy's bytes and this binary's fixed
// programs), for a process that decides many calls: the hook server
// skips reading, compiling and preparing the policy on each. Entries are
// only ever compiled from a policy's source, never read from a
// repository's disk cache (which whoever works in that repository can
// edit), so one entry is safe to share between repositories whose
// policies have the same bytes. The least recently used entry goes first
// when the cache is full: past maxCachedPolicies entries or
// maxCachedPolicyBytes of policy source. It is safe for concurrent use;
// the zero value is empty and ready.
type PolicyCache struct {
	mu sync.Mutex
	m  map[string]*list.Element
	// lru orders the entries (*cachedPolicy), most recently used first.
	lru list.List
	// size is the sum of the entries' sizes.
	size int
}

// cachedPolicy is one PolicyCache entry.
type cachedPolicy struct {
	key string
	p   *Policy
	// size is the length of the source the policy was compiled from.
	size int
}

// maxCachedPolicies bounds a PolicyCache: a server sees a few
// repositories' policies, each edited now and then.
const maxCachedPolicies = 64

// maxCachedPolicyBytes bounds a PolicyCache by the total length of the
// policies' sources, which a compiled policy's memory grows with: 64
// policies of up to MaxPolicyBytes each would hold over a gigabyte. Real
// policies are a few KiB; a policy longer than this is compiled for each
// call and not kept.
const maxCachedPolicyBytes = 32 << 20

func (c *PolicyCache) get(key, path string) *Policy {
	c.mu.Lock()
	var p *Policy
	if el := c.m[key]; el != nil {
		c.lru.MoveToFront(el)
		p = el.Value.(*cachedPolicy).p
	}
	c.mu.Unlock()
	if p == nil {
		return nil
	}
	// A policy is read-only once prepared; only its name is per call,
	// as a hit in the disk cache names the path it was loaded by.
	cp := *p
	cp.File = path
	return &cp
}

// put keeps p, compiled from size bytes of source, under key.
func (c *PolicyCache) put(key string, p *Policy, size int) {
	if size > maxCachedPolicyBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*list.Element{}
	}
	if el := c.m[key]; el != nil {
		// Two calls compiled the same policy at once: keep one.
		c.lru.MoveToFront(el)
		return
	}
	// Evicting one entry at a time, not clearing the whole cache: a
	// client that sends many policies must not be able to flush the
	// entries every other repository's calls use.
	for c.lru.Len() >= maxCachedPolicies || (c.lru.Len() > 0 && c.size+size > maxCachedPolicyBytes) {
		c.remove(c.lru.Back())
	}
	c.m[key] = c.lru.PushFront(&cachedPolicy{key: key, p: p, size: size})
	c.size += size
}

// remove drops one entry; c.mu is held.
func (c *PolicyCache) remove(el *list.Element) {
	e := el.Value.(*cachedPolicy)
	delete(c.m, e.key)
	c.size -= e.size
	c.lru.Remove(el)
}

// loadCached returns the policy compiled from keyData: from the cache
// when an entry exists, else loaded and stored there. path names the
// policy in what it reports; sum is the sha256 a policy loaded from the
// source records (Policy.SHA256). With mem, the compiled policy is kept
// in memory and the disk cache is written but never read: see
// PolicyCache.
//
// A disk entry is used only when it is for exactly these bytes: it
// records the key its name is made of and the policy's sha256, and both
// must be this call's. That stops an entry copied from another policy or
// written by hand without them, not one forged with them: anyone who can
// write the cache can read the policy and compute both, and nothing an
// agent cannot also read or run could tell a forged entry from a true
// one without compiling the policy again, which is what the cache saves.
// So the cache is protected as the policy is (protect-vouch-policy, the
// patterns of protect-vouch-writes).
func loadCached(path string, keyData []byte, sum, cacheDir string, mem *PolicyCache, load func() (*Policy, error)) (p *Policy, err error) {
	if cacheDir == "" {
		return load()
	}
	// The cache key covers the loader's own code too: a cached policy
	// from another vouch build could hold another compilation.
	key := cacheKey(keyData)
	cfile := filepath.Join(cacheDir, "guard-"+key+".json")
	if mem != nil {
		if p := mem.get(key, path); p != nil {
			return p, nil
		}
		p, err = load()
		if err != nil {
			return nil, err
		}
		mem.put(key, p, len(keyData))
		writeCache(cacheDir, cfile, p)
		return p, nil
	}
	// Read without blocking and only as a regular file: a FIFO planted
	// as the cache entry must not hang the hook (a hook that never
	// answers lets the tool run).
	if f, err := safeopen.Read(cfile, safeopen.Options{MaxBytes: 4 * MaxPolicyBytes}); err == nil {
		b := f.Data
		var cached cacheEntry
		if json.Unmarshal(b, &cached) == nil && cached.Key == key && cached.SHA256 == sum && sum != "" {
			cached.File = path
			cached.Prepare()
			return &cached.Policy, nil
		}
	}
	p, err = load()
	if err != nil {
		return nil, err
	}
	writeCache(cacheDir, cfile, p)
	return p, nil
}

// cacheEntry is a disk cache entry: the compiled policy and the key the
// entry's file is named after, so an entry renamed from another
// policy's is not taken for this one's.
type cacheEntry struct {
	Key string `json:"cache_key"`
	Policy
}

// writeCache stores p as the disk cache entry cfile, for the next
// process's call. A cache that cannot be written is not an error: that
// call compiles again.
func writeCache(cacheDir, cfile string, p *Policy) {
	key := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(cfile), "guard-"), ".json")
	if b, err := json.Marshal(cacheEntry{Key: key, Policy: *p}); err == nil {
		if os.MkdirAll(cacheDir, 0o755) == nil {
			_ = atomicfile.Write(cfile, b, 0o644)
		}
	}
}

// cacheFormat changes whenever the compiled Policy's shape or meaning
// changes, so stale caches are never read.
const cacheFormat = "guard-policy-v3"

func cacheKey(data []byte) string {
	// The built-in rule sets are compiled into a policy that names them,
	// so a binary with changed built-ins must not reuse the cache: the
	// key covers fixedDigest, the hash of the programs and the built-ins.
	// It is a generated constant because hashing those sources again in
	// every hook process cost a quarter of a millisecond.
	h := sha256Hex(append([]byte(cacheFormat+"\x00"+fixedDigest+"\x00"), data...))
	return h[:40]
}

// fixedSources is what fixedDigest hashes: the two programs and every
// built-in rule set.
func fixedSources() string {
	return Program + "\x00" + ConditionsProgram + "\x00" + builtinSources()
}

// HookOptions configure one hook invocation.
type HookOptions struct {
	Harness string
	// Policy is the policy file; Root the directory holding .vouch.
	Policy, Root string
	Env          Env
	Home         string
	// Timeout bounds the whole decision, reading stdin included; past it
	// the call is denied.
	Timeout time.Duration
	// TraceDir, when set, receives the programs and trace of the decision.
	TraceDir string
	// NoState skips the session store and the audit log (guard check).
	NoState bool
	Now     func() time.Time
	// Dir is the working directory relative Policy, Root and TraceDir
	// are taken against ("" for this process's own): the hook server
	// decides for clients working elsewhere without changing its own.
	Dir string
	// Policies, when set, keeps compiled policies in memory across calls.
	Policies *PolicyCache
}

// at is p taken relative to o.Dir.
func (o *HookOptions) at(p string) string { return yamldoc.At(o.Dir, p) }

// Paths under Root.
func (o *HookOptions) cacheDir() string { return filepath.Join(o.Root, ".vouch", "cache") }

// AuditPath is the audit log under root.
func AuditPath(root string) string { return filepath.Join(root, ".vouch", "guard", "audit.jsonl") }

// Outcome is a hook invocation's result before rendering.
type Outcome struct {
	Call     *Call
	Phase    Phase
	Event    string
	Decision *Decision
	// Err is set when the decision is a fail-closed deny (bad input,
	// policy or evaluation).
	Err error
}

// RunHook reads one event from stdin and decides it. It never returns
// without a decision: every failure is a deny.
func RunHook(ctx context.Context, e *Engine, stdin io.Reader, o HookOptions) Outcome {
	if o.Timeout <= 0 {
		o.Timeout = DefaultReadTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	ctx, cancel := context.WithTimeoutCause(ctx, o.Timeout, fmt.Errorf("vouch guard took longer than %v", o.Timeout))
	defer cancel()
	done := make(chan Outcome, 1)
	// The deadline deny is only the answer while nothing is recorded:
	// decideHook commits (takes the decision as the answer) just before
	// its first record, and only before the deadline; once the deadline
	// passed uncommitted, it records nothing. So a direct run and the
	// server (whose goroutine outlives the answer) record the same: what
	// the harness was told, or nothing.
	var state atomic.Int32
	commit := func() bool {
		if ctx.Err() != nil {
			state.CompareAndSwap(deciding, abandoned)
		} else {
			state.CompareAndSwap(deciding, committed)
		}
		return state.Load() == committed
	}
	deadline := func() Outcome {
		err := fmt.Errorf("deadline: %w", context.Cause(ctx))
		return Outcome{Phase: Pre, Decision: ErrorDecision(err), Err: err}
	}
	// A panic while deciding is raised again in the caller's goroutine:
	// a hook process crashes as it always has (exit 2, which blocks in
	// Claude Code), and the hook server's per-request recover sees it and
	// closes the connection, so its client runs vouch-guard itself.
	panicked := make(chan any, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				panicked <- r
			}
		}()
		done <- decideHook(ctx, e, stdin, o, commit)
	}()
	// decided is decideHook's outcome, unless it found the deadline
	// passed before committing (and so recorded nothing).
	decided := func(out Outcome) Outcome {
		if state.Load() == abandoned {
			return deadline()
		}
		return out
	}
	select {
	case out := <-done:
		return decided(out)
	case r := <-panicked:
		panic(r)
	case <-ctx.Done():
		if state.CompareAndSwap(deciding, abandoned) || state.Load() == abandoned {
			return deadline()
		}
		// Committed before the deadline: the records are being written
		// (no lock is waited for after committing), and what they record
		// is the answer.
		select {
		case out := <-done:
			return decided(out)
		case r := <-panicked:
			panic(r)
		}
	}
}

// The states of a decision in RunHook.
const (
	deciding int32 = iota
	committed
	abandoned
)

// decideHook decides one call for RunHook. commit reports whether its
// decision is still the answer (the deadline has not passed), and makes
// it so: it is called, with the audit log locked, before anything is
// recorded, and nothing is recorded when it returns false.
func decideHook(ctx context.Context, e *Engine, stdin io.Reader, o HookOptions, commit func() bool) (out Outcome) {
	start := o.Now()
	out.Phase = Pre
	var pol *Policy
	var cnt Counters
	// Messages name o.Root and o.Policy as given; the files are opened
	// at o.Dir.
	root := o.at(o.Root)
	// audit is the audit log, locked, once opened: the lock is taken
	// before committing, so nothing waits for a lock after the decision
	// is the answer.
	var audit *os.File
	defer func() {
		if audit != nil {
			audit.Close()
		}
	}()
	lockAudit := func() error {
		if audit != nil {
			return nil
		}
		f, err := openAudit(ctx, root)
		if err != nil {
			return err
		}
		audit = f
		return nil
	}
	fail := func(err error) Outcome {
		out.Err = err
		out.Decision = ErrorDecision(err)
		if !o.NoState && lockAudit() == nil && commit() {
			rec := NewAuditRecord(start, out.Call, pol, out.Decision, cnt, o.Now().Sub(start))
			rec.Harness = o.Harness
			rec.Error = err.Error()
			_ = writeAudit(audit, rec)
		}
		return out
	}
	data, err := ReadInput(ctx, stdin, MaxEventBytes)
	if err != nil {
		return fail(err)
	}
	call, err := ParseEvent(o.Harness, data)
	if err != nil {
		return fail(err)
	}
	out.Call, out.Phase, out.Event = call, call.Phase, call.Event
	cacheDir := ""
	if !o.NoState {
		cacheDir = o.cacheDir()
	}
	if err := CheckPolicyLocationAt(o.Dir, o.Policy, o.Root); err != nil {
		return fail(fmt.Errorf("guard policy does not load: %w", err))
	}
	pol, err = loadPolicyFile(o.Dir, o.Policy, cacheDir, o.Policies)
	if err != nil {
		return fail(fmt.Errorf("guard policy does not load: %w", err))
	}
	// The temporary directory is the invocation's, not this process's:
	// a server started with TMPDIR=$HOME must not count writes to
	// ~/.bashrc as scratch work for a client whose TMPDIR is unset.
	dctx := DeriveContext{Home: o.Home, Root: root, Dir: o.Dir, TempDir: TempDirOf(o.Env.Getenv), ClaudeConfigDir: ClaudeConfigDirOf(o.Env.Getenv), Policy: o.Policy}
	// The scripts the call runs are noted while it is derived, before
	// the session is locked; only when the session wrote one of them is
	// the call derived again with those files read (see runScripts).
	var runs runScripts
	if !o.NoState {
		dctx.ScriptFile = runs.note
	}
	derived := DeriveIn(call, dctx)
	var sess *Session
	if !o.NoState {
		store := &Store{Root: root, Dir: filepath.Join(".vouch", "guard", "sessions")}
		sess, err = store.OpenContext(ctx, call.SessionID)
		if err != nil {
			return fail(err)
		}
		defer sess.Close()
		cnt = sess.Counters(call.Tool)
		if len(runs.paths) > 0 || runs.many {
			ws, err := sess.written()
			if err != nil {
				return fail(err)
			}
			if runs.many || ws.wants(runs.paths) {
				dctx.ScriptFile = ws.scriptFile
				derived = DeriveIn(call, dctx)
			}
		}
	}
	d, ev, err := e.Decide(pol, call, cnt, o.Env, derived)
	if err != nil {
		return fail(fmt.Errorf("evaluation failed: %w", err))
	}
	if o.TraceDir != "" {
		if err := WriteTrace(o.at(o.TraceDir), ev, d); err != nil {
			return fail(err)
		}
	}
	// The files a post event's call wrote are hashed before committing,
	// in at most half the time left, so the audit line is still written
	// (and its duration counts the hashing) when the call wrote more
	// than can be hashed in time: those files are listed as unhashed.
	var written []FileHash
	if !o.NoState && call.Phase == Post && len(derived.Writes) > 0 {
		hctx, cancel := hashContext(ctx)
		written = HashFiles(hctx, derived.Writes)
		cancel()
	}
	if !o.NoState {
		if err := lockAudit(); err != nil {
			return fail(err)
		}
		if !commit() {
			// Past the deadline: the answer is RunHook's deny, and
			// this decision is recorded nowhere.
			return fail(fmt.Errorf("deadline: %w", context.Cause(ctx)))
		}
	}
	if sess != nil {
		rec := sessionRecord{Kind: "attempt", Tool: call.Tool, Decision: d.Decision}
		if call.Phase == Post {
			rec = sessionRecord{Kind: "exec", Tool: call.Tool, OK: !call.Failed}
		}
		var writes []string
		if call.Phase == Post || d.Decision != Deny {
			// A call that may run (an asked call may be approved) or
			// ran: the files it writes are the session's from here on.
			for _, p := range derived.Writes {
				if !strings.HasPrefix(p, "invalid:") {
					writes = append(writes, p)
				}
			}
			if len(writes) > maxRecordWrites {
				if err := sess.addWritten(writes, false); err != nil {
					return fail(err)
				}
				writes = nil
			}
		}
		if err := sess.appendWrites(rec, writes); err != nil {
			return fail(err)
		}
	}
	out.Decision = d
	if !o.NoState {
		rec := NewAuditRecord(start, call, pol, d, cnt, o.Now().Sub(start))
		rec.FilesWritten = written
		if err := writeAudit(audit, rec); err != nil {
			// An unrecorded decision is not trusted: deny.
			return fail(err)
		}
	}
	return out
}

// runScripts notes the script files a call runs (shellfacts'
// ScriptFile), reading none: most calls run none, or only the project's
// own, and are decided without looking at the session's written set.
type runScripts struct {
	paths []string
	many  bool // more than maxRunScripts were noted
}

// maxRunScripts bounds runScripts; past it the written set is consulted
// whatever the paths.
const maxRunScripts = 64

func (r *runScripts) note(p string) (string, bool, error) {
	if len(r.paths) < maxRunScripts {
		r.paths = append(r.paths, p)
	} else {
		r.many = true
	}
	return "", false, nil
}

// hashContext bounds hashing a post event's files to half the time ctx
// has left: the other half is for the lock, the session and the audit
// line. (The deadline is the wall clock's, not HookOptions.Now's.)
func hashContext(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, time.Until(dl)/2)
}

// WriteTrace writes one decision's two programs (with their facts) and an
// evaluation trace into dir: conditions.dl, guard.dl and trace.txt. Each
// .dl is self-contained: `mg -load` reproduces its derivations.
func WriteTrace(dir string, ev *Evaluation, d *Decision) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	write := func(name, program string, facts []ast.Atom) error {
		var b bytes.Buffer
		b.WriteString(program)
		b.WriteString("\n# Facts of this call.\n")
		sorted := append([]ast.Atom(nil), facts...)
		datalog.SortAtoms(sorted)
		for _, f := range sorted {
			b.WriteString(datalog.FormatFact(f))
			b.WriteByte('\n')
		}
		return atomicfile.Write(filepath.Join(dir, name), b.Bytes(), 0o644)
	}
	var guardFacts []ast.Atom
	for _, f := range ev.Facts {
		guardFacts = append(guardFacts, f)
	}
	if err := write("conditions.dl", ConditionsProgram, ev.TreeFacts); err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	if err := write("guard.dl", Program, guardFacts); err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	// The trace re-evaluates the program (its generated analysis, the
	// same clauses as the written text) with the datalog
	// package, which keeps the strata and timings a trace reports.
	res, err := datalog.EvalAnalysis(guardAnalysis(), ev.Facts, datalog.Options{})
	if err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	var t bytes.Buffer
	fmt.Fprintf(&t, "vouch guard trace\nengine: %s\ndecision: %s\n", datalog.EngineVersion, d.Decision)
	for _, pred := range []struct {
		name  string
		arity int
	}{{"decision", 1}, {"finding", 4}, {"fires", 4}, {"policy_error", 1}} {
		for _, a := range res.Facts(pred.name, pred.arity) {
			fmt.Fprintf(&t, "derived: %s\n", datalog.FormatFact(a))
		}
	}
	if err := res.WriteSummary(&t); err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, "trace.txt"), t.Bytes(), 0o644); err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	return nil
}

// ParsePrincipal decodes VOUCH_PRINCIPAL: a JSON object.
func ParsePrincipal(s string) (map[string]any, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	m, err := decodeObject([]byte(s), "VOUCH_PRINCIPAL")
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), ErrBadEvent.Error()+": "))
	}
	return m, nil
}

// loadInline reads the policy written under guard.policy in the
// configuration file (vouch.yaml), with its positions in that file. The
// cache key covers the whole file, marked as an inline policy.
func loadInline(dir, file, cacheDir string, mem *PolicyCache) (*Policy, error) {
	if fi, err := os.Stat(yamldoc.At(dir, file)); err == nil && !fi.Mode().IsRegular() {
		return nil, yamldoc.ErrorList{{File: file, Msg: "the configuration is not a regular file (" + safeopen.Kind(fi.Mode()) + ")"}}
	}
	f, err := yamldoc.ReadFileAt(dir, file, "vouch.yaml", MaxPolicyBytes, "")
	if err != nil {
		return nil, err
	}
	data := f.Data
	return loadCached(file+config.InlinePolicy, append([]byte(config.InlinePolicy+"\n"), data...), sha256Hex(data), cacheDir, mem, func() (*Policy, error) {
		return LoadInlinePolicy(file, data)
	})
}
