package reader

import (
	"fmt"
	"strings"

	"github.com/idgate/idgate/verifier/mrz"
)

// UnsureNames is a zone that read but for some cells of its names field
// (no check digit covers names): every other cell sure or settled by the
// check digits, and each unclear name cell's character and runner-up
// standing the zone's least margin above every third character, so the
// printed letter is one of the two. A second, independent reading of the
// names (the data page's visual zone: verifier/engines) may settle which
// (Settle); nothing else may. Reader errors wrap it (errors.As) around
// the error the zone's reading answers without it.
type UnsureNames struct {
	// Zone is the zone so read.
	Zone *Zone
	// Format is the zone's format.
	Format mrz.Format
	// lines is the zone as read, the check digits holding (the names
	// field as the reader ranked its cells first); candidates, per cell of
	// the names field, the letters it may be: one where the cell is sure,
	// two where it is not.
	lines      []string
	candidates [][]byte
	err        error
}

func (u *UnsureNames) Error() string { return u.err.Error() }
func (u *UnsureNames) Unwrap() error { return u.err }

// Unclear is how many cells of the names field are unclear.
func (u *UnsureNames) Unclear() int {
	n := 0
	for _, c := range u.candidates {
		if len(c) > 1 {
			n++
		}
	}
	return n
}

// Settle answers the zone with its names field as field, a second reading
// of the names as the zone prints them (mrz.NameFields), when field
// agrees with this one in every cell: a sure cell's letter, or one of an
// unclear cell's two. A cell on which the two readings disagree is
// ErrUnsure: never a guess.
func (u *UnsureNames) Settle(field string) (*mrz.MRZ, error) {
	line, start, n := mrz.NameField(u.Format)
	if len(field) != n || len(u.candidates) != n {
		return nil, fmt.Errorf("mrz reader: a names field of %d characters, want %d: %w", len(field), n, ErrUnsure)
	}
	for i, cands := range u.candidates {
		if !agrees(cands, field[i]) {
			return nil, fmt.Errorf("mrz reader: the names' second reading has %q in cell %d, the zone %q: %w", field[i], i, cands, ErrUnsure)
		}
	}
	lines := append([]string(nil), u.lines...)
	lines[line] = lines[line][:start] + field + lines[line][start+n:]
	return mrz.Parse(strings.Join(lines, "\n"))
}

// agrees: c is one of cands, a digit standing for its look-alike letter
// (a name holds no digit: Parse reads a '0' there as 'O').
func agrees(cands []byte, c byte) bool {
	for _, k := range cands {
		if k == c || k >= '0' && k <= '9' && mrz.Twin(k) == c {
			return true
		}
	}
	return false
}
