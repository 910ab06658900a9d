package redis

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

func TestEntryRoundTrip(t *testing.T) {
	expires := time.Date(2026, 3, 14, 15, 9, 26, 535_897_932, time.UTC)
	for _, value := range [][]byte{nil, {0}, []byte("verified"), bytes.Repeat([]byte{0xff}, 300)} {
		got, gotExpires, err := decodeEntry(encodeEntry(value, expires))
		if err != nil {
			t.Fatalf("decode %q: %v", value, err)
		}
		if !bytes.Equal(got, value) || !gotExpires.Equal(expires) {
			t.Errorf("round trip of %q: got %q, %s", value, got, gotExpires)
		}
	}
}

func TestDecodeEntryRejectsCorruptInput(t *testing.T) {
	for _, b := range [][]byte{nil, {1}, {1, 0, 0, 0, 0, 0, 0, 0}, {2, 0, 0, 0, 0, 0, 0, 0, 0, 'v'}} {
		if _, _, err := decodeEntry(b); !errors.Is(err, errCorrupt) {
			t.Errorf("decode %v: got %v, want errCorrupt", b, err)
		}
	}
}

func FuzzDecodeEntry(f *testing.F) {
	f.Add(encodeEntry([]byte("verified"), time.Unix(1_800_000_000, 5)))
	f.Add([]byte{})
	f.Add([]byte{1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		value, expires, err := decodeEntry(b)
		if err != nil {
			return
		}
		// Whatever decodes re-encodes to the same bytes.
		if again := encodeEntry(value, expires); !bytes.Equal(again, b) {
			t.Fatalf("decode/encode of %x gave %x", b, again)
		}
	})
}
