package license

import (
	"bytes"
	"slices"
	"sort"
	"strings"
)

// located is a subfile found in the data.
type located struct {
	Designator
	start    int // where the two-letter type (or, without it, the body) starts
	body     int // where the first element starts
	found    bool
	declared bool // start equals the designator's offset
}

// locateSubfiles finds each designated subfile. The designator's offset is
// tried first, then the offset shifted by however much the header deviates
// from the standard layout (lost separators move everything), then a search
// for the subfile type followed by an element. A first subfile that cannot
// be found is assumed to start right after the designators, untyped.
func locateSubfiles(data []byte, h parsedHeader) []located {
	std := 19 + 10*len(h.Designators)
	if h.JurisdictionVersion >= 0 {
		std += 2
	}
	delta := h.designatorsEnd - std
	out := make([]located, 0, len(h.Designators))
	from := h.designatorsEnd
	for i, d := range h.Designators {
		l := located{Designator: d}
		for _, c := range []int{d.Offset, d.Offset + delta, d.Offset - 1, d.Offset + 1, d.Offset + delta - 1, d.Offset + delta + 1} {
			if c >= h.designatorsEnd && subfileStartsAt(data, c, d.Type) {
				l.start, l.found, l.declared = c, true, c == d.Offset
				break
			}
		}
		if !l.found {
			if c := searchSubfile(data, from, d.Type); c >= 0 {
				l.start, l.found = c, true
			}
		}
		l.body = l.start + 2
		if !l.found && i == 0 && h.designatorsEnd < len(data) {
			l.start, l.body, l.found = h.designatorsEnd, h.designatorsEnd, true
		}
		if l.found {
			from = l.body
		}
		out = append(out, l)
	}
	return out
}

// subfileStartsAt reports whether a subfile of the type starts at p: the
// type, then an element ID, a separator or the end of the data.
func subfileStartsAt(data []byte, p int, typ string) bool {
	if p < 0 || p+2 > len(data) || string(data[p:p+2]) != typ {
		return false
	}
	rest := data[p+2:]
	return len(rest) == 0 || isSeparator(rest[0]) || isElementID(string(rest[:min(3, len(rest))]))
}

// searchSubfile finds the first start of a subfile of the type at or after
// from. A jurisdiction subfile must be followed by one of its own elements
// ("ZAZAA"), a DL/ID subfile by any element, so that the type's two letters
// inside a value are not mistaken for it.
func searchSubfile(data []byte, from int, typ string) int {
	for p := from; p >= 0 && p < len(data); {
		i := bytes.Index(data[p:], []byte(typ))
		if i < 0 {
			return -1
		}
		c := p + i
		if typ[0] == 'Z' {
			if c+4 <= len(data) && string(data[c+2:c+4]) == typ {
				return c
			}
		} else if subfileStartsAt(data, c, typ) {
			return c
		}
		p = c + 1
	}
	return -1
}

func isSeparator(c byte) bool { return c == '\n' || c == '\r' || c == '\x1e' }

// splitSubfiles cuts the data at the located starts and splits each body
// into elements, reporting every deviation from the designators.
func splitSubfiles(data []byte, h parsedHeader, locs []located, l *License) {
	found := make([]located, 0, len(locs))
	for _, lc := range locs {
		if !lc.found {
			l.warn(WarnSubfileMissing, "subfile %s (offset %d) not found", lc.Type, lc.Offset)
			continue
		}
		found = append(found, lc)
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].start < found[j].start })
	for i, lc := range found {
		end := len(data)
		if i+1 < len(found) {
			end = found[i+1].start
		}
		if lc.body > end {
			lc.body = end
		}
		if !lc.declared {
			l.warn(WarnSubfileOffset, "subfile %s found at %d, designator says %d", lc.Type, lc.start, lc.Offset)
		}
		if got := end - lc.start; got != lc.Length {
			l.warn(WarnSubfileLength, "subfile %s is %d bytes, designator says %d", lc.Type, got, lc.Length)
		}
		s := Subfile{Type: lc.Type, Start: lc.start, Raw: toText(string(data[lc.start:end]))}
		s.Elements = splitElements(string(data[lc.body:end]), lc.Type, h.Version, h.ElementSeparator, l)
		l.Subfiles = append(l.Subfiles, s)
	}
}

// splitElements splits a subfile body into elements on the element
// separator (and on CR and LF, whatever the header declared, since "\r\n"
// line ends are common). A body with no separators at all, as some
// transcriptions have, is cut at known element IDs instead.
func splitElements(body, typ string, version int, sep byte, l *License) []Element {
	isSep := func(r rune) bool { return r == rune(sep) || r == '\n' || r == '\r' || r == '\x1e' }
	pieces := strings.FieldsFunc(body, isSep)
	if len(pieces) == 1 && len(strings.TrimSpace(pieces[0])) > 3 {
		if els := scanElements(pieces[0], typ, version); len(els) > 1 {
			l.warn(WarnSeparatorsMissing, "subfile %s has no element separators; split at %d known element IDs", typ, len(els))
			nameElements(els, typ, version)
			return els
		}
	}
	var out []Element
	seen := map[string]bool{}
	for _, p := range pieces {
		if strings.TrimSpace(p) == "" {
			continue
		}
		id, value, ok := cutElement(p)
		if !ok {
			l.warn(WarnBadValue, "subfile %s: %q is not an element", typ, clip(toText(p)))
			continue
		}
		if seen[id] {
			l.warn(WarnDuplicateElement, "subfile %s: element %s repeated; first kept", typ, id)
		}
		seen[id] = true
		if typ[0] != 'Z' && !knownAnywhere(id) {
			l.warn(WarnUnknownElement, "subfile %s: unknown element %s", typ, id)
		}
		out = append(out, Element{ID: id, Value: value})
	}
	nameElements(out, typ, version)
	return out
}

// nameElements labels the elements of a DL/ID subfile with the standard's
// names, for people reading a parse.
func nameElements(els []Element, typ string, version int) {
	if typ[0] == 'Z' {
		return
	}
	for i := range els {
		els[i].Name = ElementName(els[i].ID, version)
	}
}

// cutElement splits "IDvalue". Bytes outside ASCII inside the ID are
// skipped as scanner noise; the value is made valid text.
func cutElement(p string) (id, value string, ok bool) {
	b := make([]byte, 0, 3)
	i := 0
	for ; i < len(p) && len(b) < 3; i++ {
		switch c := p[i]; {
		case c >= 0x80:
		case c >= 'A' && c <= 'Z':
			b = append(b, c)
		default:
			return "", "", false
		}
	}
	if len(b) < 3 {
		return "", "", false
	}
	return string(b), toText(strings.TrimSpace(p[i:])), true
}

// scanRare lists elements left out when cutting a body without separators:
// rarely used, and their IDs occur inside ordinary names (ADAM, DANIEL,
// DALE), so treating them as cut points would split names.
var scanRare = []string{"DAE", "DAF", "DAL", "DAM", "DAN", "DAO", "DAP", "DBE", "DBI", "DBJ", "DBK", "DBL", "DBM", "DBN", "DBO", "DBP", "DBQ", "DBR", "DBS", "PAA", "PAB", "PAC", "PAD", "PAE", "PAF"}

// scanElements cuts a separator-less body at element IDs: the known IDs of
// the version for a DL/ID subfile, the subfile's own "Zx?" IDs for a
// jurisdiction subfile. Each ID is taken once, so a value that happens to
// contain an ID already seen is not cut.
func scanElements(s, typ string, version int) []Element {
	isCut := func(id string, seen map[string]bool) bool {
		if seen[id] || !isElementID(id) {
			return false
		}
		if typ[0] == 'Z' {
			return id[:2] == typ
		}
		return knownElement(id, version) && !slices.Contains(scanRare, id)
	}
	seen := map[string]bool{}
	if len(s) < 3 || !isCut(s[:3], seen) {
		return nil
	}
	var out []Element
	for p := 0; p+3 <= len(s); {
		id := s[p : p+3]
		seen[id] = true
		q := p + 3
		for q+3 <= len(s) && !isCut(s[q:q+3], seen) {
			q++
		}
		if q+3 > len(s) {
			q = len(s)
		}
		out = append(out, Element{ID: id, Value: toText(strings.TrimSpace(s[p+3 : q]))})
		p = q
	}
	return out
}

func knownAnywhere(id string) bool {
	for _, d := range elementDefs {
		if d.ID == id {
			return true
		}
	}
	return false
}

// clip shortens a value for a warning message.
func clip(s string) string {
	if len(s) > 24 {
		return s[:24] + "…"
	}
	return s
}
