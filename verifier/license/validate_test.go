package license

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// setDesignator rewrites the offset and length of designator i.
func setDesignator(raw []byte, i, off, length int) []byte {
	out := bytes.Clone(raw)
	p := headerLen(9) + 10*i + 2
	copy(out[p:], fmt.Sprintf("%04d%04d", off, length))
	return out
}

func TestValidateStructure(t *testing.T) {
	good := Encode(sampleUS(), 9) // DL at 41, ZV after it
	dlLen, _ := digits(good, 27, 4)
	zvOff, _ := digits(good, 33, 4)
	zvLen, _ := digits(good, 37, 4)
	for _, tc := range []struct {
		name string
		raw  []byte
		want error
	}{
		{"encoded", good, nil},
		{"offset one late (tolerated)", setDesignator(good, 0, 42, dlLen), nil},
		{"length two short (tolerated)", setDesignator(good, 1, zvOff, zvLen-2), nil},
		{"offset three late", setDesignator(good, 0, 44, dlLen), ErrBadSubfile},
		{"length five long", setDesignator(good, 0, 41, dlLen+5), ErrBadSubfile},
		{"offset beyond the data", setDesignator(good, 1, 9000, zvLen), ErrBadSubfile},
		{"unknown IIN", bytes.Replace(good, []byte("636000"), []byte("999999"), 1), ErrUnknownIIN},
		{"version 11", bytes.Replace(good, []byte("63600009"), []byte("63600011"), 1), ErrUnsupportedVersion},
		{"no compliance indicator", good[1:], ErrNotAAMVA},
		{"file type garbled", bytes.Replace(good, []byte("ANSI "), []byte("ANSX "), 1), ErrNotAAMVA},
		{"first subfile jurisdiction", bytes.Replace(good, []byte("DL0041"), []byte("ZV0041"), 1), ErrBadSubfile},
		{"empty", nil, ErrNotAAMVA},
		{"text", []byte("hello, world"), ErrNotAAMVA},
		{"too large", append(bytes.Clone(good), make([]byte, MaxPayload)...), ErrNotAAMVA},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateStructure(tc.raw)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("err %v, want %v", err, tc.want)
			}
		})
	}
}

// TestValidateRejectsTranscribedFixtures: every fixture is a transcription
// that lost bytes (separators, header) or has inconsistent designators, so
// none passes as a decoder payload, though each still parses.
func TestValidateRejectsTranscribedFixtures(t *testing.T) {
	for _, f := range loadFixtures(t) {
		if err := ValidateStructure([]byte(f.Data)); err == nil {
			t.Errorf("%s passed validation", f.Source)
		}
	}
}

func TestIINTable(t *testing.T) {
	codes := map[string]bool{}
	countries := map[string]int{}
	for iin, j := range Jurisdictions {
		if iin != j.IIN || len(iin) != 6 || len(j.Code) != 2 || codes[j.Code] {
			t.Errorf("entry %+v", j)
		}
		codes[j.Code] = true
		countries[j.Country]++
	}
	// 50 states + DC + 5 territories; 10 provinces + 3 territories.
	if countries["USA"] != 56 || countries["CAN"] != 13 || len(Jurisdictions) != 69 {
		t.Errorf("counts %v total %d", countries, len(Jurisdictions))
	}
	if iin, ok := IINFor("CA"); !ok || iin != "636014" {
		t.Errorf("CA -> %s", iin)
	}
}
