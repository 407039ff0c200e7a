package receipt

import (
	"bytes"
	"fmt"

	"github.com/vouch-dev/vouch/internal/safeopen"
)

// LoadKey reads the MAC key from file, else takes env (the value of
// VOUCH_KEY); both empty means unsigned receipts (nil). A trailing newline
// in the file is not part of the key. A key shorter than MinKeyBytes is
// refused.
func LoadKey(file, env string) ([]byte, error) {
	var key []byte
	switch {
	case file != "":
		// Without blocking on a named pipe, and bounded: a key is short.
		f, err := safeopen.Read(file, safeopen.Options{MaxBytes: 64 << 10})
		if err != nil {
			return nil, fmt.Errorf("--key-file: %w", err)
		}
		key = bytes.TrimRight(f.Data, "\r\n")
	case env != "":
		key = []byte(env)
	default:
		return nil, nil
	}
	if len(key) < MinKeyBytes {
		return nil, fmt.Errorf("the receipt key is %d bytes; use at least %d random bytes (e.g. openssl rand -hex 32)", len(key), MinKeyBytes)
	}
	return key, nil
}
