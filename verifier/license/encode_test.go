package license

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// sampleUS is a Virginia license carrying every field Encode writes.
func sampleUS() License {
	return License{
		DocumentType: "DL",
		FirstNames:   "JANE", MiddleNames: "ANN MARIE", LastName: "SAMPLE", NameSuffix: "JR",
		Truncation: Truncation{"N", "N", "T"},
		DOB:        Date{1986, time.June, 6}, IssueDate: Date{2019, time.June, 6}, ExpiryDate: Date{2027, time.June, 6},
		Under18Until: Date{2004, time.June, 6}, Under19Until: Date{2005, time.June, 6}, Under21Until: Date{2007, time.June, 6},
		Sex: SexFemale, Height: Measure{68, "in"}, Weight: Measure{150, "lb"}, EyeColor: "BRO", HairColor: "BLK",
		Address:        Address{Line1: "2300 WEST BROAD STREET", Line2: "APT 4", City: "RICHMOND", Jurisdiction: "VA", PostalCode: "23269-1234"},
		DocumentNumber: "T64235789", DocumentDiscriminator: "2424244747474786102204",
		IssuingJurisdiction: "VA", Country: "USA", VehicleClass: "D", Restrictions: "B", Endorsements: "M",
		ComplianceType: "F",
		Subfiles:       []Subfile{{Type: "DL"}, {Type: "ZV", Elements: []Element{{ID: "ZVA", Value: "01"}, {ID: "ZVB", Value: "X Y"}}}},
	}
}

// sampleCA is an Ontario ID card in metric units.
func sampleCA() License {
	return License{
		DocumentType: "ID", FirstNames: "MARIE", LastName: "TREMBLAY",
		DOB: Date{1992, time.February, 29}, IssueDate: Date{2021, time.March, 1}, ExpiryDate: Date{2026, time.February, 28},
		Sex: SexUnspecified, Height: Measure{172, "cm"}, Weight: Measure{64, "kg"}, EyeColor: "GRN",
		Address:        Address{Line1: "100 QUEEN ST W", City: "TORONTO", Jurisdiction: "ON", PostalCode: "M5H 2N2"},
		DocumentNumber: "T1234-56789-20229", IssuingJurisdiction: "ON", Country: "CAN",
		Truncation: Truncation{"U", "U", "U"},
	}
}

// roundTripFields are the fields each version can carry.
func roundTripFields(l License, v int) map[string]any {
	m := map[string]any{
		"last": l.LastName, "first": l.FirstNames, "middle": l.MiddleNames, "suffix": l.NameSuffix,
		"dob": l.DOB, "issue": l.IssueDate, "expiry": l.ExpiryDate, "sex": l.Sex,
		"height": l.Height, "weight": l.Weight, "eyes": l.EyeColor, "hair": l.HairColor,
		"address": l.Address, "number": l.DocumentNumber, "type": l.DocumentType, "issuer": l.IssuingJurisdiction,
		"class": l.VehicleClass, "restrictions": l.Restrictions, "endorsements": l.Endorsements,
	}
	if v >= 2 {
		m["discriminator"], m["country"] = l.DocumentDiscriminator, l.Country
	}
	if v >= 4 {
		m["truncation"], m["compliance"] = l.Truncation, l.ComplianceType
		m["until"] = [3]Date{l.Under18Until, l.Under19Until, l.Under21Until}
	}
	return m
}

// TestEncodeParseRoundTrip encodes a US DL and a Canadian ID in every
// version and parses them back: the payload passes ValidateStructure,
// parses without a single warning and gives back every field the version
// can hold.
func TestEncodeParseRoundTrip(t *testing.T) {
	for _, sample := range []License{sampleUS(), sampleCA()} {
		for v := 0; v <= MaxVersion; v++ {
			t.Run(fmt.Sprintf("%s/v%d", sample.IssuingJurisdiction, v), func(t *testing.T) {
				raw := Encode(sample, v)
				if err := ValidateStructure(raw); err != nil {
					t.Fatalf("ValidateStructure: %v\n%q", err, raw)
				}
				got, err := ParseAAMVA(raw)
				if err != nil {
					t.Fatalf("ParseAAMVA: %v", err)
				}
				if len(got.Warnings) > 0 {
					t.Errorf("warnings %+v\n%q", got.Warnings, raw)
				}
				if got.Header.Version != v {
					t.Errorf("version %d", got.Header.Version)
				}
				want, have := roundTripFields(sample, v), roundTripFields(got, v)
				for k, w := range want {
					if k == "class" || k == "restrictions" || k == "endorsements" {
						if sample.DocumentType == "ID" {
							continue // DL-only elements
						}
					}
					if have[k] != w {
						t.Errorf("%s = %v, want %v", k, have[k], w)
					}
				}
				if sample.IssuingJurisdiction == "VA" {
					if len(got.Subfiles) != 2 || got.Subfiles[1].Type != "ZV" || len(got.Subfiles[1].Elements) != 2 || got.Subfiles[1].Elements[1] != (Element{ID: "ZVB", Value: "X Y"}) {
						t.Errorf("jurisdiction subfile lost: %+v", got.Subfiles)
					}
				}
			})
		}
	}
}

// TestEncodeLayout checks the bytes the standard prescribes: separators,
// file type, header numbers, designator offsets and lengths.
func TestEncodeLayout(t *testing.T) {
	raw := Encode(sampleUS(), 9)
	if !bytes.HasPrefix(raw, []byte("@\n\x1e\rANSI 636000090002DL0041")) {
		t.Fatalf("header %q", raw[:min(len(raw), 40)])
	}
	dlLen, _ := digits(raw, 27, 4)
	zvOff, _ := digits(raw, 33, 4)
	if zvOff != 41+dlLen || string(raw[zvOff:zvOff+2]) != "ZV" || raw[zvOff-1] != '\r' || raw[len(raw)-1] != '\r' {
		t.Errorf("DL length %d, ZV offset %d: %q", dlLen, zvOff, raw)
	}
	for _, want := range []string{"\nDBB06061986\n", "\nDAU068 in\n", "\nDAK232691234  \n", "\nDADANN,MARIE\n", "\nDBC2\n"} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("no %q in %q", want, raw)
		}
	}
	v1 := Encode(sampleUS(), 1)
	if !bytes.HasPrefix(v1, []byte("@\n\x1e\rANSI 6360000102DL0039")) || !bytes.Contains(v1, []byte("\nDBB19860606\n")) || !bytes.Contains(v1, []byte("\nDAU508\n")) {
		t.Errorf("version 1 layout %q", v1)
	}
	ca := Encode(sampleCA(), 10)
	if !bytes.HasPrefix(ca, []byte("@\n\x1e\rANSI 636012100001ID0031")) || !bytes.Contains(ca, []byte("\nDBB19920229\n")) || !bytes.Contains(ca, []byte("\nDAKM5H2N2     \n")) {
		t.Errorf("Canadian layout %q", ca)
	}
}
