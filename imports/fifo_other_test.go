//go:build !unix

package imports

import "errors"

func mkfifo(string) error { return errors.New("named pipes are not supported") }
