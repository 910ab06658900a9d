package testkit

import "bytes"

// HoldsPlain reports whether word occurs in data as plaintext: somewhere
// not inside a longer run of base64 characters. Sealed members and sealed
// sessions are base64 ciphertext, which holds any short run of letters by
// chance (a given four-letter name about once in 64^4, 17 million,
// positions): a plain bytes.Contains over them fails at random (stop 54's CI: "JOHN" inside a custom-key envelope), while
// personal data written out in clear stands between quotes, spaces or
// punctuation.
func HoldsPlain(data []byte, word string) bool {
	w := []byte(word)
	if len(w) == 0 {
		return false
	}
	for from := 0; ; {
		i := bytes.Index(data[from:], w)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(w)
		if !(start > 0 && inBase64(data[start-1]) && inBase64(w[0])) &&
			!(end < len(data) && inBase64(data[end]) && inBase64(w[len(w)-1])) {
			return true
		}
		from = start + 1
	}
}

// inBase64 is true for the characters of standard and URL-safe base64.
func inBase64(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
		c == '+' || c == '/' || c == '-' || c == '_' || c == '='
}
