package license

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// MagstripeFileType marks a License read from magnetic-stripe tracks.
const MagstripeFileType = "magstripe"

// parseMagstripe reads the three AAMVA magnetic-stripe tracks:
//
//	track 1  %SSCITY^LAST$FIRST$MIDDLE^ADDRESS^?
//	track 2  ;IIN(6)DLNUMBER=YYMMCCYYMMDD[overflow]=?
//	track 3  sentinel, versions(2), postal(11), class(2), restrictions(10),
//	         endorsements(4), sex(1), height(3), weight(3), hair(3), eyes(3) …?
//
// Track 2 is numeric only, so the document number is reported as encoded
// (jurisdictions map letters to digits by their own schemes).
func parseMagstripe(data []byte, l License) (License, error) {
	l.Header = Header{FileType: MagstripeFileType, JurisdictionVersion: -1}
	l.DocumentType = "DL"
	s := strings.TrimLeft(string(data), " \r\n")
	t1, rest, _ := strings.Cut(s[1:], "?")
	parseTrack1(&l, t1)
	if i := strings.IndexByte(rest, ';'); i >= 0 {
		t2, after, _ := strings.Cut(rest[i+1:], "?")
		parseTrack2(&l, t2)
		rest = after
	} else {
		l.warn(WarnMissingValue, "no track 2 (document number, dates)")
	}
	parseTrack3(&l, strings.TrimRight(strings.TrimSpace(rest), "?"))
	if j, ok := Jurisdictions[l.Header.IIN]; ok {
		l.IssuingJurisdiction, l.Country = j.Code, j.Country
	} else {
		l.IssuingJurisdiction = l.Address.Jurisdiction
		if l.Header.IIN != "" {
			l.warn(WarnUnknownIIN, "IIN %s belongs to no known jurisdiction", l.Header.IIN)
		}
	}
	l.Address.PostalCode = normalizePostal(l.Address.PostalCode, l.Country)
	if l.LastName == "" && l.DocumentNumber == "" {
		return License{}, fmt.Errorf("parse magstripe: neither name nor number: %w", ErrNotAAMVA)
	}
	return l, nil
}

func parseTrack1(l *License, t string) {
	if len(t) < 2 {
		l.warn(WarnMissingValue, "track 1 too short")
		return
	}
	l.Address.Jurisdiction = t[:2]
	f := strings.Split(t[2:], "^")
	at := func(i int) string {
		if i < len(f) {
			return strings.TrimSpace(f[i])
		}
		return ""
	}
	l.Address.City, l.Address.Line1 = at(0), at(2)
	l.LastName, l.FirstNames, l.MiddleNames, l.NameSuffix = splitFullName(l, at(1))
}

func parseTrack2(l *License, t string) {
	iin, rest, ok := strings.Cut(t, "=")
	if !ok || len(iin) < 7 {
		l.warn(WarnBadValue, "track 2 %q has no IIN and number", clip(t))
		return
	}
	l.Header.IIN, l.DocumentNumber = iin[:6], iin[6:]
	rest = strings.TrimRight(rest, "=")
	if len(rest) < 12 {
		l.warn(WarnBadValue, "track 2 dates %q too short", clip(rest))
		return
	}
	l.DocumentNumber += rest[12:] // the number's overflow digits
	exp, dob := rest[:4], rest[4:12]
	// Some issuers swap the expiry code (77/88/99) into the birth month.
	if m := dob[4:6]; (m == "77" || m == "88" || m == "99") && exp[2:] <= "12" {
		l.warn(WarnDateFormat, "track 2 expiry month %s and birth month %s swapped", exp[2:], m)
		exp, dob = exp[:2]+m, dob[:4]+exp[2:]+dob[6:]
	}
	var ok2 bool
	if l.DOB, ok2 = parseDate8(dob, orderYMD); !ok2 {
		l.warn(WarnBadValue, "track 2 birth date %q is not CCYYMMDD", dob)
	}
	l.ExpiryDate, l.NonExpiring = magstripeExpiry(l, exp)
}

// magstripeExpiry reads YYMM: month 77 never expires, 88 expires at the end
// of the birth month in year YY, 99 on the birthday in year YY; an ordinary
// month is read as its last day, since the stripe gives no day.
func magstripeExpiry(l *License, s string) (Date, bool) {
	yy, err1 := strconv.Atoi(s[:2])
	mm, err2 := strconv.Atoi(s[2:])
	if err1 != nil || err2 != nil {
		l.warn(WarnBadValue, "track 2 expiry %q is not YYMM", s)
		return Date{}, false
	}
	y := 2000 + yy
	switch {
	case mm == 77:
		return Date{}, true
	case (mm == 88 || mm == 99) && !l.DOB.IsZero():
		if mm == 99 {
			return l.DOB.AddYears(y - l.DOB.Year), false
		}
		return Date{y, l.DOB.Month, daysIn(y, l.DOB.Month)}, false
	case mm >= 1 && mm <= 12:
		return Date{y, time.Month(mm), daysIn(y, time.Month(mm))}, false
	}
	l.warn(WarnBadValue, "track 2 expiry %q has no valid month", s)
	return Date{}, false
}

func parseTrack3(l *License, t string) {
	if len(t) < 43 {
		if t != "" {
			l.warn(WarnBadValue, "track 3 is %d characters, want at least 43", len(t))
		}
		return
	}
	field := func(from, to int) string { return strings.TrimSpace(t[from:to]) }
	l.Address.PostalCode = field(3, 14)
	l.VehicleClass, l.Restrictions, l.Endorsements = field(14, 16), field(16, 26), field(26, 30)
	l.Sex = parseSex(l, field(30, 31))
	l.Height = parseHeight(l, field(31, 34), "")
	l.Weight = parseWeight(l, field(34, 37), "")
	l.HairColor, l.EyeColor = field(37, 40), field(40, 43)
}
