package license

import (
	"fmt"
	"strings"
)

// Encode writes l as the barcode payload of an AAMVA version (0 to 10;
// others are clamped): the header with LF/RS/CR separators, a DL or ID
// subfile with the elements that version defines, in the standard's
// order, and l's jurisdiction-specific subfiles unchanged. Mandatory
// elements without a value are written as the standard says: "NONE" for
// codes and middle name, 9 for sex, UNK for eye colour, U (unknown) for
// truncation flags; a missing date is
// left out. The IIN is the one of l.IssuingJurisdiction, else l.Header.IIN.
func Encode(l License, version int) []byte {
	v := min(max(version, 0), MaxVersion)
	iin, ok := IINFor(l.IssuingJurisdiction)
	if !ok {
		iin = l.Header.IIN
	}
	country := l.Country
	if country == "" {
		country = Jurisdictions[iin].Country
	}
	typ := l.DocumentType
	if typ != "ID" {
		typ = "DL"
	}
	subfiles := []string{typ + strings.Join(encodeElements(l, v, typ, country), "\n") + "\r"}
	types := []string{typ}
	for _, s := range l.Subfiles {
		if len(s.Type) != 2 || s.Type[0] != 'Z' {
			continue
		}
		els := make([]string, len(s.Elements))
		for i, e := range s.Elements {
			els[i] = e.ID + e.Value
		}
		subfiles = append(subfiles, s.Type+strings.Join(els, "\n")+"\r")
		types = append(types, s.Type)
	}

	var b strings.Builder
	b.WriteString("@\n\x1e\r")
	if v == 0 {
		b.WriteString("AAMVA")
	} else {
		b.WriteString("ANSI ")
	}
	fmt.Fprintf(&b, "%6.6s%02d", iin, v)
	if v >= 2 {
		fmt.Fprintf(&b, "%02d", max(l.Header.JurisdictionVersion, 0)%100)
	}
	fmt.Fprintf(&b, "%02d", len(subfiles))
	off := headerLen(v) + 10*len(subfiles)
	for i, s := range subfiles {
		fmt.Fprintf(&b, "%s%04d%04d", types[i], off, len(s))
		off += len(s)
	}
	for _, s := range subfiles {
		b.WriteString(s)
	}
	return []byte(b.String())
}

// encodeElements lists "IDvalue" strings for the DL/ID subfile.
func encodeElements(l License, v int, typ, country string) []string {
	order := orderMDY
	if v <= 1 || country == "CAN" {
		order = orderYMD
	}
	var out []string
	add := func(id, value string) {
		if value != "" {
			out = append(out, id+value)
		}
	}
	orNone := func(s string) string { return firstNonEmpty(s, "NONE") }
	dt := func(d Date) string {
		if d.IsZero() {
			return ""
		}
		return d.format8(order)
	}
	sex := map[Sex]string{SexMale: "1", SexFemale: "2"}[l.Sex]
	if sex == "" {
		sex = "9"
	}
	middle := strings.ReplaceAll(l.MiddleNames, " ", ",")
	if v <= 1 {
		add("DAQ", l.DocumentNumber)
		add("DAA", strings.TrimRight(strings.Join([]string{l.LastName, l.FirstNames, middle, l.NameSuffix}, ","), ","))
		add("DAB", l.LastName)
		add("DAC", l.FirstNames)
		add("DAD", middle)
		add("DAE", l.NameSuffix)
		add("DAG", l.Address.Line1)
		add("DAH", l.Address.Line2)
		add("DAI", l.Address.City)
		add("DAJ", l.Address.Jurisdiction)
		add("DAK", postalElement(l.Address.PostalCode, false))
		if typ == "DL" {
			add("DAR", l.VehicleClass)
			add("DAS", l.Restrictions)
			add("DAT", l.Endorsements)
		}
		switch l.Height.Unit {
		case "in":
			add("DAU", fmt.Sprintf("%d%02d", l.Height.Value/12, l.Height.Value%12))
		case "cm":
			add("DAV", fmt.Sprintf("%03d", l.Height.Value))
		}
		addWeight(add, l.Weight)
		add("DAY", l.EyeColor)
		add("DAZ", l.HairColor)
		add("DBA", dt(l.ExpiryDate))
		add("DBB", dt(l.DOB))
		add("DBC", sex)
		add("DBD", dt(l.IssueDate))
		return out
	}
	if typ == "DL" {
		add("DCA", orNone(l.VehicleClass))
		add("DCB", orNone(l.Restrictions))
		add("DCD", orNone(l.Endorsements))
	}
	add("DBA", dt(l.ExpiryDate))
	add("DCS", l.LastName)
	if v <= 3 {
		add("DCT", strings.Trim(l.FirstNames+","+middle, ","))
	} else {
		add("DAC", l.FirstNames)
		add("DAD", orNone(middle))
	}
	add("DBD", dt(l.IssueDate))
	add("DBB", dt(l.DOB))
	add("DBC", sex)
	add("DAY", firstNonEmpty(l.EyeColor, "UNK"))
	if l.Height.Unit != "" {
		add("DAU", fmt.Sprintf("%03d %s", l.Height.Value, l.Height.Unit))
	}
	add("DAG", l.Address.Line1)
	add("DAI", l.Address.City)
	add("DAJ", l.Address.Jurisdiction)
	add("DAK", postalElement(l.Address.PostalCode, true))
	add("DAQ", l.DocumentNumber)
	add("DCF", orNone(l.DocumentDiscriminator))
	add("DCG", firstNonEmpty(country, "USA"))
	if v >= 4 {
		add("DDE", firstNonEmpty(l.Truncation.Family, "U"))
		add("DDF", firstNonEmpty(l.Truncation.First, "U"))
		add("DDG", firstNonEmpty(l.Truncation.Middle, "U"))
	}
	add("DAH", l.Address.Line2)
	add("DAZ", l.HairColor)
	add("DCU", l.NameSuffix)
	addWeight(add, l.Weight)
	if v >= 4 {
		add("DDA", l.ComplianceType)
		add("DDH", dt(l.Under18Until))
		add("DDI", dt(l.Under19Until))
		add("DDJ", dt(l.Under21Until))
	}
	return out
}

func addWeight(add func(id, value string), w Measure) {
	switch w.Unit {
	case "lb":
		add("DAW", fmt.Sprintf("%03d", w.Value))
	case "kg":
		add("DAX", fmt.Sprintf("%03d", w.Value))
	}
}

// postalElement writes a postal code as DAK holds it: US ZIP as nine
// digits (a missing extension as 0000), Canadian without the space, padded
// to the fixed eleven characters from version 2 on.
func postalElement(p string, pad bool) string {
	compact := strings.NewReplacer("-", "", " ", "").Replace(p)
	if allDigits(compact) && len(compact) == 5 {
		compact += "0000"
	}
	if pad && compact != "" {
		return fmt.Sprintf("%-11s", compact)
	}
	return compact
}
