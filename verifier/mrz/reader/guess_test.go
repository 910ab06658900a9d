package reader

import (
	"errors"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// specimenTD3 is ICAO 9303 Part 4's specimen zone.
var specimenTD3 = []string{"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"}

// unclear is a cell the matcher scored two characters for, nearly alike.
type unclear struct {
	line, col int
	best, alt byte
}

// cellsOf makes the matcher's cells of a zone: every character scoring 1
// against 0 for every other, but each unclear cell scoring its best 0.9 and
// its runner-up 0.895 (within MinMargin, well above every third).
func cellsOf(lines []string, unclears ...unclear) [][]cellRead {
	score := func(c byte) []float64 {
		s := make([]float64, len(ocrb.Charset))
		s[strings.IndexByte(ocrb.Charset, c)] = 1
		return s
	}
	out := make([][]cellRead, len(lines))
	for li, line := range lines {
		for i := range len(line) {
			out[li] = append(out[li], cellRead{char: line[i], score: 1, scores: score(line[i])})
		}
	}
	for _, u := range unclears {
		s := make([]float64, len(ocrb.Charset))
		s[strings.IndexByte(ocrb.Charset, u.best)] = 0.9
		s[strings.IndexByte(ocrb.Charset, u.alt)] = 0.895
		out[u.line][u.col] = cellRead{char: u.best, score: 0.9, scores: s}
	}
	return out
}

// TestParseCellsGuess: an unclear cell the check digits cover is settled
// by them, whichever of its two candidates scored best; an unclear cell of
// a name, or two unclear cells that two readings satisfy, is refused.
func TestParseCellsGuess(t *testing.T) {
	chars := []byte(ocrb.Charset)
	for _, tc := range []struct {
		name     string
		unclears []unclear
		ok       bool
	}{
		{"document number, the runner-up right", []unclear{{1, 1, '3', '8'}}, true},
		{"document number, the best right", []unclear{{1, 1, '8', '3'}}, true},
		{"birth date and expiry", []unclear{{1, 15, '7', '0'}, {1, 26, '6', '5'}}, true},
		// No check digit covers a name: never guessed.
		{"name", []unclear{{0, 6, 'B', 'R'}}, false},
		// L/S and 8/5 at weights 7 and 3 change the number's check
		// digit and the composite by 7·7 + 3·(-3) = 40, 0 modulo 10:
		// both readings pass.
		{"two readings pass", []unclear{{1, 0, 'L', 'S'}, {1, 1, '8', '5'}}, false},
		// Over maxGuesses, refused even though one reading would pass.
		{"too many", []unclear{{1, 1, '3', '8'}, {1, 2, '9', '0'}, {1, 14, '4', '1'}, {1, 22, '1', '2'}}, false},
	} {
		m, err := parseCells(chars, cellsOf(specimenTD3, tc.unclears...), nil, MinMargin, MinBlindMargin, false)
		t.Logf("%s: %v", tc.name, err)
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.ok && strings.Join(m.Lines, "\n") != strings.Join(specimenTD3, "\n"):
			t.Errorf("%s: read %q", tc.name, m.Lines)
		case !tc.ok && !errors.Is(err, ErrUnsure):
			t.Errorf("%s: got %v, want ErrUnsure", tc.name, err)
		}
	}
	if m, err := parseCells(chars, cellsOf(specimenTD3), nil, MinMargin, MinBlindMargin, false); err != nil || m.DocumentNumber != "L898902C3" {
		t.Errorf("all clear: %v, %v", m, err)
	}
	if !mrz.Checked(mrz.TD3, 1, 43) || mrz.Checked(mrz.TD3, 1, 20) || mrz.Checked(mrz.TD1, 2, 0) {
		t.Error("mrz.Checked: the composite is covered, sex and names are not")
	}
}

// TestBlurredMargin: a name cell 0.02 above its runner-up is sure in a
// zone read with sharp templates, unclear in one read with templates
// blurred past a stroke (MinBlurredMargin); the reader's blur levels from
// blurredSigma on ask for it, those under it for MinMargin.
func TestBlurredMargin(t *testing.T) {
	chars := []byte(ocrb.Charset)
	cells := cellsOf(specimenTD3)
	s := make([]float64, len(ocrb.Charset))
	s[strings.IndexByte(ocrb.Charset, 'R')] = 0.9
	s[strings.IndexByte(ocrb.Charset, 'B')] = 0.88
	cells[0][6] = cellRead{char: 'R', score: 0.9, scores: s}
	if m, err := parseCells(chars, cells, nil, MinMargin, MinBlindMargin, false); err != nil || m.Surname != "ERIKSSON" {
		t.Errorf("sharp templates: %v, %v", m, err)
	}
	if _, err := parseCells(chars, cells, nil, MinBlurredMargin, MinBlindMargin, false); !errors.Is(err, ErrUnsure) {
		t.Errorf("blurred templates: got %v, want ErrUnsure", err)
	}
	rd, _ := newReader(t)
	for _, g := range rd.glyphs {
		want := MinMargin
		if g.blur >= blurredSigma {
			want = MinBlurredMargin
		}
		if got := g.minMargin(); got != want {
			t.Errorf("blur %.2f: min margin %.3f, want %.3f", g.blur, got, want)
		}
	}
	if rd.glyphs[len(rd.glyphs)-1].minMargin() != MinBlurredMargin || rd.glyphs[0].minMargin() != MinMargin {
		t.Error("the sharpest templates should ask for MinMargin, the most blurred for MinBlurredMargin")
	}
}

// TestDigitInNameAtItsLetterScore: a name cell matching a 1 best counts as
// the I it stands for at the I's own score. Scored as the fine reading
// scored a T washed 80 % on the right at 2 MP (1 0.936, T 0.924, I 0.786):
// unclear between the 1 and the T, settled by the printed T; a blurred I
// matching its 1 a little better than itself reads as I.
func TestDigitInNameAtItsLetterScore(t *testing.T) {
	chars := []byte(ocrb.Charset)
	cell := func(one, tee, i float64) cellRead {
		s := make([]float64, len(ocrb.Charset))
		s[strings.IndexByte(ocrb.Charset, '1')] = one
		s[strings.IndexByte(ocrb.Charset, 'T')] = tee
		s[strings.IndexByte(ocrb.Charset, 'I')] = i
		return cellRead{char: '1', score: one, scores: s}
	}
	lines := append([]string(nil), specimenTD3...)
	lines[0] = lines[0][:6] + "T" + lines[0][7:]
	cells := cellsOf(lines)
	cells[0][6] = cell(0.936, 0.924, 0.786)
	_, err := parseCells(chars, cells, nil, MinMargin, MinBlindMargin, true)
	var u *UnsureNames
	if !errors.As(err, &u) {
		t.Fatalf("washed T: got %v, want UnsureNames", err)
	}
	if m, err := u.Settle(lines[0][5:]); err != nil || m.Surname != "ETIKSSON" {
		t.Errorf("washed T, settled by the printed names: %v, %v", m, err)
	}
	cells[0][6] = cell(0.9, 0.7, 0.895)
	if m, err := parseCells(chars, cells, nil, MinMargin, MinBlindMargin, true); err != nil || m.Surname != "EIIKSSON" {
		t.Errorf("blurred I: %v, %v", m, err)
	}
}
