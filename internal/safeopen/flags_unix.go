//go:build unix

package safeopen

import "syscall"

// nonBlock makes opening a FIFO return at once instead of waiting for a
// writer; on a regular file it changes nothing.
const nonBlock = syscall.O_NONBLOCK

// noFollow makes opening a symbolic link fail instead of following it.
const noFollow = syscall.O_NOFOLLOW
