package license

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestMalformedInputs: real-world sloppiness parses best-effort with the
// warning that says what was repaired, or fails with ErrNotAAMVA.
func TestMalformedInputs(t *testing.T) {
	good := Encode(sampleUS(), 8)
	for _, tc := range []struct {
		name    string
		raw     []byte
		warning WarningCode // "" means: must fail with ErrNotAAMVA
		check   func(License) bool
	}{
		{"empty", nil, "", nil},
		{"prose", []byte("The quick brown fox"), "", nil},
		{"header only", good[:41], "", nil},
		{"CR LF line ends", bytes.ReplaceAll(good, []byte("\n"), []byte("\r\n")), WarnSubfileLength,
			func(l License) bool { return l.LastName == "SAMPLE" && l.DOB == day(1986, 6, 6) }},
		{"header lost", good[41:], WarnHeaderMissing,
			func(l License) bool { return l.DocumentNumber == "T64235789" && l.DOB == day(1986, 6, 6) }},
		{"header garbled", bytes.Replace(good, []byte("@\n\x1e\r"), []byte("@??"), 1), WarnHeaderGarbled,
			func(l License) bool { return l.LastName == "SAMPLE" && l.Header.IIN == "636000" }},
		{"padded values", bytes.Replace(good, []byte("DCSSAMPLE"), []byte("DCS  SAMPLE      "), 1), WarnSubfileLength,
			func(l License) bool { return l.LastName == "SAMPLE" }},
		{"wrong subfile length", setDesignator(good, 0, 41, 12), WarnSubfileLength,
			func(l License) bool { return l.Address.City == "RICHMOND" && len(l.Subfiles) == 2 }},
		{"stray ZZZ element", bytes.Replace(good, []byte("\nDCS"), []byte("\nZZZ\nDCS"), 1), WarnUnknownElement,
			func(l License) bool { return l.LastName == "SAMPLE" }},
		{"non-ASCII inside an element ID", bytes.Replace(good, []byte("DCSSAMPLE"), []byte("D\xc3\x94CSSAMPLE"), 1), WarnNonASCII,
			func(l License) bool { return l.LastName == "SAMPLE" }},
		{"Latin-1 byte in a value", bytes.Replace(good, []byte("RICHMOND"), []byte("RICHM\xd6ND"), 1), WarnNonASCII,
			func(l License) bool { return l.Address.City == "RICHMÖND" }},
		{"UTF-8 in a value", bytes.Replace(good, []byte("RICHMOND"), []byte("MONTRÉAL"), 1), WarnNonASCII,
			func(l License) bool { return l.Address.City == "MONTRÉAL" }},
		{"date in the Canadian order", bytes.Replace(good, []byte("DBB06061986"), []byte("DBB19860606"), 1), WarnDateFormat,
			func(l License) bool { return l.DOB == day(1986, 6, 6) }},
		{"impossible date", bytes.Replace(good, []byte("DBB06061986"), []byte("DBB13451986"), 1), WarnBadValue,
			func(l License) bool { return l.DOB.IsZero() }},
		{"truncated in the middle", good[:len(good)/2], WarnSubfileLength,
			func(l License) bool { return l.LastName == "SAMPLE" }},
		{"jurisdiction subfile missing", good[:bytes.Index(good, []byte("ZVZVA"))], WarnSubfileMissing,
			func(l License) bool { return len(l.Subfiles) == 1 }},
		{"full name without separators", []byte("@\n\x1e\rANSI 6360030101DL00290030DLDAAJOHNSON JACK\nDAQ1\r"), WarnNameAmbiguous,
			func(l License) bool { return l.LastName == "JOHNSON" && l.FirstNames == "JACK" }},
		{"unknown unit height", bytes.Replace(good, []byte("DAU068 in"), []byte("DAU068 ft"), 1), WarnBadValue,
			func(l License) bool { return l.Height == Measure{} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := ParseAAMVA(tc.raw)
			if tc.warning == "" {
				if !errors.Is(err, ErrNotAAMVA) {
					t.Fatalf("err %v, want ErrNotAAMVA", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseAAMVA: %v", err)
			}
			if !l.HasWarning(tc.warning) {
				t.Errorf("no %s warning: %+v", tc.warning, l.Warnings)
			}
			if !tc.check(l) {
				t.Errorf("values wrong: %+v", l)
			}
		})
	}
}

func TestPostalCodes(t *testing.T) {
	for in, want := range map[string]string{
		"902230000  ": "90223", "061091896": "06109-1896", "44556-": "44556", "12345-6789": "12345-6789",
		"K1A0B1     ": "K1A 0B1", "k1a 0b1": "K1A 0B1", "1234": "1234", "": "",
	} {
		if got := normalizePostal(in, "USA"); got != want {
			t.Errorf("%q -> %q, want %q", in, got, want)
		}
	}
}

func TestHeights(t *testing.T) {
	for in, want := range map[string]Measure{
		"069 in": {69, "in"}, "175 cm": {175, "cm"}, "510": {70, "in"}, "601": {73, "in"}, "069": {69, "in"},
		"180": {180, "cm"}, " 65 IN": {65, "in"}, "64": {64, "in"},
	} {
		var l License
		if got := parseHeight(&l, in, ""); got != want {
			t.Errorf("%q -> %+v, want %+v", in, got, want)
		}
	}
	if (Measure{69, "in"}).Centimetres() != 175 || (Measure{180, "lb"}).Kilograms() != 82 {
		t.Error("unit conversion")
	}
}

func TestParseAAMVARejectsOversizedInput(t *testing.T) {
	_, err := ParseAAMVA([]byte(strings.Repeat("A", MaxPayload+1)))
	if !errors.Is(err, ErrNotAAMVA) {
		t.Errorf("err %v", err)
	}
}
