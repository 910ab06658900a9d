package license

import (
	"strings"
)

// mapFields fills the typed fields of l from its DL/ID subfile's elements.
func mapFields(l *License) {
	sub := l.Subfiles[0]
	get := func(id string) string { v, _ := sub.Get(id); return v }
	v := l.Header.Version

	j, knownIIN := Jurisdictions[l.Header.IIN]
	l.Country = strings.ToUpper(get("DCG"))
	if l.Country == "" {
		l.Country = j.Country
	}
	if knownIIN {
		l.IssuingJurisdiction = j.Code
	} else {
		l.IssuingJurisdiction = strings.ToUpper(get("DAJ"))
		if l.Header.IIN != "" {
			l.warn(WarnUnknownIIN, "IIN %s belongs to no known jurisdiction", l.Header.IIN)
		}
	}

	mapNames(l, get)

	order := orderMDY
	if v <= 1 || l.Country == "CAN" {
		order = orderYMD
	}
	date := func(id string) Date { return parseDateElement(l, id, get(id), order) }
	l.DOB, l.IssueDate, l.ExpiryDate = date("DBB"), date("DBD"), date("DBA")
	l.Under18Until, l.Under19Until, l.Under21Until = date("DDH"), date("DDI"), date("DDJ")

	l.Sex = parseSex(l, get("DBC"))
	l.Height = parseHeight(l, get("DAU"), get("DAV"))
	l.Weight = parseWeight(l, get("DAW"), get("DAX"))
	l.EyeColor, l.HairColor = strings.ToUpper(get("DAY")), strings.ToUpper(get("DAZ"))

	if get("DAG") != "" || get("DAL") == "" {
		l.Address = Address{Line1: get("DAG"), Line2: get("DAH"), City: get("DAI"), Jurisdiction: get("DAJ"), PostalCode: get("DAK")}
	} else {
		l.Address = Address{Line1: get("DAL"), Line2: get("DAM"), City: get("DAN"), Jurisdiction: get("DAO"), PostalCode: get("DAP")}
	}
	l.Address.Jurisdiction = strings.ToUpper(l.Address.Jurisdiction)
	l.Address.PostalCode = normalizePostal(l.Address.PostalCode, l.Country)

	l.DocumentNumber = get("DAQ")
	l.DocumentDiscriminator = noneToEmpty(get("DCF"))
	l.VehicleClass = firstNonEmpty(get("DCA"), get("DAR"))
	l.Restrictions = firstNonEmpty(get("DCB"), get("DAS"))
	l.Endorsements = firstNonEmpty(get("DCD"), get("DAT"))
	l.ComplianceType = strings.ToUpper(get("DDA"))
	l.OrganDonor = get("DDK") == "1" || strings.EqualFold(get("DBH"), "Y")
	l.Veteran = get("DDL") == "1"

	if l.DocumentNumber == "" {
		l.warn(WarnMissingValue, "no document number (DAQ)")
	}
	if knownIIN && l.Address.Jurisdiction != "" && l.Address.Jurisdiction != j.Code {
		l.warn(WarnMismatch, "address jurisdiction %s differs from the issuer %s (IIN %s)", l.Address.Jurisdiction, j.Code, l.Header.IIN)
	}
}

// parseDateElement reads an 8-digit date in the expected order; a date
// valid only in the other order is taken with a warning (jurisdictions
// have mixed the US and Canadian orders up).
func parseDateElement(l *License, id, s string, o dateOrder) Date {
	if s == "" {
		return Date{}
	}
	if d, ok := parseDate8(s, o); ok {
		return d
	}
	other := orderYMD
	if o == orderYMD {
		other = orderMDY
	}
	if d, ok := parseDate8(s, other); ok {
		l.warn(WarnDateFormat, "%s %q is not %s; read as %s", id, s, o, other)
		return d
	}
	l.warn(WarnBadValue, "%s %q is not a date", id, clip(s))
	return Date{}
}

func parseSex(l *License, s string) Sex {
	switch strings.ToUpper(s) {
	case "":
		return ""
	case "1", "M":
		return SexMale
	case "2", "F":
		return SexFemale
	case "9", "X", "U":
		return SexUnspecified
	}
	l.warn(WarnBadValue, "DBC sex %q is not 1, 2 or 9", clip(s))
	return ""
}

// normalizePostal formats a postal code: US ZIP or ZIP+4 (a "0000" or
// missing extension dropped), Canadian "A1A 1A1", anything else trimmed.
func normalizePostal(s, country string) string {
	compact := strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, strings.ToUpper(s))
	switch {
	case len(compact) == 6 && isCanadianPostal(compact):
		return compact[:3] + " " + compact[3:]
	case country != "CAN" && allDigits(compact) && (len(compact) == 5 || len(compact) == 9):
		if len(compact) == 5 || compact[5:] == "0000" {
			return compact[:5]
		}
		return compact[:5] + "-" + compact[5:]
	}
	return strings.TrimSpace(s)
}

func isCanadianPostal(s string) bool {
	for i := range 6 {
		letter := s[i] >= 'A' && s[i] <= 'Z'
		digit := s[i] >= '0' && s[i] <= '9'
		if i%2 == 0 && !letter || i%2 == 1 && !digit {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
