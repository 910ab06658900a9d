package license

import (
	"reflect"
	"strings"
	"testing"
)

// sure is a confident read; unsure one below MinConfidence.
func sure(s string) Read   { return Read{Text: s, Conf: 95} }
func unsure(s string) Read { return Read{Text: s, Conf: MinConfidence - 1} }

// genuineUS is what the front of sampleUS prints.
func genuineUS() Printed {
	return Printed{DocumentNumber: sure("T64235789"), LastName: sure("SAMPLE"), FirstName: sure("JANE ANN MARIE"),
		DOB: sure("06/06/1986"), ExpiryDate: sure("06/06/2027"), IssueDate: sure("06/06/2019")}
}

func TestCompareFrontFields(t *testing.T) {
	us, ca := sampleUS(), sampleCA()
	cases := []struct {
		name string
		l    License
		edit func(*Printed)
		// field is the outcome of the edited field; result the overall.
		field  func(FrontFields) FieldOutcome
		want   FieldOutcome
		result FieldOutcome
	}{
		{"genuine", us, func(*Printed) {}, func(f FrontFields) FieldOutcome { return f.DocumentNumber }, FieldMatch, FieldMatch},
		{"lower case, accents", us, func(p *Printed) { p.LastName = sure("Sámple") }, lastF, FieldMatch, FieldMatch},
		{"hyphen and spaces in a name", License{LastName: "OBRIEN-SMITH"}, func(p *Printed) { p.LastName = sure("O'BRIEN SMITH") }, lastF, FieldMatch, FieldUnreadable},
		{"number O for 0, I for 1", License{DocumentNumber: "D0123111"}, func(p *Printed) { p.DocumentNumber = sure("DO12311I") }, numF, FieldMatch, FieldUnreadable},
		{"number printed in groups", us, func(p *Printed) { p.DocumentNumber = sure("T64 235 789") }, numF, FieldMatch, FieldMatch},
		{"number with a digit changed", us, func(p *Printed) { p.DocumentNumber = sure("T64235788") }, numF, FieldMismatch, FieldMismatch},
		{"number misread, unsure", us, func(p *Printed) { p.DocumentNumber = unsure("T64235788") }, numF, FieldUnreadable, FieldUnreadable},
		{"number not found", us, func(p *Printed) { p.DocumentNumber = Read{} }, numF, FieldUnreadable, FieldUnreadable},
		{"another last name", us, func(p *Printed) { p.LastName = sure("SIMPSON") }, lastF, FieldMismatch, FieldMismatch},
		{"first name alone", us, func(p *Printed) { p.FirstName = sure("JANE") }, firstF, FieldMatch, FieldMatch},
		{"first name truncated", License{FirstNames: "CHRISTOPHER"}, func(p *Printed) { p.FirstName = sure("CHRISTOPH") }, firstF, FieldMatch, FieldUnreadable},
		{"middle names truncated", us, func(p *Printed) { p.FirstName = sure("JANE ANN MA") }, firstF, FieldMatch, FieldMatch},
		{"too short to be a truncation", us, func(p *Printed) { p.LastName = sure("SAM") }, lastF, FieldMismatch, FieldMismatch},
		{"barcode truncated the name", License{LastName: "WOLFESCHLEGEL"}, func(p *Printed) { p.LastName = sure("WOLFESCHLEGELSTEINHAUSEN") }, lastF, FieldMatch, FieldUnreadable},
		{"another first name", us, func(p *Printed) { p.FirstName = sure("JOAN ANN MARIE") }, firstF, FieldMismatch, FieldMismatch},
		{"birth date ISO", us, func(p *Printed) { p.DOB = sure("1986-06-06") }, dobF, FieldMatch, FieldMatch},
		{"birth date month name", us, func(p *Printed) { p.DOB = sure("06 JUN 1986") }, dobF, FieldMatch, FieldMatch},
		{"birth date O for 0", us, func(p *Printed) { p.DOB = sure("O6/O6/l986") }, dobF, FieldMatch, FieldMatch},
		{"birth date short year", us, func(p *Printed) { p.DOB = sure("06-06-86") }, dobF, FieldMatch, FieldMatch},
		{"another birth date", us, func(p *Printed) { p.DOB = sure("06/06/1985") }, dobF, FieldMismatch, FieldMismatch},
		{"another birth date, unsure", us, func(p *Printed) { p.DOB = unsure("06/06/1985") }, dobF, FieldUnreadable, FieldUnreadable},
		{"birth date not a date", us, func(p *Printed) { p.DOB = sure("13/45/19") }, dobF, FieldUnreadable, FieldUnreadable},
		{"Canadian day first", ca, func(p *Printed) {
			*p = Printed{DocumentNumber: sure("T1234 56789 20229"), LastName: sure("TREMBLAY"), FirstName: sure("MARIE"),
				DOB: sure("29/02/1992"), ExpiryDate: sure("2026/02/28")}
		}, dobF, FieldMatch, FieldMatch},
		{"ID card day first with dots", License{DOB: Date{1984, 2, 25}, Country: "DEU"}, func(p *Printed) { p.DOB = sure("25.02.1984") }, dobF, FieldMatch, FieldUnreadable},
		{"ID card day first, short year", License{DOB: Date{1984, 2, 25}, Country: "FRA"}, func(p *Printed) { p.DOB = sure("25 02 84") }, dobF, FieldMatch, FieldUnreadable},
		{"ID card day first, another day", License{DOB: Date{1984, 2, 25}, Country: "DEU"}, func(p *Printed) { p.DOB = sure("24.02.1984") }, dobF, FieldMismatch, FieldMismatch},
		{"month names beyond English and French", License{DOB: Date{1974, 8, 12}, Country: "ITA"}, func(p *Printed) { p.DOB = sure("12 AGO/AUG 1974") }, dobF, FieldMatch, FieldUnreadable},
		{"Dutch March", License{DOB: Date{1965, 3, 10}, Country: "NLD"}, func(p *Printed) { p.DOB = sure("10 MRT/MAR 1965") }, dobF, FieldMatch, FieldUnreadable},
		{"German March, umlaut", License{DOB: Date{1965, 3, 10}, Country: "DEU"}, func(p *Printed) { p.DOB = sure("10 MÄR 1965") }, dobF, FieldMatch, FieldUnreadable},
		{"US card month first only", License{DOB: Date{1984, 2, 5}, Country: "USA"}, func(p *Printed) { p.DOB = sure("05.02.1984") }, dobF, FieldMismatch, FieldMismatch},
		{"expiry changed", us, func(p *Printed) { p.ExpiryDate = sure("06/06/2029") }, expF, FieldMismatch, FieldMismatch},
		{"issue date not printed", us, func(p *Printed) { p.IssueDate = Read{} }, issF, FieldNotCompared, FieldMatch},
		{"issue date changed", us, func(p *Printed) { p.IssueDate = sure("06/06/2018") }, issF, FieldMismatch, FieldMismatch},
		{"nothing read", us, func(p *Printed) { *p = Printed{} }, numF, FieldUnreadable, FieldUnreadable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := genuineUS()
			c.edit(&p)
			m := CompareFront(c.l, p)
			if got := c.field(m.Fields); got != c.want {
				t.Errorf("field = %s, want %s (%+v)", got, c.want, m.Fields)
			}
			if m.Result != c.result {
				t.Errorf("result = %s, want %s (%+v)", m.Result, c.result, m.Fields)
			}
		})
	}
}

func numF(f FrontFields) FieldOutcome   { return f.DocumentNumber }
func lastF(f FrontFields) FieldOutcome  { return f.LastName }
func firstF(f FrontFields) FieldOutcome { return f.FirstName }
func dobF(f FrontFields) FieldOutcome   { return f.DOB }
func expF(f FrontFields) FieldOutcome   { return f.ExpiryDate }
func issF(f FrontFields) FieldOutcome   { return f.IssueDate }

// words splits lines of text into Words, every one read with conf.
func words(conf float64, lines ...string) []Word {
	var out []Word
	for i, l := range lines {
		for _, w := range strings.Fields(l) {
			out = append(out, Word{Text: w, Conf: conf, Line: i})
		}
	}
	return out
}

func TestReadPrinted(t *testing.T) {
	p := ReadPrinted(words(91,
		"4d DLN: T64235789",
		"1 SAMPLE",
		"2 JANE ANN MARIE",
		"8 2300 WEST BROAD STREET",
		"1 MAIN ST 3 DOB 06/06/1986",
		"4a ISS 06/06/2019 4b EXP 06/06/2027",
		"15 SEX F 16 HGT 5'-08\"",
	))
	r := func(s string) Read { return Read{Text: s, Conf: 91} }
	want := Printed{DocumentNumber: r("T64235789"), LastName: r("SAMPLE"), FirstName: r("JANE ANN MARIE"),
		DOB: r("06/06/1986"), IssueDate: r("06/06/2019"), ExpiryDate: r("06/06/2027")}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("ReadPrinted = %+v\nwant %+v", p, want)
	}
	if m := CompareFront(sampleUS(), p); m.Result != FieldMatch {
		t.Errorf("the genuine front compares %+v", m)
	}

	// Word labels alone, the lowest word confidence, the first value wins.
	ws := words(90, "DL T64 235 789", "LN SAMPLE", "FN JANE", "DOB 06/06/1986 EXP 06/06/2027", "LN OTHER")
	ws[2].Conf = 40
	p = ReadPrinted(ws)
	if !reflect.DeepEqual(p.DocumentNumber, Read{Text: "T64 235 789", Conf: 40}) || p.LastName.Text != "SAMPLE" || p.ExpiryDate.Text != "06/06/2027" || p.IssueDate.Text != "" {
		t.Errorf("ReadPrinted = %+v", p)
	}
	// A label glued to its value.
	p = ReadPrinted(words(90, "2LI", "1SAMPLE", "4dDLN T64235789", "3DOB 06/06/1986"))
	if p.FirstName.Text != "LI" || p.LastName.Text != "SAMPLE" || p.DocumentNumber.Text != "T64235789" || p.DOB.Text != "06/06/1986" {
		t.Errorf("glued labels: %+v", p)
	}
	if got := ReadPrinted(words(90, "NO LABELS HERE", "JUST 06/06/1986")); !reflect.DeepEqual(got, Printed{}) {
		t.Errorf("text without labels gave %+v", got)
	}
}

// TestCompareFrontAlternatives: a character the reader chose wrong but
// also saw as the barcode's is no mismatch; one it never saw as the
// barcode's is.
func TestCompareFrontAlternatives(t *testing.T) {
	us := sampleUS()
	// cs reads each alternative set at 90; "~" toggles to 40 and back.
	cs := func(sets ...string) []Char {
		var out []Char
		conf := 90.0
		for _, a := range sets {
			if a == "~" {
				conf = 130 - conf
				continue
			}
			out = append(out, Char{Alts: a, Conf: conf})
		}
		return out
	}
	cases := []struct {
		name string
		read Read
		want FieldOutcome
		get  func(FrontFields) FieldOutcome
		edit func(*Printed, Read)
	}{
		{"T read as 7, T an alternative", Read{Text: "764 235789", Conf: 30, Chars: cs("7T1", "6", "4", "2", "3", "5", "7", "8", "9")}, FieldMatch, numF,
			func(p *Printed, r Read) { p.DocumentNumber = r }},
		{"a digit changed, read surely, the rest weak", Read{Text: "764235783", Conf: 30, Chars: cs("~", "7", "~", "6", "4", "2", "3", "5", "7", "8", "3")}, FieldMismatch, numF,
			func(p *Printed, r Read) { p.DocumentNumber = r }},
		{"a digit changed, read weakly", Read{Text: "T64235783", Conf: 40, Chars: cs("T", "6", "4", "2", "3", "5", "7", "8", "~", "3")}, FieldUnreadable, numF,
			func(p *Printed, r Read) { p.DocumentNumber = r }},
		{"a character too many", Read{Text: "T642357899", Conf: 88, Chars: cs("T", "6", "4", "2", "3", "5", "7", "8", "9", "9")}, FieldMismatch, numF,
			func(p *Printed, r Read) { p.DocumentNumber = r }},
		{"a character too many, weak", Read{Text: "T642357899", Conf: 40, Chars: cs("T", "6", "4", "2", "3", "5", "7", "8", "9", "9")}, FieldUnreadable, numF,
			func(p *Printed, r Read) { p.DocumentNumber = r }},
		{"date 0 read as 6", Read{Text: "06/06/2627", Conf: 84, Chars: cs("0", "6", "/", "0", "6", "/", "2", "60", "2", "7")}, FieldMatch, expF,
			func(p *Printed, r Read) { p.ExpiryDate = r }},
		{"date changed", Read{Text: "06/06/2029", Conf: 30, Chars: cs("0", "6", "/", "0", "6", "/", "2", "0", "2", "9")}, FieldMismatch, expF,
			func(p *Printed, r Read) { p.ExpiryDate = r }},
		{"smudged: confident glyphs of a doubted word, most of them wrong", Read{Text: "SECAMO", Conf: 16, Chars: cs("SN", "EF", "CE", "AR", "MH", "Oo")}, FieldUnreadable, lastF,
			func(p *Printed, r Read) { p.LastName = r }},
		{"name letter read wrong", Read{Text: "SAMPIE", Conf: 90, Chars: cs("S", "A", "M", "P", "IL", "E")}, FieldMatch, lastF,
			func(p *Printed, r Read) { p.LastName = r }},
		{"another name", Read{Text: "MORGAN", Conf: 90, Chars: cs("M", "O", "R", "G", "A", "N")}, FieldMismatch, lastF,
			func(p *Printed, r Read) { p.LastName = r }},
	}
	for _, c := range cases {
		p := genuineUS()
		c.edit(&p, c.read)
		if got := c.get(CompareFront(us, p).Fields); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// charsOf is w's characters each read at conf, without alternatives.
func charsOf(w string, conf float64) []Char {
	var out []Char
	for _, r := range w {
		out = append(out, Char{Alts: string(r), Conf: conf})
	}
	return out
}

// FuzzCompareFront: any OCR text splits into fields and compares without
// panicking, and a field never mismatches on a read below MinConfidence.
func FuzzCompareFront(f *testing.F) {
	f.Add("4d DLN T64235789\n1 SAMPLE\n2 JANE\n3 DOB 06/06/1986\n4b EXP 06/06/2027", 95.0)
	f.Add("DL O6 JUN l986 4a ISS 2019-06-06", 30.0)
	f.Add("3 4d 1 2 4b\n\n: # 99999999 ÉÑ ß", 70.0)
	us, ca := sampleUS(), sampleCA()
	f.Fuzz(func(t *testing.T, text string, conf float64) {
		var ws []Word
		for i, line := range strings.Split(text, "\n") {
			for _, w := range strings.Fields(line) {
				ws = append(ws, Word{Text: w, Conf: conf, Line: i, Chars: charsOf(w, conf)})
			}
		}
		p := ReadPrinted(ws)
		for _, l := range []License{us, ca, {}} {
			m := CompareFront(l, p)
			switch m.Result {
			case FieldMatch, FieldMismatch, FieldUnreadable:
			default:
				t.Fatalf("result %q", m.Result)
			}
			if m.Result == FieldMismatch && !(conf >= MinConfidence) {
				t.Fatalf("mismatch from reads at confidence %v: %+v", conf, m)
			}
		}
	})
}
