// Package shellfacts parses a shell command line with mvdan.cc/sh/v3/syntax
// into facts a policy can match: every simple command wherever it is
// nested, and the files and network targets it touches.
//
// A guard that matches the command string with patterns is easy to walk
// around: `git status && rm -rf x`, `bash -c 'rm -rf x'`, `sudo env A=1 rm
// -rf x`, `echo x | xargs rm -rf`. Parse reads the command the way bash
// would and reports each simple command on its own, with the program name
// after wrappers are stripped, so a rule on rm sees all of these, and
// `echo "rm -rf"` or `git commit -m 'rm -rf'` are not rm at all.
//
// # What is found
//
//   - Commands in lists (;, &&, ||, newlines), pipelines, subshells, blocks,
//     if/while/until/for/case/select bodies, function bodies, coprocesses,
//     command substitutions $(...) and `...`, process substitutions <(...),
//     substitutions inside other words (assignments, redirections,
//     here-documents, [[ ]], arithmetic, parameter defaults), and the
//     strings run by bash/sh/zsh/dash/ksh -c, eval, su -c, flock -c, trap,
//     alias, watch, env -S, find -exec, git -c alias.x='!...', ssh -o
//     ProxyCommand, script -c, and shells fed a here-document, a
//     here-string or the output of a static echo or printf (on stdin,
//     or through /dev/stdin, /dev/fd/N or -, as bash and source read
//     them, or redirected to a block or subshell around the shell;
//     another program's output, such as source <(echo ...), or a
//     descriptor opened outside the command is unknown code); each
//     nesting level counts one Depth, up to
//     Options.MaxDepth.
//   - Commands run out of the shell's sight, analysed as if they ran
//     here: in a tmux window or by tmux (new-session, new-window,
//     split-window, respawn-pane, run-shell, if-shell, pipe-pane,
//     display-popup, detach-client -E, tmux -c, the default-command
//     option, a #(command) in any argument, and the tmux commands that
//     bind-key, set-hook, if-shell and the like hold; tmux's global
//     options, command sequences with ;, aliases and unique prefixes
//     are read as tmux reads them), in a screen window (screen cmd,
//     screen -X screen and exec, also under screen -X at), typed into a
//     shell that runs there (tmux send-keys, screen -X stuff, and
//     tmux paste-buffer and screen -X paste of a buffer or register set
//     in the command line: the lines entered with Enter or a newline,
//     and the text left on the line, which a later Enter runs; such a
//     shell's directory is not known; a buffer loaded from a file, or
//     one not set in the command line, is unknown code), at a later time
//     (at and batch fed a here-document, a here-string or the output of
//     a static echo or printf through a pipe), and over ssh to this
//     machine (localhost, a loopback or unspecified address in any
//     notation, ssh -o HostName=localhost; the command given by -o
//     RemoteCommand too; in the home directory, with a script on stdin
//     when no command or a shell is given).
//   - Programs build tools run from their flags or environment, which
//     exec them without a shell: go -exec and -toolexec (split as go
//     splits them), go vet -vettool, the same in GOFLAGS and go env -w
//     GOFLAGS, and cargo's runners, linkers and rustc wrappers
//     (CARGO_TARGET_<TRIPLE>_RUNNER, RUSTC_WRAPPER...): one level deeper,
//     exactly those words followed by arguments only known at run time,
//     in a directory only known at run time. cargo --config that may
//     name such a program, or that reads a file, is unknown code.
//   - apply_patch and applypatch, which Codex's shell tool applies
//     itself, read their patch (an argument, or a here-document) in
//     Codex's format (ParseCodexPatch): added files and move targets
//     are written, updated files read and written, deleted and moved
//     files deleted; a patch not static or not parsed is an unresolved
//     write. Options.CwdUnknown analyses a command whose starting
//     directory is unknown, such as text typed into a shell already
//     running (Copilot CLI's write_bash).
//   - Wrappers are stripped and listed: sudo, doas, pkexec, gosu, env,
//     timeout, nice, nohup, time, command, exec, builtin, xargs, parallel,
//     stdbuf, ionice, setsid, chrt, taskset, flock, strace, chroot, unshare,
//     nsenter, systemd-run, busybox, sshpass, find -exec, screen, BSD
//     script, the run/exec verbs of environment runners (uv run, poetry
//     run, bundle exec, direnv exec...), run0, flatpak-spawn, bwrap, proot,
//     nix develop -c and nix shell -c, nix run nixpkgs#PKG, entr, sem, cgexec, chpst, faketime,
//     numactl, s6-setuidgid, systemd-inhibit, valgrind, with-contenv,
//     dotenv -- (which reads .env or its -e files) (gdb,
//     lldb and hyperfine run unknown code), and those that run a
//     command with secrets in its environment (aws-vault exec PROFILE,
//     op run, doppler run); a string one runs (nix-shell --run or
//     --command, doppler run --command, entr -s) is parsed like sh -c.
//     GNU parallel without -q joins its command's words into a shell
//     command line: when one holds shell syntax, that line is parsed
//     with each job's static inputs put in (or a word only known at run
//     time standing for inputs not known), and with no command each
//     input is a command line.
//     One that starts a shell when given no command (su, sudo -s or -i,
//     doas -s, pkexec, script, chroot DIR, unshare, nsenter, firejail,
//     newgrp, sg GROUP, run0, nix-shell, nix develop, aws-vault exec,
//     proot) is a shell fed
//     its stdin: a here-document, here-string or static echo there is
//     analysed as for bash.
//   - Variables assigned a static value earlier in the same command line
//     are substituted (F=.env; cat $F), as are $HOME and $PWD; an
//     assignment that may not run (in an if, a loop, after && or ||, in a
//     function) makes the variable unknown instead, with its value one
//     the word may have (if x; then F=.env; fi; cat $F reads .env), and
//     a loop forgets what its body assigns before it is walked. A for
//     loop over static words, and while read NAME fed static text (a
//     here-string or here-document, an echo or printf piped in), walks
//     its body once per word or line with the variable set to it; xargs
//     fed such text gets its words as arguments (echo .env | xargs cat).
//     An unquoted expansion whose value splits into words is not static;
//     once the command line may change IFS (any use of the name but IFS=
//     in front of read), any value but the empty one splits. A path written with
//     ${NAME:-DEFAULT} (or -, :=, =) whose variable is not known is also
//     recorded as the path under the default, one place it may be
//     (${XDG_CONFIG_HOME:-~/.config}/git/credentials), and one written
//     ${NAME:+ALT} (or +) as the path under ALT. ${NAME#PAT}, ##, % and
//     %% of a value Parse knows are evaluated (${PWD##*/}); another
//     operator on such a value (${HOME/*/}, ${!X}) is code only known at
//     run time. Tildes are expanded
//     where bash expands them: ~ and ~user, ~+ (the current directory),
//     ~- (OLDPWD: known after a cd in the command line, else not
//     static), ~N (the directory stack: not static), at the start of a
//     word or of a brace alternative, after the = of an argument that
//     looks like an assignment (dd of=~/x) and after each : of an
//     assignment's value (PATH=~/bin:~/x).
//   - Files: redirections (> >> &> >| < <> and `>& file`; 2>/dev/null
//     writes /dev/null), and the operands of known readers, writers and
//     removers (cat, head, sed -i, grep, cp, mv, rm, tee, dd, chmod, tar,
//     git show REV:path, git checkout -- path, curl -d @file, perl -ne
//     '...' FILE, python -c 'open("f")' and here-documents fed to python,
//     pr, split, uuencode, gh gist create, aws s3 cp, the scaffold
//     vouch init writes, ...), with
//     their options parsed so option values are not mistaken for files.
//     Every path is canonical (see package canonpath), following cd, pushd,
//     env -C, sudo -D and git -C. Globs whose directory part is static are
//     expanded against the file system; brace expansions are expanded.
//     Programs that act on a directory entry itself (rm, rmdir, unlink,
//     mv's sources, git rm, find's starting points for -delete) have
//     only the directories above the last component resolved: `rm -rf
//     link` removes the link, while `rm -rf link/` and `link/x` reach
//     what it points to. A remover run by find -exec with the match ({})
//     is recorded as removing find's starting points (or below them,
//     Facts.DeletesBelow, when a test picks the matches), and a writer
//     given {} as writing below them (Facts.WritesBelow); the find's -name
//     tests are kept (Facts.BelowFilters). A writer run by xargs or
//     parallel gets the input as operands only known at run time, so
//     sed -i or truncate under xargs writes an unresolved target. split
//     and csplit write files named after a prefix: below the prefix's
//     directory, those whose names are its last component and a suffix
//     (Facts.WritesBelow, with that name test as the filter). A
//     symbolic link the command line makes (ln -s, cp -s; moved by mv or
//     copied as a link by cp -r) is not on disk yet: later paths through
//     it are resolved through its target (canonpath.Links), or are
//     unresolved when the target is not static. A hard link (ln, link,
//     cp -l) makes its source readable and writable under another name,
//     so the source is recorded as read and written.
//   - Trees (Facts.WritesTrees): a command that may rewrite files it does
//     not name, below a directory, records that directory: a recursive
//     copy or sync into it (cp -r src/. dst, rsync -a src/ dst), an
//     extraction or a patch applied there (tar x, unzip, patch, git
//     apply), and the work tree of a git command that moves or restores
//     it (reset --hard, merge, pull, rebase, cherry-pick, stash, a branch
//     switch, checkout . and other directory pathspecs, clean). A policy
//     protecting a file can then ask when the file lies below one.
//   - Options as the program reads them (Command.Options, Command.Sub)
//     for rm, find, ps and git: clusters split, values dropped, short
//     options named by their long form per subcommand, so `git commit
//     -nm x` is --no-verify while `git push -n` is --dry-run and `git
//     commit -m '--no-verify'` has no such option; ps's BSD options (a
//     word without a dash) are recorded bare, so `ps -o args e` has e
//     (the environment) and `ps -e` and `ps -o user` do not.
//   - Code that cannot be known (Facts.Unknown): a command name that is
//     not static (`$(echo rm) -rf /`, `"$CMD" x`; one double-quoted
//     word ending in a static /NAME, "$(go env GOPATH)/bin/tool", is
//     the program NAME in a directory only known at run time, and
//     $(which NAME) is NAME) and eval,
//     bash -c and the like given a string that is not static (but not
//     eval "$(pyenv init -)" and the other set-ups a program prints for
//     itself: see initSnippet); packages uv run --with and pixi exec
//     fetch, and flakes nix run, shell and develop fetch from elsewhere
//     than nixpkgs; an at or batch script
//     from a file (at -f, < file), from another program's output or from
//     the terminal; expect code (-c, stdin), whose spawn and exec run any
//     program; keys typed into a terminal whose effect on the line is not
//     known (Up, Tab, Escape, C-a...); tmux command blocks ({ }, %if).
//   - Network targets: curl, wget, HTTPie, nc, socat, telnet, ssh, scp,
//     sftp, rsync, ftp, git remotes that are URLs or host:path, gh's
//     uploads, s3:// and gs:// storage and rclone remotes, and any
//     scheme://URL given to a program not known to treat it as text.
//     Uploads lists the local files sent over the network: curl -d
//     @file, -F x=@file and -T, wget --post-file, HTTPie's @ items, scp
//     and rsync sources copied to a remote, gh gist create, gh release
//     upload and create, gh api -F x=@file and --input, gh secret set
//     -f, aws s3 cp, mv and sync and s3api put-object --body, gsutil and
//     gcloud storage cp, rclone copy, sync and move, and sftp's put in
//     a batch written in the command line (a batch from a file or a pipe
//     is "{files named in the batch of sftp}"). Options curl -K and ssh
//     -F read from text in the command line are analysed as given on the
//     command line; a config file or stream they read otherwise is
//     unknown code.
//     PipeFrom (and Upstream) show what feeds a command, so `curl x | sh`,
//     `bash <(curl x)`, `bash < <(curl x)`, `python3 <(curl x)` and
//     `sh -c "$(curl x)"` can be recognised; a file the command line
//     downloaded and then runs counts as the download piped in (`curl -o
//     x.sh x && bash x.sh` is curl feeding bash), and static text it
//     wrote there (`echo ... > s.sh; sh s.sh`) is parsed as the script,
//     while a file another program wrote there and then run is unknown
//     code. Nothing is carried from one command line to the next.
//
// # What is not
//
// Static analysis of shell gives a lower bound. Parse cannot know:
//
//   - the values of variables ($X, ${X:-y}; only $HOME and $PWD are
//     resolved), of command substitutions, or of arithmetic;
//   - what eval, bash -c or source run when the string is computed;
//   - aliases and functions defined outside the command line (the bodies of
//     those defined in it are walked), or a PATH that makes `ls` something
//     else;
//   - what programs it does not know do with their arguments, what scripts
//     run by name do (`./deploy.sh`, `make`, `npm test`), or what code in
//     another language does: python -c, node -e and perl -e code is only
//     searched for open("file") and the like, sed scripts for r/w commands,
//     awk programs for print > "file" (system() and pipes in awk, and sed's
//     e command, set Incomplete);
//   - commands run on another machine (ssh host cmd) as local facts; a
//     name for this machine other than localhost or a loopback address
//     (its host name, an ssh_config alias) is taken as another machine,
//     and another user's home (ssh user@localhost) is taken to be HOME;
//   - what a terminal multiplexer's shell does with keys beyond the line
//     being typed, or which directory it is in, and what tmux and screen
//     read from their configuration files (tmux -f, screen -c: read, not
//     followed; tmux source-file and screen -X source, which run the
//     commands in a file now, are unknown code).
//
// Whenever a word that matters is not static (a variable, a substitution, a
// glob, a cd to an unknown place), or a bound on the work is reached,
// Facts.Incomplete is set and Facts.Unresolved says why, so a policy can
// ask or deny rather than allow. An arithmetic (( or $(( that does not
// parse as arithmetic is read as bash reads it, as nested subshells
// (((:) ; rm -rf ~) runs rm), and is not a parse error then. A command
// line that does not parse as bash otherwise sets Facts.ParseError; the facts are then taken from a parse that
// recovers from missing tokens, or else from the statements before the
// error and a fresh parse after the next separator, and are best-effort.
//
// Parse never runs anything and never panics. It reads the file system
// only through canonpath (lstat, readlink), to expand globs and to find the
// repository's top for git REV:path, and stat, to tell which arguments of
// a program it does not model name something on disk (at most 256 a
// command line), and its work is bounded: MaxInput
// bytes of code (up to MaxHeredocInput bytes of input when the rest is the
// bodies of quoted here-documents; a longer command is analysed up to
// MaxInput and sets Truncated and Unknown), MaxCommands commands, MaxMaxDepth levels of nested
// strings, 128 levels of brackets, and caps on nested text, paths, globs
// (and the directories a glob with wildcards in its directory part reads,
// so /*/*/*/*/*/* stops early; a write through it is then unresolved),
// brace expansion, wrappers stripped from one command and tmux commands
// held by others. Reaching a bound sets Incomplete; one past which
// commands or words are not analysed (syntax nested deeper than 200
// levels, too many commands, a brace expansion of too many distinct
// words, loop bodies walked per word) also sets Unknown, and the
// nesting bounds ParseError.
package shellfacts
