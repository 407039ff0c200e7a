package guard

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"github.com/vouch-dev/vouch/shellfacts"
)

// toolKind is what a tool does with the paths its arguments name.
type toolKind struct {
	// write: the paths are written; remove: they are removed. Neither:
	// they are read.
	write, remove bool
	// shows: a write that also shows or keeps the file's old content,
	// which makes it a read as well: an edit's result quotes the edited
	// lines (Claude Code's Edit, the MCP filesystem server's edit_file
	// diff), and a move carries the content to a name a later read would
	// not recognise. Tools that create or overwrite a file from the text
	// they are given (Write, write_file, create_file) read nothing.
	shows bool
	// copies: a copy reads its source arguments (source, src, from ...)
	// and writes its destination arguments (destination, dst, target
	// ...); an argument that says neither may be either, so it is both.
	copies bool
	// uploads: the tool sends the files it names over the network
	// (upload_file): they are read, and uploads as curl -T's file is.
	uploads bool
}

var (
	kindWrite  = toolKind{write: true}
	kindEdit   = toolKind{write: true, shows: true}
	kindRemove = toolKind{remove: true}
)

// knownTools are the file tools of the harnesses by their exact names:
// Claude Code's, Gemini CLI's, GitHub Copilot CLI's (create, edit,
// str_replace_editor) and Cursor's (Write, StrReplace, Delete; a
// beforeReadFile event is Read). Any other name is classified by the
// verbs in it (classifyTool).
var knownTools = map[string]toolKind{
	"Write": kindWrite, "Edit": kindEdit, "MultiEdit": kindEdit, "NotebookEdit": kindEdit,
	"write_file": kindWrite, "replace": kindEdit, "edit_file": kindEdit, "create_file": kindWrite,
	"str_replace_editor": kindEdit, "edit": kindEdit, "create": kindWrite,
	"StrReplace": kindEdit, "Delete": kindRemove,
}

// Verbs in a tool's name, matched against its words (classifyTool). The
// long ones are matched inside a word too (overwrite, rmdir, deleteAll);
// the short ones only as a whole word, so input, output and dataset are
// not put, set or add.
var (
	removeVerbs      = []string{"delete", "remove", "unlink", "rmdir", "trash", "purge", "wipe", "erase", "destroy", "truncate", "shred"}
	removeWords      = []string{"rm", "del", "drop", "clear", "empty", "prune"}
	uploadVerbs      = []string{"upload"}
	uploadWords      = []string{"send", "post", "share", "attach", "publish"}
	writeVerbs       = []string{"write", "create", "save", "mkdir", "download", "touch"}
	writeWords       = []string{"put", "set", "add", "new", "mk"}
	editVerbs        = []string{"edit", "update", "append", "move", "rename", "patch", "replace", "insert", "modify", "overwrite"}
	editWords        = []string{"mv"}
	copyVerbs        = []string{"copy", "duplicate", "clone"}
	copyWords        = []string{"cp"}
	readWordsInWrite = []string{"read", "get", "view", "show", "cat", "list", "ls", "search", "find", "grep", "open", "load", "fetch", "dump", "diff", "stat", "head", "tail", "print", "export"}
	// A name that says none of the verbs above reads its paths only
	// when it has one of these words (whole words: a browser is no
	// browse, invalidate no validate, global no glob); any other (a verb
	// vouch does not know: chmod, symlink, store, convert,
	// take_screenshot) reads and writes them, so an unknown tool may
	// change files in the repository but not outside it. Not here, as
	// they may write a file they are given: dump, export, print,
	// snapshot, render.
	readWords = []string{"read", "reads", "reader", "view", "viewer", "show", "list", "lists", "listing", "search", "find",
		"grep", "glob", "fetch", "query", "lookup", "inspect", "describe", "preview", "browse", "explore", "navigate",
		"status", "diff", "compare", "analyze", "analyse", "analysis", "summary", "summarize", "summarise", "explain",
		"validate", "verify", "lint", "diagnostics", "diagnose", "hover", "definition", "definitions", "references",
		"outline", "resolve", "locate", "get", "cat", "ls", "tree", "info", "stat", "stats", "head", "tail", "count",
		"check", "open", "load", "log", "logs", "blame", "exists", "symbols", "completion", "signature"}
	// A tool that runs a command (run_shell_command, exec_command,
	// Bash) is judged by that command; its path arguments (the
	// directory it runs in, a script) are read, not written.
	execVerbs = []string{"exec", "spawn"}
	execWords = []string{"run", "shell", "bash", "sh", "zsh", "terminal", "command", "cmd"}
)

// classifyTool says what a tool does with its path arguments: a harness's
// own file tool by its name (knownTools), any other, MCP tools included,
// by the verbs in the tool's own name, however the harness spells it:
// Claude Code's and Codex's mcp__server__tool, Gemini CLI's
// server__tool, Cursor's MCP:tool or MCP:server:tool (and the bare tool
// in beforeMCPExecution), Copilot CLI's server-tool, in snake_case or
// CamelCase (Cursor's TabWrite). A name that says delete, remove, unlink,
// rmdir, trash, purge, wipe, erase, drop, clear ... removes; one that
// says upload, send, post, share ... sends its files over the network
// (reads them, and they are uploads); one that says write, create, save,
// download, put, set, add ... writes, and one that says edit, update,
// move, rename, patch, replace, insert ... writes and shows the old
// content; copy reads its source and writes its destination. A writing
// name that also says read, get, view, list ... (get_or_create_file)
// reads as well. Any other name reads when it says read, get, list,
// search ... (readWords) or runs a command (run, exec, shell ...), and
// otherwise, a verb vouch does not know, reads and writes.
func classifyTool(tool string) toolKind {
	if k, ok := knownTools[tool]; ok {
		return k
	}
	words := nameWords(toolName(tool))
	has := func(verbs, whole []string) bool {
		for _, w := range words {
			for _, v := range verbs {
				if strings.Contains(w, v) {
					return true
				}
			}
			for _, v := range whole {
				if w == v {
					return true
				}
			}
		}
		return false
	}
	var k toolKind
	switch {
	case has(removeVerbs, removeWords):
		return kindRemove
	case has(uploadVerbs, uploadWords):
		return toolKind{uploads: true}
	case has(copyVerbs, copyWords):
		k = toolKind{write: true, copies: true}
	case has(editVerbs, editWords):
		k = kindEdit
	case has(writeVerbs, writeWords):
		k = kindWrite
	case has(nil, readWords), has(execVerbs, execWords):
		return toolKind{}
	default:
		// A verb vouch does not know (purge? chmod? store?) may change
		// what it names: fail closed, as a write that also reads.
		return kindEdit
	}
	if has(nil, readWordsInWrite) {
		k.shows = true
	}
	return k
}

// nameWords splits a tool name into lower-case words at anything not a
// letter or digit and where CamelCase starts a word (StrReplace,
// TabWrite, HTTPGet).
func nameWords(name string) []string {
	var words []string
	var cur []rune
	rs := []rune(name)
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) ||
			unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1])):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// keyRole is how a copy uses a path argument.
type keyRole int

const (
	roleAny keyRole = iota
	roleSource
	roleDest
)

// pathKeys are the argument names (as foldKey spells them: file_path,
// filePath and file-path alike) that hold a path, across harnesses:
// Claude Code's file_path, notebook_path and path, Gemini CLI's
// absolute_path and dir_path, Cursor's target_file, the MCP filesystem
// server's source and destination, Serena's relative_path, the JetBrains
// MCP server's pathInProject. Beyond these, a name that ends in path,
// file, dir, directory or folder (source_path, new_path, output_file,
// workdir) holds one too (isPathKey), but not a remote_path, an xpath or
// a profile.
var pathKeys = map[string]bool{"absolutepath": true, "destination": true, "dest": true, "dir": true, "dirpath": true, "directory": true,
	"dst": true, "file": true, "filepath": true, "filename": true, "folder": true, "notebookpath": true, "path": true,
	"relativepath": true, "source": true, "src": true, "target": true, "targetfile": true, "pathinproject": true, "pathname": true}

// writePathKeys hold a path for a tool that writes (a move's from and to,
// a conversion's out or output); for another tool they are too often no
// path (an e-mail's to, a language's from, an output format).
var writePathKeys = map[string]bool{"from": true, "to": true, "out": true, "output": true}

// pathListKeys are argument names (folded) that hold a list of paths (the
// MCP filesystem server's read_multiple_files takes paths: [...]); a list
// element that is an object is read for the path arguments in it
// (files: [{path, content}]).
var pathListKeys = map[string]bool{"filepaths": true, "files": true, "paths": true, "filenames": true, "pathnames": true}

// isPathKey reports whether an argument name holds a path.
func isPathKey(k string) bool {
	n := foldKey(k)
	if pathKeys[n] {
		return true
	}
	switch {
	case strings.HasPrefix(n, "remote"), notFilePaths[n], strings.HasSuffix(n, "profile"):
		// A path on another machine, or not a file's; a profile is a
		// name (aws_profile), though it ends in "file".
		return false
	}
	for _, s := range []string{"path", "file", "dir", "directory", "folder"} {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// notFilePaths are argument names (lower case, without _ and -) that end
// in "path" but whose prefix says the path is not a file's: Serena's
// name_path (/Class/method), a web framework's route_path or url_path, an
// API's api_path, a JSON or XML document's json_path and xpath, an
// object's key_path or field_path.
var notFilePaths = map[string]bool{"xpath": true, "jsonpath": true, "urlpath": true, "apipath": true, "namepath": true,
	"routepath": true, "symbolpath": true, "keypath": true, "fieldpath": true, "propertypath": true, "endpointpath": true}

// repoPathKeys are argument names that, beside owner and repo arguments,
// name a file in that remote repository (the GitHub MCP server's
// get_file_contents {owner, repo, path}), not a local one.
var repoPathKeys = map[string]bool{"path": true, "paths": true}

// forgeServers are words that name a code forge's MCP server (GitHub's
// github-mcp-server, GitLab's, Gitea's ...), whose tools take paths in
// a remote repository.
var forgeServers = map[string]bool{"github": true, "gh": true, "gitlab": true, "glab": true, "gitea": true, "forgejo": true,
	"codeberg": true, "bitbucket": true}

// toolServer is the MCP server part of a tool's name as a harness spells
// it: mcp__server__tool (Claude Code, Codex), server__tool (Gemini CLI),
// MCP:server:tool (Cursor's preToolUse), server-tool (Copilot CLI, where
// the server is taken to be all before the last hyphen). A name without
// one (Cursor's MCP:tool, the bare tool of its beforeMCPExecution) has
// none: "".
func toolServer(tool string) string {
	if i := strings.LastIndex(tool, "__"); i >= 0 {
		s := tool[:i]
		if j := strings.LastIndex(s, "__"); j >= 0 {
			s = s[j+2:]
		}
		return s
	}
	if i := strings.LastIndexByte(tool, ':'); i >= 0 {
		s := tool[:i]
		if j := strings.LastIndexByte(s, ':'); j >= 0 {
			return s[j+1:]
		}
		return "" // MCP:tool
	}
	if i := strings.LastIndexByte(tool, '-'); i >= 0 {
		return tool[:i]
	}
	return ""
}

// remoteRepoCall reports whether a call's path arguments named
// repoPathKeys lie in a remote repository: its arguments name an owner
// and a repo, and its server is a code forge's (forgeServers). The agent
// chooses the arguments, not the server: owner and repo added to a local
// file server's call (which drops arguments it does not know) leave its
// paths local. A tool that uploads sends local files (to that repository,
// perhaps), and a harness's file tool has no server.
func remoteRepoCall(tool string, kind toolKind, args map[string]any) bool {
	if _, local := knownTools[tool]; local || kind.uploads {
		return false
	}
	forge := false
	for _, w := range nameWords(toolServer(tool)) {
		forge = forge || forgeServers[w]
	}
	if !forge {
		return false
	}
	owner, ok1 := args["owner"].(string)
	repo, ok2 := args["repo"].(string)
	return ok1 && ok2 && owner != "" && repo != ""
}

// scriptIsCode reports whether a tool's script argument is JavaScript
// or other code run somewhere other than a shell: a tool whose name says
// it evaluates in a page or a browser (puppeteer_evaluate,
// browser_evaluate, evaluate_script). Any other tool's script is taken
// for a shell command line, as an unknown tool's may be.
func scriptIsCode(tool string) bool {
	name := tool
	if i := strings.LastIndex(name, "__"); i >= 0 {
		name = tool[:i] + " " + name[i+2:] // the server's name counts too
	}
	for _, w := range nameWords(name) {
		switch w {
		case "evaluate", "eval", "browser", "puppeteer", "playwright", "devtools", "javascript", "js", "page":
			return true
		}
	}
	return false
}

// execTool reports whether a tool's own name (not its server's) says it
// runs commands (execVerbs, execWords: run_command, exec, spawn,
// run_shell_command), whose bare args list is then an argument vector.
func execTool(tool string) bool {
	for _, w := range nameWords(toolName(tool)) {
		if slices.Contains(execWords, w) || slices.ContainsFunc(execVerbs, func(v string) bool { return strings.Contains(w, v) }) {
			return true
		}
	}
	return false
}

// shellTool reports whether a tool's name, its server's included, says it
// is a shell's (mcp__shell__execute, mcp__x__bash, terminal_run), whose
// code argument is then a command line.
func shellTool(tool string) bool {
	for _, w := range nameWords(toolServer(tool) + " " + toolName(tool)) {
		switch w {
		case "shell", "bash", "sh", "zsh", "terminal":
			return true
		}
	}
	return false
}

// toolName is a tool's name without its server (toolServer) as
// classifyTool reads it.
func toolName(tool string) string {
	name := tool
	if i := strings.LastIndex(name, "__"); i >= 0 {
		name = name[i+2:]
	}
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// foldKey is an argument name lower-cased without its underscores and
// hyphens, so that file_path, filePath and file-path compare equal. (A
// strings.Replacer made per call built its lookup table each time: most
// of a tool call's allocations.)
func foldKey(k string) string {
	if !strings.ContainsAny(k, "_-") {
		return strings.ToLower(k)
	}
	var b strings.Builder
	b.Grow(len(k))
	for _, r := range k {
		if r != '_' && r != '-' {
			b.WriteRune(r)
		}
	}
	return strings.ToLower(b.String())
}

// roleOf is how a copy uses the path argument named k.
func roleOf(k string) keyRole {
	n := foldKey(k)
	switch {
	case n == "from" || strings.HasPrefix(n, "source") || strings.HasPrefix(n, "src") || strings.HasPrefix(n, "old") || strings.HasPrefix(n, "input"):
		return roleSource
	case n == "to" || strings.HasPrefix(n, "dest") || strings.HasPrefix(n, "dst") || strings.HasPrefix(n, "target") ||
		strings.HasPrefix(n, "new") || strings.HasPrefix(n, "output"):
		return roleDest
	}
	return roleAny
}

// shellKeys are argument names (folded) whose value is a shell command
// line, or an argument vector when it is a list: Bash's command, and the
// command, cmd, script, cmdline and command_line arguments MCP servers
// and other harnesses use for the same. Not code, nor input: an arbitrary
// tool's code is Python or JavaScript as often as shell, and its input
// data for a program (codeKeys).
var shellKeys = map[string]bool{"cmd": true, "command": true, "script": true, "shellcommand": true, "cmdline": true,
	"commandline": true, "bashcommand": true}

// programKeys name the program an argument vector (argvKeys) beside them
// runs ({"program": "rm", "args": [...]}); alone they are no command.
var programKeys = map[string]bool{"program": true, "executable": true}

// argvKeys hold a program's arguments beside a command or program
// argument: {"command": "rm", "args": ["-rf", "/"]}, the shape of
// spawn(command, args). argv alone is a whole argument vector, the
// program first; args and arguments alone are one only for a tool that
// runs commands (execTool), being anything elsewhere.
var argvKeys = map[string]bool{"args": true, "argv": true, "arguments": true}

// shellListKeys hold a list of command lines ({"commands": ["npm ci",
// "npm test"]}).
var shellListKeys = map[string]bool{"commands": true}

// codeKeys hold a shell command line only for a tool whose name says it
// is a shell's (shellTool): mcp__shell__execute {code: "..."}.
var codeKeys = map[string]bool{"code": true}

// urlKeys hold a URL a tool fetches; a file: URL among them is a path.
var urlKeys = map[string]bool{"endpoint": true, "uri": true, "url": true, "uris": true, "urls": true}

// typedShellTools are tools that type text into a shell that is already
// running, by the argument that holds the text: GitHub Copilot CLI's
// write_bash sends input to a shell its bash tool started.
var typedShellTools = map[string]string{"write_bash": "input"}

// maxArgDepth bounds how deep into nested objects and lists the arguments
// are searched for paths, commands and URLs: far deeper than tools'
// schemas go, rich documents (a page's blocks) included. What lies deeper
// is not looked at, so the call is shell_truncated (a vouch/v1 policy
// asks) and the arguments count as a path that lies within no directory
// (a sandbox or a write rule refuses it) rather than miss what they hide.
const maxArgDepth = 32

// isApplyPatch reports whether a tool is Codex's apply_patch, whose input
// is a patch in Codex's own format, not a shell command.
func isApplyPatch(tool string) bool {
	switch tool {
	case "apply_patch", "applypatch", "ApplyPatch":
		return true
	}
	return false
}

// argFacts records a call's facts from its arguments.
type argFacts struct {
	f    *CallFacts
	kind toolKind
	// canon makes a path argument canonical against the call's
	// directory and home.
	canon func(s string) string
	// remoteRepo: the top-level repoPathKeys name files in a remote
	// repository (remoteRepoCall), so they are no local paths.
	remoteRepo bool
	// scriptCode: the script argument is code for something other than
	// a shell (scriptIsCode).
	scriptCode bool
	// execTool: the tool runs commands (execTool), so a bare args list
	// is one; shellTool: it is a shell's (shellTool), so its code is a
	// command line.
	execTool, shellTool bool
}

// path records a path argument under the role it plays.
func (a *argFacts) path(s string, role keyRole) { a.fact(a.canon(s), role) }

// fact records a canonical path (or one that lies within no directory)
// as the tool's kind and the argument's role make it: read, written,
// removed.
func (a *argFacts) fact(p string, role keyRole) {
	f, k := a.f, a.kind
	switch {
	case k.uploads:
		f.Reads = append(f.Reads, p)
		f.Uploads = append(f.Uploads, p)
	case k.remove:
		f.Deletes = append(f.Deletes, p)
	case k.copies && role == roleSource:
		f.Reads = append(f.Reads, p)
	case k.copies && role == roleDest:
		f.Writes = append(f.Writes, p)
		if k.shows {
			f.Reads = append(f.Reads, p)
		}
	case k.write:
		f.Writes = append(f.Writes, p)
		if k.shows || k.copies {
			f.Reads = append(f.Reads, p)
		}
	default:
		f.Reads = append(f.Reads, p)
	}
}

// notPath records an argument that should be a path and is not, as a
// fact that lies within no directory.
func (a *argFacts) notPath(v any, role keyRole) { a.fact(fmt.Sprintf("invalid:%v", v), role) }

// tooDeep records arguments nested deeper than maxArgDepth: not looked
// at, so the call is shell_truncated, and a path that lies within no
// directory.
func (a *argFacts) tooDeep() {
	msg := fmt.Sprintf("tool arguments nested deeper than %d levels were not analysed", maxArgDepth)
	a.fact("invalid:"+msg, roleAny)
	if a.f.ShellTruncated == "" {
		a.f.ShellTruncated = msg
	}
}

// object records the facts of an argument object: its path, path list,
// URL and shell arguments by name, a program and its argument vector
// (argv), and those in any object or list below its other arguments.
func (a *argFacts) object(m map[string]any, depth int, skip string) {
	if depth > maxArgDepth {
		a.tooDeep()
		return
	}
	// In a fixed order, so the first shell error of two is always the
	// same one.
	keys := slices.Sorted(maps.Keys(m))
	done := a.argv(m, keys, skip)
	for _, k := range keys {
		v := m[k]
		if k == skip || done[k] {
			continue
		}
		n := foldKey(k)
		switch {
		case depth == 0 && a.remoteRepo && repoPathKeys[k]:
			// A file in the remote repository; nothing local.
		case n == "script" && a.scriptCode:
			a.nested(v, depth)
		case shellKeys[n], codeKeys[n] && a.shellTool:
			a.shellArg(k, v)
		case shellListKeys[n]:
			a.shellList(k, v, depth)
		case urlKeys[n]:
			a.urlArg(v, depth)
		case pathListKeys[n]:
			a.pathList(v, roleOf(k), depth)
		case isPathKey(k), writePathKeys[n] && a.kind.write && !a.kind.uploads:
			a.pathArg(v, roleOf(k), depth)
		default:
			a.nested(v, depth)
		}
	}
}

// argv records a command an object gives as a program and its argument
// vector ({"command": "rm", "args": ["-rf", "/"]}, {"program": ...,
// "argv": [...]}), or as a bare vector (argvKeys), and returns the keys
// it took. The program is read as a command line (it may carry options
// of its own), each element of the vector as one word, as spawn passes
// it: not split again. A vector holding something other than strings
// runs what is not known.
func (a *argFacts) argv(m map[string]any, keys []string, skip string) map[string]bool {
	var prog, vec string
	for _, k := range keys {
		n := foldKey(k)
		switch {
		case k == skip:
		case argvKeys[n]:
			if _, isObj := m[k].(map[string]any); vec == "" && !isObj && m[k] != nil {
				vec = k
			}
		case n == "script" && a.scriptCode:
		case shellKeys[n] || programKeys[n] || codeKeys[n] && a.shellTool:
			if prog == "" {
				prog = k
			}
		}
	}
	if vec == "" {
		return nil
	}
	var line string
	switch p := m[prog].(type) {
	case string:
		line = p
	case []any:
		q, ok := quoteArgv(p)
		if !ok {
			return nil // shellArg records the program as unknown
		}
		line = q
	case nil:
		// No program: a bare vector, which names its program first.
		if foldKey(vec) != "argv" && !a.execTool {
			return nil
		}
		prog = ""
	default:
		return nil
	}
	switch v := m[vec].(type) {
	case string:
		line += " " + v
	case []any:
		q, ok := quoteArgv(v)
		if !ok {
			if prog == "" {
				return nil
			}
			a.f.Unknown = append(a.f.Unknown, fmt.Sprintf("%s %s: %v", prog, vec, v))
			return map[string]bool{prog: true, vec: true}
		}
		line += " " + q
	default:
		return nil
	}
	if line = strings.TrimSpace(line); line != "" {
		a.f.shell(line, false)
	}
	return map[string]bool{prog: true, vec: true}
}

// quoteArgv quotes an argument vector's elements for the shell, each one
// word; ok is false when one is not a string: how a server would turn it
// into one (or refuse it) is not known.
func quoteArgv(v []any) (line string, ok bool) {
	q := make([]string, len(v))
	for i, x := range v {
		s, isStr := x.(string)
		if !isStr {
			return "", false
		}
		q[i] = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return strings.Join(q, " "), true
}

// shellList records an argument holding a list of command lines: each
// string is one, each list an argument vector, each object is searched.
func (a *argFacts) shellList(k string, v any, depth int) {
	switch v := v.(type) {
	case []any:
		if depth+1 > maxArgDepth {
			a.tooDeep()
			return
		}
		for _, e := range v {
			if m, ok := e.(map[string]any); ok {
				a.object(m, depth+1, "")
			} else {
				a.shellArg(k, e)
			}
		}
	case map[string]any:
		a.object(v, depth+1, "")
	default:
		a.shellArg(k, v)
	}
}

// nested looks for facts below an argument that is not a path, command
// or URL: an object's own arguments, a list's elements, and a file: URL
// wherever it is (resource: "file:///...").
func (a *argFacts) nested(v any, depth int) {
	switch v := v.(type) {
	case map[string]any:
		a.object(v, depth+1, "")
	case []any:
		if depth+1 > maxArgDepth {
			a.tooDeep()
			return
		}
		for _, e := range v {
			a.nested(e, depth+1)
		}
	case string:
		if len(v) >= 5 && strings.EqualFold(v[:5], "file:") {
			a.urlArg(v, depth)
		}
	}
}

// pathArg records an argument that holds a path.
func (a *argFacts) pathArg(v any, role keyRole, depth int) {
	switch v := v.(type) {
	case nil:
	case string:
		if v != "" {
			a.path(v, role)
		}
	case []any:
		// A list where one path is expected: each string is a path,
		// each object is searched for paths.
		if depth+1 > maxArgDepth {
			a.tooDeep()
			return
		}
		for _, e := range v {
			switch e := e.(type) {
			case string:
				a.path(e, role)
			case map[string]any:
				a.object(e, depth+1, "")
			case []any:
				a.pathArg(e, role, depth+1)
			default:
				a.notPath(e, role)
			}
		}
	default:
		// Not a path: recorded as one that lies within no directory,
		// so a sandbox refuses it rather than pass it by.
		a.notPath(v, role)
	}
}

// pathList records an argument that holds a list of paths; its objects
// are searched for path arguments (files: [{path, content}]).
func (a *argFacts) pathList(v any, role keyRole, depth int) {
	switch v := v.(type) {
	case string:
		if v != "" {
			a.path(v, role)
		}
	case []any:
		if depth+1 > maxArgDepth {
			a.tooDeep()
			return
		}
		for _, e := range v {
			switch e := e.(type) {
			case string:
				if e != "" {
					a.path(e, role)
				}
			case map[string]any:
				a.object(e, depth+1, "")
			case []any:
				a.pathList(e, role, depth+1)
			}
		}
	case map[string]any:
		a.object(v, depth+1, "")
	}
}

// urlArg records a URL argument: a network target, or, for a file: URL
// (file:///root/.ssh/id_rsa), the path it names.
func (a *argFacts) urlArg(v any, depth int) {
	switch v := v.(type) {
	case string:
		if v == "" {
			return
		}
		if len(v) >= 5 && strings.EqualFold(v[:5], "file:") {
			u, err := url.Parse(v)
			switch {
			case err != nil:
				a.notPath(v, roleAny)
			case u.Path != "":
				a.path(u.Path, roleAny)
			case u.Opaque != "":
				// file:relative/x
				if p, err := url.PathUnescape(u.Opaque); err == nil {
					a.path(p, roleAny)
				} else {
					a.notPath(v, roleAny)
				}
			default:
				a.notPath(v, roleAny)
			}
			return
		}
		a.f.URLs = append(a.f.URLs, v)
	case []any:
		if depth+1 > maxArgDepth {
			a.tooDeep()
			return
		}
		for _, e := range v {
			a.urlArg(e, depth+1)
		}
	}
}

// shellArg records an argument that holds a command line or an argument
// vector.
func (a *argFacts) shellArg(k string, v any) {
	f := a.f
	switch v := v.(type) {
	case string:
		if v != "" {
			f.shell(v, false)
		}
	case []any:
		// An argument vector (["rm", "-rf", "/"]) runs without a
		// shell: quote each element so it stays one word.
		if q, ok := quoteArgv(v); ok && len(v) > 0 {
			f.shell(q, false)
		} else if len(v) > 0 {
			// Some element is not a string: what runs is not known.
			f.Unknown = append(f.Unknown, fmt.Sprintf("%s: %v", k, v))
		}
	case nil:
	default:
		f.Unknown = append(f.Unknown, fmt.Sprintf("%s: %v", k, v))
	}
}

// patch records the files a Codex apply_patch patch adds, updates,
// deletes or moves to; a patch that does not parse is recorded as a
// shell_error, which vouch/v1 policies ask about (vouch-unparsed-shell):
// what it would change is not known. Paths in a patch are literal,
// relative to the call's directory: Codex expands no ~.
func (a *argFacts) patch(args map[string]any) (key string) {
	f := a.f
	var text string
	for _, k := range []string{"command", "input", "patch"} {
		if s, ok := args[k].(string); ok && s != "" {
			key, text = k, s
			break
		}
	}
	if key == "" {
		f.ShellError = "apply_patch: the call carries no patch (command, input or patch)"
		return ""
	}
	files, err := shellfacts.ParseCodexPatch(text)
	if err != nil {
		f.ShellError = "apply_patch: the patch does not parse: " + err.Error()
		return key
	}
	literal := func(p string) string {
		if strings.HasPrefix(p, "~") {
			return "./" + p
		}
		return p
	}
	edit, remove, write := *a, *a, *a
	edit.kind, remove.kind, write.kind = kindEdit, kindRemove, kindWrite
	for i, pf := range files {
		p := literal(pf.Path)
		switch pf.Op {
		case shellfacts.PatchAdd, shellfacts.PatchMove:
			write.path(p, roleAny)
		case shellfacts.PatchUpdate:
			edit.path(p, roleAny)
			if i+1 < len(files) && files[i+1].Op == shellfacts.PatchMove {
				// The updated file moves away: it is removed.
				remove.path(p, roleAny)
			}
		case shellfacts.PatchDelete:
			remove.path(p, roleAny)
		}
	}
	return key
}
