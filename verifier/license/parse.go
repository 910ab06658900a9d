package license

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxPayload bounds the input: a PDF417 symbol holds at most 1,850 text
// characters, so anything much larger is not a license barcode.
const MaxPayload = 8 << 10

// ParseAAMVA parses the text of a license barcode (or of its magnetic
// stripe, recognised by its "%" start sentinel). It repairs what real cards
// and transcriptions get wrong and records each repair in Warnings; it
// fails with ErrNotAAMVA only when nothing AAMVA-like is found. It never
// panics.
func ParseAAMVA(raw []byte) (License, error) {
	var l License
	if len(raw) > MaxPayload {
		return l, fmt.Errorf("parse aamva: %d bytes (max %d): %w", len(raw), MaxPayload, ErrNotAAMVA)
	}
	if isMagstripe(raw) {
		data, dropped := dropNonASCII(raw)
		if dropped > 0 {
			l.warn(WarnNonASCII, "%d non-ASCII bytes removed from the stripe tracks", dropped)
		}
		return parseMagstripe(data, l)
	}
	data := raw
	if n := countNonASCII(raw); n > 0 {
		l.warn(WarnNonASCII, "%d bytes outside ASCII: skipped inside element IDs, read as text in values", n)
	}
	h, err := parseHeader(data)
	switch {
	case errors.Is(err, errNoHeader):
		if err := parseHeaderless(data, &l); err != nil {
			return License{}, err
		}
	case err != nil:
		return License{}, fmt.Errorf("parse aamva: %w", err)
	default:
		l.Header = h.Header
		l.Warnings = append(l.Warnings, h.warnings...)
		if h.Version > MaxVersion {
			l.warn(WarnBadValue, "AAMVA version %d is newer than %d; read with version %d's elements", h.Version, MaxVersion, MaxVersion)
		}
		splitSubfiles(data, h, locateSubfiles(data, h), &l)
	}
	docFirst(&l)
	if len(l.Subfiles) == 0 || l.Subfiles[0].Type[0] == 'Z' {
		return License{}, fmt.Errorf("parse aamva: no DL or ID subfile: %w", ErrNotAAMVA)
	}
	l.DocumentType = l.Subfiles[0].Type
	if l.DocumentType != "DL" && l.DocumentType != "ID" {
		l.warn(WarnBadValue, "first subfile type %q, want DL or ID", l.DocumentType)
	}
	mapFields(&l)
	return l, nil
}

// docFirst moves the DL or ID subfile (else the first non-jurisdiction
// one) to the front, wherever it was in the data.
func docFirst(l *License) {
	best := -1
	for i, s := range l.Subfiles {
		if s.Type == "DL" || s.Type == "ID" {
			best = i
			break
		}
		if best < 0 && s.Type[0] != 'Z' {
			best = i
		}
	}
	if best > 0 {
		doc := l.Subfiles[best]
		copy(l.Subfiles[1:best+1], l.Subfiles[:best])
		l.Subfiles[0] = doc
	}
}

func countNonASCII(raw []byte) int {
	n := 0
	for _, c := range raw {
		if c >= 0x80 {
			n++
		}
	}
	return n
}

// dropNonASCII removes bytes outside 7-bit ASCII from magnetic-stripe
// data, whose track character sets have none.
func dropNonASCII(raw []byte) ([]byte, int) {
	n := countNonASCII(raw)
	if n == 0 {
		return raw, 0
	}
	out := make([]byte, 0, len(raw)-n)
	for _, c := range raw {
		if c < 0x80 {
			out = append(out, c)
		}
	}
	return out, n
}

// headerlessIDs are elements every version has: text that starts with one
// of them is read as a DL subfile whose header was lost.
var headerlessIDs = []string{"DAQ", "DCS", "DAA", "DCA", "DBB", "DAB"}

// parseHeaderless reads data without an AAMVA header as a lone DL subfile,
// if it starts (after an optional "DL") with a DL/ID element. The version,
// which decides the date order, is inferred from the name elements.
func parseHeaderless(data []byte, l *License) error {
	s := strings.TrimLeft(string(data), "@\n\r\x1e \t")
	typ := "DL"
	if strings.HasPrefix(s, "DL") || strings.HasPrefix(s, "ID") {
		typ, s = s[:2], s[2:]
	}
	ok := false
	for _, id := range headerlessIDs {
		ok = ok || strings.HasPrefix(s, id)
	}
	if !ok {
		return fmt.Errorf("parse aamva: no header and no DL/ID element at the start: %w", ErrNotAAMVA)
	}
	l.warn(WarnHeaderMissing, "no AAMVA header; read as one %s subfile", typ)
	l.Header.JurisdictionVersion = -1
	l.Header.Version = guessVersion(s)
	els := splitElements(s, typ, l.Header.Version, stdElementSeparator, l)
	l.Subfiles = append(l.Subfiles, Subfile{Type: typ, Elements: els, Raw: string(data)})
	return nil
}

// guessVersion infers the version of headerless data from its name
// elements: DAA is the 2000 full name, DCT the 2003/2005 given names, and
// DCS with DAC the 2009+ layout.
func guessVersion(s string) int {
	has := func(id string) bool {
		return strings.HasPrefix(s, id) || strings.Contains(s, "\n"+id) || strings.Contains(s, "\r"+id)
	}
	switch {
	case has("DCT"):
		return 3
	case has("DCS"):
		return MaxVersion
	default:
		return 1
	}
}

// isMagstripe reports whether data looks like magnetic-stripe track data
// ("%" track 1 sentinel with "^" field separators) rather than a barcode.
func isMagstripe(data []byte) bool {
	t := bytes.TrimLeft(data, " \r\n")
	return len(t) > 3 && t[0] == '%' && bytes.IndexByte(t, '^') > 0
}

// toText makes a value valid UTF-8: kept when it already is, else read as
// ISO-8859-1, the default character set of PDF417 byte mode, in which a
// jurisdiction would write an accented letter.
func toText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	r := make([]rune, len(s))
	for i := range len(s) {
		r[i] = rune(s[i])
	}
	return string(r)
}
