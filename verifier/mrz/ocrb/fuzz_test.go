package ocrb

import (
	"os"
	"testing"
)

// FuzzOutline: the CFF reader and the charstring interpreter never panic
// on a damaged font: the font's table with up to two bytes changed and cut
// short is parsed and every glyph run, or an error. (The fuzzer mutates the
// places and values, not the 10 kB table itself, which it would mutate
// slowly.)
func FuzzOutline(f *testing.F) {
	data, err := os.ReadFile(DebianPath)
	if err != nil {
		f.Fatal(err)
	}
	t, err := cffTable(data)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint16(0), byte(0), uint16(0), byte(0), uint16(0))
	f.Add(uint16(100), byte(0xff), uint16(2000), byte(12), uint16(0))
	f.Add(uint16(7), byte(12), uint16(9000), byte(10), uint16(5000))
	f.Fuzz(func(_ *testing.T, at1 uint16, b1 byte, at2 uint16, b2 byte, cut uint16) {
		table := append([]byte(nil), t...)
		table[int(at1)%len(table)] = b1
		table[int(at2)%len(table)] = b2
		table = table[:len(table)-int(cut)%len(table)]
		c, err := parseCFF(table)
		if err != nil {
			return
		}
		for g := range c.charStrings {
			_, _ = c.outline(g)
		}
	})
}
