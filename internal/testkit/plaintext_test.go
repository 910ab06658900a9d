package testkit

import "testing"

func TestHoldsPlain(t *testing.T) {
	for _, c := range []struct {
		data, word string
		want       bool
	}{
		{`{"first_name":"JOHN"}`, "JOHN", true},
		{`{"name":"JOHN Q PUBLIC"}`, "JOHN", true},
		{`{"dob":"1990-02-03"}`, "1990-02-03", true},
		{`JOHN`, "JOHN", true},
		{`{"ip":"203.0.113.9"}`, "203.0.113.9", true},
		// inside ciphertext, at any place in the run
		{`{"ciphertext":"q8JOHNz+/w=="}`, "JOHN", false},
		{`{"ciphertext":"JOHNq8z"}`, "JOHN", false},
		{`{"ciphertext":"q8zJOHN"}`, "JOHN", false},
		{`c2VhbGVkJOHN-_x`, "JOHN", false},
		// a later plain occurrence after one inside ciphertext
		{`"aJOHNb","JOHN"`, "JOHN", true},
		{`{"first_name":"JANE"}`, "JOHN", false},
		{`anything`, "", false},
	} {
		if got := HoldsPlain([]byte(c.data), c.word); got != c.want {
			t.Errorf("HoldsPlain(%s, %q) = %v, want %v", c.data, c.word, got, c.want)
		}
	}
}
