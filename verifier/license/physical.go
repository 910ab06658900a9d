package license

import (
	"math"
	"strconv"
	"strings"
)

// parseHeight reads DAU, or the version 1 DAV (centimetres). DAU is
// "NNN in" or "NNN cm" from version 2 on; version 1 wrote feet and inches
// as three unit-less digits ("510" is 5'10"). A unit-less value is read by
// what it can be: a leading zero means inches ("069"), a valid F'II a
// feet-and-inches value, 100 or more centimetres, else inches.
func parseHeight(l *License, dau, dav string) Measure {
	if dau == "" {
		if dav == "" {
			return Measure{}
		}
		if n, err := strconv.Atoi(strings.TrimSpace(dav)); err == nil && n > 0 {
			return Measure{n, "cm"}
		}
		l.warn(WarnBadValue, "DAV height %q is not a number", clip(dav))
		return Measure{}
	}
	num, unit := splitNumber(strings.ToLower(dau))
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 {
		l.warn(WarnBadValue, "DAU height %q is not a number", clip(dau))
		return Measure{}
	}
	switch unit {
	case "in", "inches", "\"":
		return Measure{n, "in"}
	case "cm":
		return Measure{n, "cm"}
	case "":
		switch {
		case num[0] == '0':
			return Measure{n, "in"}
		case len(num) == 3 && n%100 < 12:
			return Measure{n/100*12 + n%100, "in"}
		case n >= 100:
			return Measure{n, "cm"}
		}
		return Measure{n, "in"}
	}
	l.warn(WarnBadValue, "DAU height unit %q is neither in nor cm", clip(unit))
	return Measure{}
}

// parseWeight reads DAW (pounds) or DAX (kilograms).
func parseWeight(l *License, daw, dax string) Measure {
	for _, w := range []struct{ id, v, unit string }{{"DAW", daw, "lb"}, {"DAX", dax, "kg"}} {
		if w.v == "" {
			continue
		}
		num, _ := splitNumber(w.v)
		if n, err := strconv.Atoi(num); err == nil && n > 0 {
			return Measure{n, w.unit}
		}
		l.warn(WarnBadValue, "%s weight %q is not a number", w.id, clip(w.v))
	}
	return Measure{}
}

// splitNumber splits "069 in" into "069" and "in".
func splitNumber(s string) (string, string) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i], strings.TrimSpace(s[i:])
}

// Centimetres is the height in whole centimetres, 0 when unknown.
func (m Measure) Centimetres() int {
	switch m.Unit {
	case "cm":
		return m.Value
	case "in":
		return int(math.Round(float64(m.Value) * 2.54))
	}
	return 0
}

// Kilograms is the weight in whole kilograms, 0 when unknown.
func (m Measure) Kilograms() int {
	switch m.Unit {
	case "kg":
		return m.Value
	case "lb":
		return int(math.Round(float64(m.Value) * 0.45359237))
	}
	return 0
}
