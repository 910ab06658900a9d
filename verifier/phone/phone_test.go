package phone

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		raw, region                string
		e164, area, last3, region2 string
		typ                        LineType
	}{
		{"(201) 555-0123", "", "+12015550123", "201", "123", "US", ""},
		{"201.555.0123", "us", "+12015550123", "201", "123", "US", ""},
		{"+1 416 555 0199", "", "+14165550199", "416", "199", "CA", ""},
		{"+44 7400 123456", "", "+447400123456", "7400", "456", "GB", LineMobile},
		{"020 7031 3000", "GB", "+442070313000", "20", "000", "GB", LineLandline},
		{"1-800-555-0100", "", "+18005550100", "800", "100", "US", LineTollFree},
		{"55 1234 5678", "MX", "+525512345678", "55", "678", "MX", ""},
	} {
		n, err := Parse(c.raw, c.region)
		if err != nil {
			t.Errorf("Parse(%q, %q): %v", c.raw, c.region, err)
			continue
		}
		if n.E164 != c.e164 || n.AreaCode != c.area || n.Last3 != c.last3 || n.Region != c.region2 {
			t.Errorf("Parse(%q, %q) = %+v, want %s area %s last3 %s region %s", c.raw, c.region, n, c.e164, c.area, c.last3, c.region2)
		}
		if c.typ != "" && n.Type != c.typ {
			t.Errorf("Parse(%q) type %q, want %q", c.raw, n.Type, c.typ)
		}
	}
	for _, c := range []struct {
		raw, region string
		want        error
	}{
		{"", "", ErrInvalidNumber},
		{"123", "", ErrInvalidNumber},
		{"(201) 555-012", "", ErrInvalidNumber},    // too short
		{"+1 201 555 01234", "", ErrInvalidNumber}, // too long
		{"(099) 555-0123", "", ErrInvalidNumber},   // no area code starts with 0
		{"1-800-FLOWERS", "", ErrInvalidNumber},    // letters are refused
		{"201 555 0123 ext 5", "", ErrInvalidNumber},
		{"٢٠١٥٥٥٠١٢٣", "", ErrInvalidNumber}, // Arabic-Indic digits
		{strings.Repeat("1", 41), "", ErrInvalidNumber},
		{"2015550123", "XX", ErrInvalidRegion},
		{"2015550123", "USA", ErrInvalidRegion},
	} {
		if _, err := Parse(c.raw, c.region); !errors.Is(err, c.want) {
			t.Errorf("Parse(%q, %q) = %v, want %v", c.raw, c.region, err, c.want)
		}
	}
}

func TestMasked(t *testing.T) {
	n, err := Parse("+44 7400 123456", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := n.Masked(); got != "+44 ••• 456" {
		t.Errorf("Masked = %q", got)
	}
}

func TestLineTypesTakeSMS(t *testing.T) {
	takes := map[LineType]bool{LineMobile: true, LineFixedVoIP: true, LineNonFixedVoIP: true, LineUnknown: true, "": true}
	for _, lt := range LineTypes {
		if lt.TakesSMS() != takes[lt] {
			t.Errorf("%s.TakesSMS() = %v", lt, lt.TakesSMS())
		}
	}
}

// TestNumbersThatTakeSMS: ranges used for SMS toll fraud are refused
// before any lookup or send; national mobiles are not.
func TestNumbersThatTakeSMS(t *testing.T) {
	for raw, want := range map[string]bool{
		"+1 415 555 0123":     true,  // US, fixed line or mobile: the plan cannot tell
		"+44 7624 123456":     true,  // Isle of Man mobile
		"+44 70 1234 5678":    false, // UK personal number
		"+881 631 234 567":    false, // satellite (GMSS), called mobile by the plan
		"+870 773 123 456":    false, // Inmarsat
		"+882 16 1234 5678":   false, // international networks
		"+883 5100 1234 5678": false,
		"+800 1234 5678":      false, // universal toll-free
		"+979 123456789":      false, // universal premium rate
	} {
		n, err := Parse(raw, "US")
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if n.TakesSMS() != want {
			t.Errorf("%s (region %s, type %q): TakesSMS %v, want %v", raw, n.Region, n.Type, !want, want)
		}
	}
}

func TestParseCode(t *testing.T) {
	for raw, want := range map[string]string{"123456": "123456", " 012 345 ": "012345", "123-456": "123456", "000000": "000000"} {
		if got, err := ParseCode(raw); err != nil || got != want {
			t.Errorf("ParseCode(%q) = %q, %v", raw, got, err)
		}
	}
	for _, raw := range []string{"", "12345", "1234567", "12345a", "١٢٣٤٥٦", "123 456 7", strings.Repeat(" ", 30) + "123456"} {
		if _, err := ParseCode(raw); !errors.Is(err, ErrCodeFormat) {
			t.Errorf("ParseCode(%q) = %v, want ErrCodeFormat", raw, err)
		}
	}
}

func TestCodes(t *testing.T) {
	// A reader of zeros draws 000000: leading zeros are kept.
	if c, err := NewCode(bytes.NewReader(make([]byte, 64))); err != nil || c != "000000" {
		t.Fatalf("NewCode(zeros) = %q, %v", c, err)
	}
	seen := map[string]bool{}
	for range 50 {
		c, err := NewCode(nil)
		if err != nil || len(c) != CodeDigits {
			t.Fatalf("NewCode = %q, %v", c, err)
		}
		seen[c] = true
	}
	if len(seen) < 45 {
		t.Errorf("50 codes, only %d distinct", len(seen))
	}
	h, err := HashCode(nil, "123456")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(h.Hash, []byte("123456")) || len(h.Salt) != 16 {
		t.Errorf("hashed code %+v", h)
	}
	if !h.Matches("123456") || h.Matches("123457") || h.Matches("") {
		t.Error("Matches is wrong")
	}
	h2, _ := HashCode(nil, "123456")
	if bytes.Equal(h.Hash, h2.Hash) {
		t.Error("the same code hashed twice gives the same hash: the salt is not used")
	}
	if (HashedCode{}).Matches("123456") {
		t.Error("an empty hash matches")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"(201) 555-0123", "+44 7400 123456", "+", "++1", "0", "+800 1234 5678", "(((", "+1 (201) 555-0123 / 4"} {
		f.Add(s, "US")
	}
	f.Fuzz(func(t *testing.T, raw, region string) {
		n, err := Parse(raw, region)
		if err != nil {
			return
		}
		if !strings.HasPrefix(n.E164, "+") || len(n.Last3) != 3 || !strings.HasSuffix(n.E164, n.Last3) {
			t.Fatalf("Parse(%q, %q) = %+v", raw, region, n)
		}
		again, err := Parse(n.E164, "")
		if err != nil || again.E164 != n.E164 {
			t.Fatalf("E.164 %q does not parse back: %+v, %v", n.E164, again, err)
		}
	})
}

func FuzzParseCode(f *testing.F) {
	for _, s := range []string{"123456", "123 456", "-", "12345\x00", "１２３４５６"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		c, err := ParseCode(raw)
		if err != nil {
			return
		}
		if len(c) != CodeDigits {
			t.Fatalf("ParseCode(%q) = %q", raw, c)
		}
		for _, r := range c {
			if r < '0' || r > '9' {
				t.Fatalf("ParseCode(%q) = %q", raw, c)
			}
		}
	})
}
