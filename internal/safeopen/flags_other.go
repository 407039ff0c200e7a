//go:build !unix

package safeopen

// nonBlock is zero where the platform has no O_NONBLOCK; opening a named
// pipe there does not block on open in the same way, and the mode check
// after opening still refuses it.
const nonBlock = 0

// noFollow is zero where the platform has no O_NOFOLLOW; Append's lstat
// of the name still refuses a link.
const noFollow = 0
