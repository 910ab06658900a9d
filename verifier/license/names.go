package license

import (
	"strings"
)

// mapNames fills the name fields. Versions 4+ carry DCS/DAC/DAD; versions 2
// and 3 carry DCS plus DCT, the given names separated by commas; version 1
// and pre-standard cards carry DAA, "LAST,FIRST,MIDDLE,SUFFIX", optionally
// with DAB/DAC/DAD/DAE beside it. Separate elements win over DAA's parts.
// Several middle names, which the standard separates with commas, are
// joined with spaces.
func mapNames(l *License, get func(string) string) {
	l.LastName = firstNonEmpty(get("DCS"), get("DAB"))
	l.FirstNames = get("DAC")
	l.MiddleNames = noneToEmpty(get("DAD"))
	l.NameSuffix = firstNonEmpty(get("DCU"), get("DAE"))
	if dct := get("DCT"); dct != "" && l.FirstNames == "" {
		parts := splitName(dct, ",")
		l.FirstNames = parts[0]
		if l.MiddleNames == "" {
			l.MiddleNames = strings.Join(parts[1:], " ")
		}
	}
	if daa := get("DAA"); daa != "" {
		last, given, middle, suffix := splitFullName(l, daa)
		l.LastName = firstNonEmpty(l.LastName, last)
		l.FirstNames = firstNonEmpty(l.FirstNames, given)
		l.MiddleNames = firstNonEmpty(l.MiddleNames, middle)
		l.NameSuffix = firstNonEmpty(l.NameSuffix, suffix)
	}
	l.MiddleNames = strings.Join(splitName(l.MiddleNames, ","), " ")
	l.Truncation = Truncation{Family: get("DDE"), First: get("DDF"), Middle: get("DDG")}
	if l.LastName == "" {
		l.warn(WarnMissingValue, "no family name (DCS, DAB or DAA)")
	}
}

// splitFullName splits a DAA full name. The barcode uses "," between the
// parts (the magnetic stripe "$"); a name with neither is split on spaces
// in the standard's LAST FIRST MIDDLE order, with a warning since some
// issuers print it FIRST MIDDLE LAST.
func splitFullName(l *License, s string) (last, given, middle, suffix string) {
	var parts []string
	switch {
	case strings.Contains(s, ","):
		parts = splitName(s, ",")
	case strings.Contains(s, "$"):
		parts = splitName(s, "$")
	default:
		parts = strings.Fields(s)
		if len(parts) > 1 {
			l.warn(WarnNameAmbiguous, "full name %q has no separators; read as LAST FIRST MIDDLE", clip(s))
			parts = []string{parts[0], parts[1], strings.Join(parts[2:], " ")}
		}
	}
	at := func(i int) string {
		if i < len(parts) {
			return parts[i]
		}
		return ""
	}
	return at(0), at(1), at(2), at(3)
}

// splitName splits on sep and trims each part, keeping empty inner parts
// (",," means an empty middle name) but dropping empty trailing ones.
func splitName(s, sep string) []string {
	parts := strings.Split(s, sep)
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	for len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// noneToEmpty maps the standard's "NONE" filler of a mandatory element
// without data to "".
func noneToEmpty(s string) string {
	if strings.EqualFold(s, "NONE") {
		return ""
	}
	return s
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
