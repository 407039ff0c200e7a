package hookclient

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// startServer starts `vouch-guard --serve` in the background: in a
// session of its own (the harness's signals to the hook's process group do
// not reach it), from /, with stdio on /dev/null, not waited for. A
// server already running, or one started by a parallel call, makes it
// exit at once (hookd.ErrRunning). Its environment is serverEnv's, not
// the client's.
func (c *Client) startServer() {
	closeInheritedOnExec()
	cmd := exec.Command(c.Guard, "--serve")
	cmd.Dir, cmd.Env = "/", serverEnv(c.Env)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() == nil {
		_ = cmd.Process.Release()
	}
}

// closeInheritedOnExec marks every descriptor above stderr close-on-exec.
// Go opens its own that way, but descriptors the hook inherited (a pipe
// of the harness's, a shell's spare descriptor) are passed on at exec, and
// a server that lives for minutes would hold them: a harness waiting for
// such a pipe to close would wait for the server. The client exits soon,
// so nothing of its own needs them across an exec.
func closeInheritedOnExec() {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd <= 2 {
			continue
		}
		syscall.CloseOnExec(fd)
	}
}
