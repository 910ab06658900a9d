package reader

import (
	"errors"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// TestUnsureNames: a zone unclear only in name cells, each one of two
// letters, is refused as UnsureNames (an ErrUnsure); a second reading of
// the names settles it when it agrees with every cell (either letter of
// an unclear one), never when it disagrees with a sure cell or gives an
// unclear one a third letter. A name cell whose runner-up is not clear of
// a third letter, or an unclear cell no check digit covers outside the
// names, leaves a plain refusal.
func TestUnsureNames(t *testing.T) {
	chars := []byte(ocrb.Charset)
	// "P<UTO" then ERIKSSON from column 5: R at 6; ANNA from 15.
	names := []unclear{{0, 6, 'B', 'R'}, {0, 16, 'H', 'N'}}
	field := strings.TrimPrefix(specimenTD3[0], "P<UTO")
	_, err := parseCells(chars, cellsOf(specimenTD3, names...), nil, MinMargin, MinBlindMargin, true)
	var u *UnsureNames
	if !errors.As(err, &u) || !errors.Is(err, ErrUnsure) || u.Unclear() != 2 {
		t.Fatalf("two unclear name cells: %v, want UnsureNames of 2 (an ErrUnsure)", err)
	}
	if m, err := u.Settle(field); err != nil || strings.Join(m.Lines, "\n") != strings.Join(specimenTD3, "\n") {
		t.Errorf("the printed names: %v, %v", m, err)
	}
	// The second reading chooses between the two letters, as printed.
	if m, err := u.Settle(strings.Replace(field, "ERIK", "EBIK", 1)); err != nil || m.Surname != "EBIKSSON" {
		t.Errorf("the other letter: %v, %v", m, err)
	}
	for _, bad := range []string{
		strings.Replace(field, "SSON", "SSEN", 1), // a sure cell
		strings.Replace(field, "ERIK", "EPIK", 1), // a third letter in an unclear cell
		field[:len(field)-1],                      // a field of another width
	} {
		if m, err := u.Settle(bad); !errors.Is(err, ErrUnsure) {
			t.Errorf("%q: %v, %v; want ErrUnsure", bad, m, err)
		}
	}
	// The document number's unclear cell is settled by its check digit,
	// the name's left to the second reading.
	_, err = parseCells(chars, cellsOf(specimenTD3, unclear{0, 6, 'B', 'R'}, unclear{1, 1, '3', '8'}), nil, MinMargin, MinBlindMargin, true)
	if !errors.As(err, &u) || u.Unclear() != 1 {
		t.Fatalf("a name and a number cell unclear: %v, want UnsureNames of 1", err)
	}
	if m, err := u.Settle(field); err != nil || m.DocumentNumber != "L898902C3" {
		t.Errorf("settled: %v, %v", m, err)
	}
	// Not UnsureNames: a third letter near the two; an unclear
	// nationality (no check digit, not a name).
	third := cellsOf(specimenTD3, names...)
	third[0][6].scores[strings.IndexByte(ocrb.Charset, 'P')] = 0.894
	for name, cells := range map[string][][]cellRead{
		"a third letter": third,
		"nationality":    cellsOf(specimenTD3, unclear{0, 6, 'B', 'R'}, unclear{1, 11, 'T', 'I'}),
	} {
		if _, err := parseCells(chars, cells, nil, MinMargin, MinBlindMargin, true); !errors.Is(err, ErrUnsure) || errors.As(err, &u) {
			t.Errorf("%s: %v, want a plain ErrUnsure", name, err)
		}
	}
	if line, start, n := mrz.NameField(mrz.TD1); line != 2 || start != 0 || n != 30 {
		t.Errorf("TD1 names at %d, %d, %d", line, start, n)
	}
}
