package imgio

import (
	"fmt"
	"io"
	"os"
)

// ReadFile reads an image file of at most lim.MaxBytes bytes (0: no
// bound), so a command-line tool never loads more than it would decode.
func ReadFile(name string, lim Limits) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("read image: %w", err)
	}
	defer f.Close()
	r := io.Reader(f)
	if lim.MaxBytes > 0 {
		r = io.LimitReader(f, int64(lim.MaxBytes)+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read image %s: %w", name, err)
	}
	if lim.MaxBytes > 0 && len(data) > lim.MaxBytes {
		return nil, fmt.Errorf("read image %s: more than %d bytes: %w", name, lim.MaxBytes, ErrTooLarge)
	}
	return data, nil
}
