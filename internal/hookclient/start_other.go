//go:build !linux

package hookclient

// startServer does nothing outside Linux, where the server does not run
// (every call is answered by running vouch-guard).
func (c *Client) startServer() {}
