package mrz

import "testing"

// The check digits of the specimens' fields (Doc 9303 Part 4 Appendix A,
// Part 3 4.9's worked example is the birth date 520727 → 3).
func TestCheckDigit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want byte
	}{
		{"520727", '3'}, {"L898902C3", '6'}, {"740812", '2'}, {"120415", '9'},
		{"ZE184226B<<<<<", '1'}, {"D23145890", '7'}, {"<<<<<<<<<<<<<<", '0'}, {"", '0'},
	} {
		got, ok := CheckDigit(c.in)
		if !ok || got != c.want {
			t.Errorf("CheckDigit(%q) = %q %v, want %q", c.in, got, ok, c.want)
		}
	}
	if _, ok := CheckDigit("AB-1"); ok {
		t.Error("a '-' has a value")
	}
}
