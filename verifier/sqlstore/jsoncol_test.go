package sqlstore

import (
	"slices"
	"testing"
)

func TestStringListRoundTrip(t *testing.T) {
	for _, in := range [][]string{nil, {}, {"a"}, {"shop.example.com", "*.example.org", `quo"te`}} {
		b := stringList(in)
		out, err := parseStringList(b)
		if err != nil {
			t.Fatalf("parseStringList(%s): %v", b, err)
		}
		if len(in) == 0 {
			if string(b) != "[]" || out != nil {
				t.Errorf("empty list: encoded %s, decoded %#v; want [] and nil", b, out)
			}
			continue
		}
		if !slices.Equal(in, out) {
			t.Errorf("round trip of %q gave %q", in, out)
		}
	}
	for _, bad := range []string{"", "{}", `[1]`, `"x"`, "[", `["a",]`} {
		if _, err := parseStringList([]byte(bad)); err == nil {
			t.Errorf("parseStringList(%q) accepted", bad)
		}
	}
}
