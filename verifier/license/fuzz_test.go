package license

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// fuzzSeeds is every fixture plus an encoding of each version.
func fuzzSeeds(f *testing.F) {
	for _, fx := range loadFixtures(f) {
		f.Add([]byte(fx.Data))
	}
	for v := 0; v <= MaxVersion; v++ {
		f.Add(Encode(sampleUS(), v))
		f.Add(Encode(sampleCA(), v))
	}
}

// FuzzParseAAMVA: any input either fails with ErrNotAAMVA or gives a
// License whose derived checks, extraction and JSON form all work.
func FuzzParseAAMVA(f *testing.F) {
	fuzzSeeds(f)
	names := make([]string, len(Catalog))
	for i, c := range Catalog {
		names[i] = c.Name
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		l, err := ParseAAMVA(raw)
		if err != nil {
			if !errors.Is(err, ErrNotAAMVA) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if l.DocumentType == "" || len(l.Subfiles) == 0 && l.Header.FileType != MagstripeFileType {
			t.Fatalf("parse without a document subfile: %+v", l)
		}
		l.Check(time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC))
		if _, err := Extract(l, names); err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(l); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzValidateStructure: the check never panics, and whatever it accepts
// the parser reads.
func FuzzValidateStructure(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		if ValidateStructure(raw) != nil {
			return
		}
		if _, err := ParseAAMVA(raw); err != nil {
			t.Fatalf("valid structure does not parse: %v\n%q", err, raw)
		}
	})
}
