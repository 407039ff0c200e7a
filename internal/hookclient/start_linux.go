package hookclient

import (
	"os/exec"
	"syscall"
)

// startServer starts `vouch-guard --serve` in the background: in a
// session of its own (the harness's signals to the hook's process group do
// not reach it), from /, with stdio on /dev/null, not waited for. A
// server already running, or one started by a parallel call, makes it
// exit at once (hookd.ErrRunning). Its environment is serverEnv's, not
// the client's.
func (c *Client) startServer() {
	cmd := exec.Command(c.Guard, "--serve")
	cmd.Dir, cmd.Env = "/", serverEnv(c.Env)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() == nil {
		_ = cmd.Process.Release()
	}
}
