package mrz

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLookAlikesForcedByClass: a look-alike where the field allows only its
// twin is read as the twin, whatever the check digits (names, codes and
// sex are letters; dates and check digits digits).
func TestLookAlikesForcedByClass(t *testing.T) {
	td3 := []string{
		"P<UT0ER1KSS0N<<ANNA<MAR1A<<<<<<<<<<<<<<<<<<<",
		"L898902C36UTO7408I22F12O4I59ZE184226B<<<<<IO",
	}
	m, err := Parse(strings.Join(td3, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.Lines, "\n") != strings.Join(specimenTD3, "\n") || len(m.Corrected) != 0 {
		t.Errorf("read %q corrected %v, want the specimen", m.Lines, m.Corrected)
	}
}

// TestLookAlikesChosenByCheckDigit: in the document number, where letters
// and digits are both allowed, the check digit picks the reading when
// exactly one passes; when several pass, none is chosen.
func TestLookAlikesChosenByCheckDigit(t *testing.T) {
	zone := func(number string) string {
		lines, err := Encode(MRZ{Format: TD3, DocumentCode: "P", IssuingState: "UTO", Surname: "ERIKSSON",
			DocumentNumber: number, Nationality: "UTO", BirthDate: Date{74, 8, 12}, Sex: "F", ExpiryDate: Date{12, 4, 15}})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(lines, "\n")
	}
	// One look-alike, 0 misread as O: the only reading that passes is
	// the printed one.
	printed := zone("XK7730AW4")
	misread := strings.Replace(printed, "XK7730AW4", "XK773OAW4", 1)
	m, err := Parse(misread)
	if err != nil {
		t.Fatal(err)
	}
	if m.DocumentNumber != "XK7730AW4" || strings.Join(m.Corrected, ",") != "document number" {
		t.Errorf("number %q corrected %v", m.DocumentNumber, m.Corrected)
	}
	// The specimen's number has four look-alikes (8, 8, 0, 2): with one
	// misread, three of the fifteen other readings pass its check digit.
	printed = zone("L898902C3")
	misread = strings.Replace(printed, "L898902C3", "LB98902C3", 1)
	if _, err := Parse(misread); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("Parse(%q) = %v, want ErrAmbiguous", misread, err)
	}
}

// TestSingleMisreadNeverAccepted: every single look-alike misread of every
// position of generated zones either reads back as printed or is refused;
// none passes the check digits as another reading. (One substitution
// always changes a check digit: the pairs differ by 24, 17, 23, 3 and 33,
// none a multiple of 10 times 7, 3 or 1.) Two misreads in one field can
// cancel out; that is the check digits' limit, not the parser's.
func TestSingleMisreadNeverAccepted(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 9303))
	corrected, refused := 0, 0
	for range 60 {
		for _, f := range []Format{TD3, TD1} {
			printed := randomZone(t, r, f)
			for li, line := range printed {
				for i := 0; i < len(line); i++ {
					tw := Twin(line[i])
					if tw == 0 {
						continue
					}
					read := append([]string(nil), printed...)
					read[li] = line[:i] + string(tw) + line[i+1:]
					m, err := Parse(strings.Join(read, "\n"))
					switch {
					case err == nil && strings.Join(m.Lines, "") != strings.Join(printed, ""):
						t.Fatalf("misread\n%s\naccepted as\n%s\nprinted\n%s", strings.Join(read, "\n"), strings.Join(m.Lines, "\n"), strings.Join(printed, "\n"))
					case err == nil:
						corrected++
					case errors.Is(err, ErrAmbiguous), errors.Is(err, ErrCheckDigit):
						refused++
					default:
						t.Fatalf("misread %q: %v", read, err)
					}
				}
			}
		}
	}
	t.Logf("%d single misreads read as printed, %d refused", corrected, refused)
	if corrected == 0 || refused == 0 {
		t.Errorf("corrected %d refused %d: the test does not exercise both", corrected, refused)
	}
}

// TestGeneratedRoundTrip: generated zones of both formats, long TD1
// numbers included, parse back to their fields.
func TestGeneratedRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		for _, f := range []Format{TD3, TD1} {
			want := randomMRZ(r, f)
			lines, err := Encode(want)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parse(strings.ToLower(strings.Join(lines, "\n ")))
			if err != nil {
				t.Fatalf("%q: %v", lines, err)
			}
			want.Lines = lines
			same(t, got, want)
		}
	}
}

func TestErrors(t *testing.T) {
	edit := func(lines []string, li, col int, s string) string {
		out := append([]string(nil), lines...)
		out[li] = out[li][:col] + s + out[li][col+len(s):]
		return strings.Join(out, "\n")
	}
	encode := func(m MRZ) string {
		lines, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(lines, "\n")
	}
	base := MRZ{Format: TD3, DocumentCode: "P", IssuingState: "UTO", Surname: "ERIKSSON", DocumentNumber: "XK7730AW4",
		Nationality: "UTO", BirthDate: Date{74, 8, 12}, Sex: "F", ExpiryDate: Date{12, 4, 15}}
	with := func(f func(*MRZ)) string { m := base; f(&m); return encode(m) }
	nld := []string{"P<NLDMEULENDIJK<<LOES<ALBERTINE<<<<<<<<<<<<<", "XA00000148NLD7110195F0604121123456782<<<<<02"}
	if _, err := Parse(strings.Join(nld, "\n")); err != nil {
		t.Fatalf("the Dutch zone as printed: %v", err)
	}
	for _, c := range []struct {
		name, zone string
		want       error
	}{
		{"empty", "", ErrFormat},
		{"one line", specimenTD3[0], ErrFormat},
		{"short line", specimenTD3[0] + "\n" + specimenTD3[1][:43], ErrFormat},
		{"TD3 and TD1 mixed", specimenTD3[0] + "\n" + specimenTD1[1] + "\n" + specimenTD1[2], ErrFormat},
		{"punctuation", edit(specimenTD3, 0, 10, "-"), ErrFormat},
		{"non-ASCII", edit(specimenTD3, 0, 10, "\xc3"), ErrFormat},
		{"digit in a name", edit(specimenTD3, 0, 10, "7"), ErrFormat},
		{"letter in a date", edit(specimenTD3, 1, 14, "K"), ErrFormat},
		{"birth check digit", edit(specimenTD3, 1, 19, "3"), ErrCheckDigit},
		{"expiry check digit", edit(specimenTD3, 1, 27, "1"), ErrCheckDigit},
		{"number check digit", edit(specimenTD3, 1, 9, "5"), ErrCheckDigit},
		// ZE184226B has 6 look-alikes: a wrong check digit is met by several readings.
		{"personal number check digit", edit(specimenTD3, 1, 42, "2"), ErrAmbiguous},
		{"composite", edit(specimenTD3, 1, 43, "1"), ErrCheckDigit},
		{"TD1 composite", edit(specimenTD1, 1, 29, "5"), ErrCheckDigit},
		{"TD1 optional data misread", edit(specimenTD1, 1, 20, "L"), ErrCheckDigit},
		{"month 13", with(func(m *MRZ) { m.BirthDate = Date{74, 13, 1} }), ErrField},
		{"31 April", with(func(m *MRZ) { m.ExpiryDate = Date{30, 4, 31} }), ErrField},
		{"unknown expiry day", with(func(m *MRZ) { m.ExpiryDate = Date{30, 4, 0} }), ErrField},
		{"sex", with(func(m *MRZ) { m.Sex = "Q" }), ErrField},
		{"visa", with(func(m *MRZ) { m.DocumentCode = "V" }), ErrField},
		{"no surname", with(func(m *MRZ) { m.Surname = "" }), ErrField},
		// passporteye/98_pass-nld.jpg as the fine reading read it: the Dutch
		// print's D taken for O.
		{"issuing state no code", edit(nld, 0, 2, "NLO"), ErrField},
		{"nationality no code", edit(nld, 1, 10, "NLO"), ErrField},
		{"TD1 nationality no code", edit(specimenTD1, 1, 15, "UTQ"), ErrField},
		{"too long", strings.Repeat("P", MaxInput+1), ErrFormat},
	} {
		if _, err := Parse(c.zone); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestUnknownBirthDay: a birth date with its day, or month and day,
// unknown (Part 3, 4.8) parses with zeros there.
func TestUnknownBirthDay(t *testing.T) {
	for _, d := range []Date{{74, 8, 0}, {74, 0, 0}} {
		lines, err := Encode(MRZ{Format: TD1, DocumentCode: "ID", IssuingState: "D", Surname: "MUSTERMANN",
			GivenNames: "ERIKA", DocumentNumber: "T22000129", Nationality: "D", BirthDate: d, ExpiryDate: Date{31, 8, 1}})
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(strings.Join(lines, "\n"))
		if err != nil || m.BirthDate != d || m.IssuingState != "D" || m.Sex != "" {
			t.Errorf("%v: %+v %v", d, m, err)
		}
	}
}
