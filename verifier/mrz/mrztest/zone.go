package mrztest

import (
	"math/rand/v2"
	"slices"

	"github.com/idgate/idgate/verifier/mrz"
)

// Zone draws a random valid zone of the format: names of 1-3 words,
// document numbers of letters and digits, real dates, issuing state and
// nationality real codes (mrz.Codes, Utopia's aside), optional data.
func Zone(r *rand.Rand, f mrz.Format) []string {
	const letters, alnums = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	word := func(set string, lo, hi int) string {
		b := make([]byte, lo+r.IntN(hi-lo+1))
		for i := range b {
			b[i] = set[r.IntN(len(set))]
		}
		return string(b)
	}
	date := func() mrz.Date { return mrz.Date{Year: r.IntN(100), Month: 1 + r.IntN(12), Day: 1 + r.IntN(28)} }
	// Real codes, but not Utopia's: a zone of UTO is a specimen, which the
	// flow refuses as not genuine. A code is picked by three random letters,
	// the draws that made up a code before codes had to be real, so every
	// other field of the zones the tests and benches draw stays as it was.
	codes := slices.DeleteFunc(mrz.Codes(), func(c string) bool { return c == "UTO" })
	code := func() string {
		w := word(letters, 3, 3)
		return codes[(int(w[0]-'A')*26*26+int(w[1]-'A')*26+int(w[2]-'A'))%len(codes)]
	}
	m := mrz.MRZ{Format: f, DocumentCode: "P", IssuingState: code(), Nationality: code(),
		Surname: word(letters, 3, 10), GivenNames: word(letters, 3, 8), BirthDate: date(),
		Sex: []string{"M", "F", "X", ""}[r.IntN(4)], ExpiryDate: date(), DocumentNumber: word(alnums, 8, 9)}
	if r.IntN(2) == 0 {
		m.GivenNames += " " + word(letters, 2, 7)
	}
	if f == mrz.TD1 {
		m.DocumentCode = []string{"I", "ID", "AC", "C"}[r.IntN(4)]
		if r.IntN(2) == 0 {
			m.OptionalData2 = word(alnums, 1, 11)
		}
	} else if r.IntN(2) == 0 {
		m.OptionalData = word(alnums, 1, 14)
	}
	lines, err := mrz.Encode(m)
	if err != nil {
		panic(err) // the fields above always fit
	}
	return lines
}
