package redis

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// An entry as stored in Redis: a format version byte, the expiry as
// big-endian Unix nanoseconds, then the value. The expiry travels with the
// value so that Get can judge it by the injected clock (Redis' own TTL only
// reclaims the memory, in real time).
const (
	entryVersion    = 1
	entryHeaderSize = 1 + 8
)

// errCorrupt marks a stored entry this version cannot read.
var errCorrupt = errors.New("corrupt cache entry")

func encodeEntry(value []byte, expires time.Time) []byte {
	b := make([]byte, entryHeaderSize, entryHeaderSize+len(value))
	b[0] = entryVersion
	binary.BigEndian.PutUint64(b[1:], uint64(expires.UnixNano()))
	return append(b, value...)
}

// decodeEntry splits a stored entry; value aliases b.
func decodeEntry(b []byte) (value []byte, expires time.Time, err error) {
	if len(b) < entryHeaderSize {
		return nil, time.Time{}, fmt.Errorf("%w: %d bytes, need at least %d", errCorrupt, len(b), entryHeaderSize)
	}
	if b[0] != entryVersion {
		return nil, time.Time{}, fmt.Errorf("%w: format version %d", errCorrupt, b[0])
	}
	ns := int64(binary.BigEndian.Uint64(b[1:entryHeaderSize]))
	return b[entryHeaderSize:], time.Unix(0, ns), nil
}
