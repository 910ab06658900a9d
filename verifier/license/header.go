package license

import (
	"bytes"
	"errors"
	"fmt"
)

// The separators the standard prescribes in the header.
const (
	stdElementSeparator  = '\n'   // LF
	stdRecordSeparator   = '\x1e' // RS
	stdSegmentTerminator = '\r'   // CR
)

// headerLen is the length of a standard header before the designators:
// "@", three separators, the five-byte file type, IIN, version, the
// jurisdiction version (versions 2 and later) and the entry count.
func headerLen(version int) int {
	if version >= 2 {
		return 21
	}
	return 19
}

// File types: "ANSI " from the 2000 standard on; "AAMVA" before it. "AMVA"
// appears on pre-standard cards whose separators were lost.
var fileTypes = [][]byte{[]byte("AAMVA"), []byte("ANSI"), []byte("AMVA")}

// headerSearchWindow bounds where the file type may start: a few bytes of
// leading noise are tolerated, a header buried deeper is not a header.
const headerSearchWindow = 24

var errNoHeader = errors.New("no AAMVA header")

// parsedHeader is a Header plus where the designators end in the data and
// how far the header's layout deviates from the standard one.
type parsedHeader struct {
	Header
	designatorsEnd int
	standard       bool // every byte where the standard puts it
	warnings       []Warning
}

func (p *parsedHeader) warn(code WarningCode, format string, args ...any) {
	p.warnings = append(p.warnings, Warning{Code: code, Detail: fmt.Sprintf(format, args...)})
}

// findFileType returns the position and length of the file type marker.
func findFileType(data []byte) (int, int) {
	window := data[:min(len(data), headerSearchWindow)]
	best, bestLen := -1, 0
	for _, ft := range fileTypes {
		if i := bytes.Index(window, ft); i >= 0 && (best < 0 || i < best) {
			best, bestLen = i, len(ft)
		}
	}
	return best, bestLen
}

// parseHeader reads the header at the start of data. It tolerates a missing
// or garbled compliance indicator and separators (reported as warnings) but
// needs the file type, the IIN and the version.
func parseHeader(data []byte) (parsedHeader, error) {
	var h parsedHeader
	h.JurisdictionVersion = -1
	ft, ftLen := findFileType(data)
	if ft < 0 {
		return h, errNoHeader
	}
	h.standard = true
	h.ElementSeparator, h.RecordSeparator, h.SegmentTerminator = stdElementSeparator, stdRecordSeparator, stdSegmentTerminator
	at := bytes.LastIndexByte(data[:ft], '@')
	switch {
	case at < 0:
		h.standard = false
		h.warn(WarnHeaderGarbled, "no compliance indicator '@' before the file type")
	case ft-at-1 != 3:
		h.Compliance = true
		h.standard = false
		h.warn(WarnHeaderGarbled, "%d bytes between '@' and the file type, want 3 separators", ft-at-1)
	default:
		h.Compliance = true
		h.ElementSeparator, h.RecordSeparator, h.SegmentTerminator = data[at+1], data[at+2], data[at+3]
		if h.ElementSeparator != stdElementSeparator || h.RecordSeparator != stdRecordSeparator || h.SegmentTerminator != stdSegmentTerminator {
			h.warn(WarnHeaderGarbled, "header separators %q, want %q", data[at+1:at+4], "\n\x1e\r")
		}
	}
	if at > 0 {
		h.standard = false
		h.warn(WarnHeaderGarbled, "%d bytes before the compliance indicator", at)
	}
	p := ft + ftLen
	if p < len(data) && data[p] == ' ' && ftLen < 5 {
		p++
	}
	h.FileType = string(data[ft:p])
	if h.FileType != "ANSI " && h.FileType != "AAMVA" {
		h.standard = false
	}
	iin, ok := digits(data, p, 6)
	if !ok {
		return h, fmt.Errorf("%w: no six-digit IIN after the file type", errNoHeader)
	}
	h.IIN = fmt.Sprintf("%06d", iin)
	if h.Version, ok = digits(data, p+6, 2); !ok {
		return h, fmt.Errorf("%w: no two-digit version after the IIN", errNoHeader)
	}
	p += 8
	// Versions 2+ carry a jurisdiction version before the entry count,
	// 0 and 1 do not. Some cards get this wrong, so the other layout is
	// tried when the expected one does not lead to valid designators.
	layouts := []bool{h.Version >= 2, h.Version < 2}
	for i, withJV := range layouts {
		q, jv := p, -1
		if withJV {
			if jv, ok = digits(data, q, 2); !ok {
				continue
			}
			q += 2
		}
		n, ok := digits(data, q, 2)
		if !ok || n < 1 {
			continue
		}
		ds, end, ok := designators(data, q+2, n)
		if !ok {
			continue
		}
		if i > 0 {
			h.standard = false
			h.warn(WarnHeaderGarbled, "version %d header laid out like another version's (jurisdiction version present: %v)", h.Version, withJV)
		}
		h.JurisdictionVersion, h.Entries, h.Designators, h.designatorsEnd = jv, n, ds, end
		return h, nil
	}
	h.standard = false
	h.designatorsEnd = p
	h.warn(WarnHeaderGarbled, "no valid entry count and subfile designators after the version")
	return h, nil
}

// designators reads n ten-byte subfile designators at p.
func designators(data []byte, p, n int) ([]Designator, int, bool) {
	ds := make([]Designator, 0, n)
	for range n {
		if p+10 > len(data) || !isUpperAlnum(data[p]) || !isUpperAlnum(data[p+1]) {
			return nil, 0, false
		}
		off, ok1 := digits(data, p+2, 4)
		length, ok2 := digits(data, p+6, 4)
		if !ok1 || !ok2 {
			return nil, 0, false
		}
		ds = append(ds, Designator{Type: string(data[p : p+2]), Offset: off, Length: length})
		p += 10
	}
	return ds, p, true
}

// digits reads n ASCII digits at p.
func digits(data []byte, p, n int) (int, bool) {
	if p < 0 || p+n > len(data) {
		return 0, false
	}
	v := 0
	for _, c := range data[p : p+n] {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

func isUpperAlnum(c byte) bool { return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
