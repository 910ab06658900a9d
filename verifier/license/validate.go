package license

import (
	"fmt"
	"sort"
)

// Tolerances of ValidateStructure, from what issued cards do. Offsets: some
// issuers count from 1, or leave the compliance indicator out. Lengths: some
// leave the segment terminator out, or end the file with CR LF, or add one.
const (
	offsetTolerance = 1
	lengthTolerance = 2
)

// ValidateStructure is the strict check the barcode decoder applies to a
// decoded payload before trusting it: a compliance indicator and three
// control-character separators at the very start, the "ANSI " (or
// pre-standard "AAMVA") file type, an IIN of a known jurisdiction, an AAMVA
// version from 0 to 10, and subfile designators whose offsets and lengths
// match the data within the tolerances above, the first one a DL or ID
// subfile. A misread almost never passes all of these.
func ValidateStructure(raw []byte) error {
	if len(raw) > MaxPayload {
		return fmt.Errorf("validate aamva: %d bytes (max %d): %w", len(raw), MaxPayload, ErrNotAAMVA)
	}
	if len(raw) < 4 || raw[0] != '@' || raw[1] >= 0x20 || raw[2] >= 0x20 || raw[3] >= 0x20 {
		return fmt.Errorf("validate aamva: no '@' and three separators at the start: %w", ErrNotAAMVA)
	}
	h, err := parseHeader(raw)
	if err != nil {
		return fmt.Errorf("validate aamva: %v: %w", err, ErrNotAAMVA)
	}
	if h.FileType != "ANSI " && h.FileType != "AAMVA" {
		return fmt.Errorf("validate aamva: file type %q: %w", h.FileType, ErrNotAAMVA)
	}
	if ft, _ := findFileType(raw); ft != 4 {
		return fmt.Errorf("validate aamva: file type at %d, want 4: %w", ft, ErrNotAAMVA)
	}
	if _, ok := Jurisdictions[h.IIN]; !ok {
		return fmt.Errorf("validate aamva: IIN %s: %w", h.IIN, ErrUnknownIIN)
	}
	if h.Version < 0 || h.Version > MaxVersion {
		return fmt.Errorf("validate aamva: version %d: %w", h.Version, ErrUnsupportedVersion)
	}
	if len(h.Designators) == 0 {
		return fmt.Errorf("validate aamva: no subfile designators: %w", ErrNotAAMVA)
	}
	if t := h.Designators[0].Type; t != "DL" && t != "ID" {
		return fmt.Errorf("validate aamva: first subfile %q, want DL or ID: %w", t, ErrBadSubfile)
	}
	starts := make([]int, len(h.Designators))
	for i, d := range h.Designators {
		s, ok := designatedStart(raw, h.designatorsEnd, d)
		if !ok {
			return fmt.Errorf("validate aamva: subfile %s not at offset %d: %w", d.Type, d.Offset, ErrBadSubfile)
		}
		starts[i] = s
	}
	ends := subfileEnds(starts, len(raw))
	for i, d := range h.Designators {
		if got := ends[i] - starts[i]; got < d.Length-lengthTolerance || got > d.Length+lengthTolerance {
			return fmt.Errorf("validate aamva: subfile %s is %d bytes, designator says %d: %w", d.Type, got, d.Length, ErrBadSubfile)
		}
	}
	return nil
}

// designatedStart finds the subfile at its designated offset, within the
// offset tolerance, and after the header.
func designatedStart(raw []byte, headerEnd int, d Designator) (int, bool) {
	for delta := 0; delta <= offsetTolerance; delta++ {
		for _, c := range []int{d.Offset + delta, d.Offset - delta} {
			if c >= headerEnd && subfileStartsAt(raw, c, d.Type) {
				return c, true
			}
		}
	}
	return 0, false
}

// subfileEnds gives each subfile's end: the next subfile's start in data
// order, or the end of the data.
func subfileEnds(starts []int, n int) []int {
	order := make([]int, len(starts))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return starts[order[a]] < starts[order[b]] })
	ends := make([]int, len(starts))
	for k, i := range order {
		ends[i] = n
		if k+1 < len(order) {
			ends[i] = starts[order[k+1]]
		}
	}
	return ends
}
