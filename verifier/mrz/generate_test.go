package mrz

import (
	"math/rand/v2"
	"testing"
)

// randomMRZ is a zone's fields drawn at random: names of 1-3 words,
// numbers of letters and digits (TD1 ones up to 14 long), real dates and
// codes (codes.go).
func randomMRZ(r *rand.Rand, f Format) MRZ {
	const letters, alnums = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	word := func(set string, lo, hi int) string {
		b := make([]byte, lo+r.IntN(hi-lo+1))
		for i := range b {
			b[i] = set[r.IntN(len(set))]
		}
		return string(b)
	}
	words := func(n int) string {
		s := word(letters, 2, 8)
		for range r.IntN(n) {
			s += " " + word(letters, 2, 8)
		}
		return s
	}
	date := func() Date { return Date{r.IntN(100), 1 + r.IntN(12), 1 + r.IntN(28)} }
	m := MRZ{Format: f, IssuingState: codes[r.IntN(len(codes))], Nationality: codes[r.IntN(len(codes))], Surname: words(2),
		GivenNames: words(3), BirthDate: date(), Sex: []string{"M", "F", "X", ""}[r.IntN(4)], ExpiryDate: date()}
	if len(m.Surname)+len(m.GivenNames) > 20 {
		m.GivenNames = "" // stays whole in TD1's 30 columns
	}
	switch f {
	case TD3:
		m.DocumentCode = "P"
		m.DocumentNumber = word(alnums, 6, 9)
		if r.IntN(2) == 0 {
			m.OptionalData = word(alnums, 1, 14)
		}
	case TD1:
		m.DocumentCode = []string{"I", "ID", "AC", "C"}[r.IntN(4)]
		m.DocumentNumber = word(alnums, 6, 14)
		room := 15
		if len(m.DocumentNumber) > 9 {
			room -= len(m.DocumentNumber) - 9 + 2
		}
		if r.IntN(2) == 0 && room > 0 {
			m.OptionalData = word(alnums, 1, room)
		}
		if r.IntN(2) == 0 {
			m.OptionalData2 = word(alnums, 1, 11)
		}
	}
	return m
}

func randomZone(t testing.TB, r *rand.Rand, f Format) []string {
	t.Helper()
	lines, err := Encode(randomMRZ(r, f))
	if err != nil {
		t.Fatal(err)
	}
	return lines
}
