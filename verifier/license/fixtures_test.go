package license

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

// fixture is one entry of testdata/aamva/fixtures.json.
type fixture struct {
	Source    string `json:"source"`
	Kind      string `json:"kind"`
	Data      string `json:"data"`
	Reference struct {
		Parser string         `json:"parser"`
		Fields map[string]any `json:"fields"`
	} `json:"reference_parse"`
}

func loadFixtures(t testing.TB) []fixture {
	t.Helper()
	b, err := os.ReadFile(testkit.Data(t, "testdata", "aamva", "fixtures.json"))
	if err != nil {
		t.Fatalf("read fixtures: %v", err)
	}
	var fx []fixture
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatalf("decode fixtures: %v", err)
	}
	if len(fx) < 17 {
		t.Fatalf("only %d fixtures", len(fx))
	}
	return fx
}

// core is what every fixture must get right, as comparable strings.
type core map[string]string

func coreOf(l License) core {
	compact := func(d Date) string { return strings.ReplaceAll(d.String(), "-", "") }
	return core{
		"last": l.LastName, "first": l.FirstNames, "middle": l.MiddleNames,
		"dob": compact(l.DOB), "expiry": compact(l.ExpiryDate), "issue": compact(l.IssueDate),
		"street": l.Address.Line1, "city": l.Address.City, "state": l.Address.Jurisdiction,
		"postal": l.Address.PostalCode, "number": l.DocumentNumber, "sex": string(l.Sex),
	}
}

// referenceCore maps a reference parse onto the same keys; keys the
// reference parser does not produce are absent.
func referenceCore(f fixture) core {
	s := func(k string) (string, bool) {
		v, ok := f.Reference.Fields[k].(string)
		return strings.TrimSpace(v), ok
	}
	c := core{}
	set := func(key, refKey string, conv func(string) string) {
		if v, ok := s(refKey); ok {
			c[key] = conv(v)
		}
	}
	same := func(v string) string { return v }
	undash := func(v string) string { return strings.ReplaceAll(v, "-", "") }
	switch f.Reference.Parser {
	case "aamva":
		if n, ok := f.Reference.Fields["name"].(map[string]any); ok {
			for key, refKey := range map[string]string{"last": "last", "first": "first", "middle": "middle"} {
				if v, ok := n[refKey].(string); ok {
					c[key] = v
				}
			}
		}
		set("dob", "birthday", same)
		set("expiry", "expiration_date", same)
		set("street", "address", same)
		set("city", "city", same)
		set("state", "state", same)
		set("postal", "postal_code", same)
		set("number", "dl", same)
		set("sex", "sex", func(v string) string { return v[:1] })
	case "parse_usdl":
		set("last", "lastName", same)
		set("first", "firstName", same)
		set("middle", "middleName", same)
		set("dob", "dateOfBirth", undash)
		set("expiry", "dateOfExpiry", undash)
		set("issue", "dateOfIssue", undash)
		set("street", "addressStreet", same)
		set("city", "addressCity", same)
		set("state", "addressState", same)
		set("postal", "addressPostalCode", same)
		set("number", "documentNumber", same)
		set("sex", "sex", same)
	}
	return c
}

// deviation is a place where we differ from a reference parse on purpose.
// source is a suffix of the fixture's source ("" matches every fixture of
// the parser).
type deviation struct {
	parser, source, field, ours, why string
}

var deviations = []deviation{
	{"parse_usdl", "", "postal", "", "DAK pads an unknown ZIP+4 extension with 0000 (Annex D); we report the 5-digit ZIP, not 9 digits with a fake extension"},
	{"aamva", "PDF417_CT.js", "postal", "06109-1896", "DAK 061091896 carries a real ZIP+4 extension; the reference drops it"},
	{"aamva", "PDF417_NH.js", "postal", "33333-3333", "DAK 333333333 is a 9-digit ZIP+4; the reference drops the extension"},
	{"aamva", "/FL.js", "expiry", "20210108", "track 2 expiry YYMM 2101 with the expiry code 99 swapped into the birth month: 99 means 'expires on the birthday in year YY', 2021-01-08; the reference keeps the raw YYMM"},
	{"aamva", "FL2.js", "expiry", "20210108", "same stripe as FL.js: expires on the birthday in 2021"},
	{"aamva", "/FL.js", "number", "04621720820090", "track 2: the 13-digit number field plus its overflow field '0' is the number; the reference leaves the overflow out"},
	{"aamva", "FL2.js", "number", "04621720820090", "same stripe as FL.js: number plus overflow"},
	{"aamva", "/TX.js", "expiry", "20150831", "track 2 expiry 1508 is YYMM with no day; we take the month's last day, the reference keeps the raw YYMM"},
}

func findDeviation(f fixture, field string) (deviation, bool) {
	for _, d := range deviations {
		if d.parser == f.Reference.Parser && d.field == field && strings.HasSuffix(f.Source, d.source) {
			return d, true
		}
	}
	return deviation{}, false
}

// TestFixturesAgainstReference parses every fixture and compares names,
// dates, address, number and sex with the reference parse. Every
// difference must be a listed deviation, and every listed deviation must
// still be a difference.
func TestFixturesAgainstReference(t *testing.T) {
	used := map[int]bool{}
	for _, f := range loadFixtures(t) {
		if f.Reference.Parser == "" {
			continue
		}
		t.Run(f.Source, func(t *testing.T) {
			l, err := ParseAAMVA([]byte(f.Data))
			if err != nil {
				t.Fatalf("ParseAAMVA: %v", err)
			}
			ours, ref := coreOf(l), referenceCore(f)
			if len(ref) < 6 {
				t.Fatalf("reference gives only %d comparable fields: %v", len(ref), ref)
			}
			for field, want := range ref {
				got := ours[field]
				d, listed := findDeviation(f, field)
				switch {
				case got == want && listed:
					t.Errorf("%s: deviation listed (%s) but we agree with the reference %q", field, d.why, want)
				case got != want && !listed:
					t.Errorf("%s = %q, reference %q", field, got, want)
				case got != want && d.ours != "" && got != d.ours:
					t.Errorf("%s = %q, deviation says we give %q", field, got, d.ours)
				}
				if listed {
					for i := range deviations {
						if deviations[i] == d {
							used[i] = true
						}
					}
				}
			}
		})
	}
	for i, d := range deviations {
		if !used[i] {
			t.Errorf("deviation %+v matched no fixture", d)
		}
	}
}

// TestFixtureREADMESample checks the fixture without a reference parse
// (aamva-parser's README sample, a version 8 barcode with \r\n line ends
// and a header mangled by the README) against the values it encodes.
func TestFixtureREADMESample(t *testing.T) {
	for _, f := range loadFixtures(t) {
		if f.Reference.Parser != "" {
			continue
		}
		l, err := ParseAAMVA([]byte(f.Data))
		if err != nil {
			t.Fatalf("%s: %v", f.Source, err)
		}
		want := core{"last": "PUBLIC", "first": "JOHN", "middle": "QUINCY", "dob": "19700131", "expiry": "20350131", "issue": "20150824",
			"street": "789 E OAK ST", "city": "ANYTOWN", "state": "CA", "postal": "90223", "number": "D12345678", "sex": "M"}
		for k, v := range want {
			if got := coreOf(l)[k]; got != v {
				t.Errorf("%s = %q, want %q", k, got, v)
			}
		}
		if l.Header.Version != 8 || l.Header.JurisdictionVersion != 1 || l.Height != (Measure{69, "in"}) || l.Weight != (Measure{180, "lb"}) {
			t.Errorf("header/physical: version %d jv %d height %+v weight %+v", l.Header.Version, l.Header.JurisdictionVersion, l.Height, l.Weight)
		}
		// IIN 636026 is Arizona while the address says CA: kept apart, flagged.
		if l.IssuingJurisdiction != "AZ" || !l.HasWarning(WarnMismatch) || !l.HasWarning(WarnHeaderGarbled) {
			t.Errorf("issuer %q warnings %+v", l.IssuingJurisdiction, l.Warnings)
		}
		if zs := l.Subfiles[1]; zs.Type != "ZA" || len(zs.Elements) != 3 || zs.Elements[0] != (Element{ID: "ZAA", Value: "N"}) {
			t.Errorf("jurisdiction subfile %+v", zs)
		}
	}
}

// TestFixtureDetails pins values beyond the core ones, each for the
// standard rule it exercises.
func TestFixtureDetails(t *testing.T) {
	bySource := map[string]License{}
	for _, f := range loadFixtures(t) {
		l, err := ParseAAMVA([]byte(f.Data))
		if err != nil {
			t.Fatalf("%s: %v", f.Source, err)
		}
		bySource[f.Source[strings.LastIndex(f.Source, " ")+1:]] = l
	}
	ct := bySource["package/test/PDF417_CT.js"]
	// Version 1 DAA "LAST,FIRST,MIDDLE,SUFFIX"; DAU "601" is 6 ft 1 in.
	if ct.NameSuffix != "3RD" || ct.Height != (Measure{73, "in"}) || ct.EyeColor != "BLU" || !ct.OrganDonor {
		t.Errorf("CT: suffix %q height %+v eyes %q donor %v", ct.NameSuffix, ct.Height, ct.EyeColor, ct.OrganDonor)
	}
	md := bySource["package/test/PDF417_MD.js"]
	if md.Header.FileType != "AAMVA" || md.MiddleNames != "" || md.NameSuffix != "3RD" || md.Weight != (Measure{135, "lb"}) {
		t.Errorf("MD: file type %q middle %q suffix %q weight %+v", md.Header.FileType, md.MiddleNames, md.NameSuffix, md.Weight)
	}
	ks := bySource["package/test/PDF417_KS.js"]
	if ks.Truncation != (Truncation{"N", "N", "N"}) || ks.Address.Line2 != "UNAVL" || ks.Weight != (Measure{140, "lb"}) || ks.Header.Version != 6 {
		t.Errorf("KS: %+v %q %+v v%d", ks.Truncation, ks.Address.Line2, ks.Weight, ks.Header.Version)
	}
	fl := bySource["package/test/PDF417_FL.js"]
	if len(fl.Subfiles) != 2 || fl.Subfiles[1].Type != "ZF" {
		t.Fatalf("FL subfiles %+v", fl.Subfiles)
	}
	if v, _ := fl.Subfiles[1].Get("ZFC"); v != "P771206120090" {
		t.Errorf("FL ZFC = %q", v)
	}
	tn := bySource["UsdlData3"]
	if tn.IssuingJurisdiction != "TN" || tn.Address.Jurisdiction != "AR" || !tn.HasWarning(WarnMismatch) || tn.Truncation.Family != "U" {
		t.Errorf("TN/AR: issuer %q address %q warnings %+v", tn.IssuingJurisdiction, tn.Address.Jurisdiction, tn.Warnings)
	}
	ny := bySource["UsdlData2"]
	if ny.Sex != SexFemale || ny.Header.IIN != "636001" {
		t.Errorf("NY sex %q iin %q", ny.Sex, ny.Header.IIN)
	}
	nh := bySource["package/test/PDF417_NH.js"]
	// IIN 111111 is no jurisdiction's; DCT "JOHN A" is one given-name
	// string (the standard separates given names with commas).
	if !nh.HasWarning(WarnUnknownIIN) || nh.IssuingJurisdiction != "NH" || nh.FirstNames != "JOHN A" {
		t.Errorf("NH: %+v %q %q", nh.Warnings, nh.IssuingJurisdiction, nh.FirstNames)
	}
}

// TestMalformedFixtures: the malformed samples parse best-effort with the
// warning that names what was wrong.
func TestMalformedFixtures(t *testing.T) {
	for _, tc := range []struct {
		suffix string
		want   WarningCode
	}{
		{"UsdlData_error", WarnUnknownElement},
		{"UsdlData_invalid_characters", WarnNonASCII},
		{"UsdlData_invalid_characters_2", WarnNonASCII},
		{"PDF417_TX.js", WarnSeparatorsMissing},
		{"PDF417_NH.js", WarnSubfileLength},
	} {
		found := false
		for _, f := range loadFixtures(t) {
			if !strings.HasSuffix(f.Source, tc.suffix) {
				continue
			}
			found = true
			l, err := ParseAAMVA([]byte(f.Data))
			if err != nil {
				t.Fatalf("%s: %v", tc.suffix, err)
			}
			if !l.HasWarning(tc.want) {
				t.Errorf("%s: no %s warning in %+v", tc.suffix, tc.want, l.Warnings)
			}
		}
		if !found {
			t.Errorf("no fixture %s", tc.suffix)
		}
	}
}
