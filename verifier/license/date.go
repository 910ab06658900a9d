package license

import (
	"fmt"
	"strconv"
	"time"
)

// Date is a calendar date without a time of day or zone: what a license
// prints. The zero Date means "not on the card".
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf is the calendar date of t in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y, m, d}
}

// IsZero reports whether d is unset.
func (d Date) IsZero() bool { return d == Date{} }

// String is YYYY-MM-DD, or "" for the zero Date.
func (d Date) String() string {
	if d.IsZero() {
		return ""
	}
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// MarshalJSON writes "YYYY-MM-DD", or null for the zero Date.
func (d Date) MarshalJSON() ([]byte, error) {
	if d.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + d.String() + `"`), nil
}

// Before reports whether d is strictly earlier than o.
func (d Date) Before(o Date) bool {
	if d.Year != o.Year {
		return d.Year < o.Year
	}
	if d.Month != o.Month {
		return d.Month < o.Month
	}
	return d.Day < o.Day
}

// AddYears is the same day n years later. A 29 February that lands in a
// common year becomes 1 March (see AttainsAge for why).
func (d Date) AddYears(n int) Date {
	y := d.Year + n
	if d.Month == time.February && d.Day == 29 && !isLeap(y) {
		return Date{y, time.March, 1}
	}
	return Date{y, d.Month, d.Day}
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// valid reports whether the fields name a real calendar day in years
// 1000–9999 (the range an 8-digit AAMVA date can hold meaningfully).
func (d Date) valid() bool {
	return d.Year >= 1000 && d.Year <= 9999 && d.Month >= 1 && d.Month <= 12 &&
		d.Day >= 1 && d.Day <= daysIn(d.Year, d.Month)
}

// dateOrder is how the eight digits of an AAMVA date are laid out.
type dateOrder int

const (
	orderMDY dateOrder = iota // MMDDCCYY: US, versions 2+
	orderYMD                  // CCYYMMDD: Canada, and everyone in version 1
)

func (o dateOrder) String() string {
	if o == orderYMD {
		return "CCYYMMDD"
	}
	return "MMDDCCYY"
}

// parseDate8 reads an 8-digit date in the given order.
func parseDate8(s string, o dateOrder) (Date, bool) {
	if len(s) != 8 {
		return Date{}, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return Date{}, false
	}
	var d Date
	if o == orderYMD {
		d = Date{n / 10000, time.Month(n / 100 % 100), n % 100}
	} else {
		d = Date{n % 10000, time.Month(n / 1000000), n / 10000 % 100}
	}
	return d, d.valid()
}

// format8 writes d in the given order.
func (d Date) format8(o dateOrder) string {
	if o == orderYMD {
		return fmt.Sprintf("%04d%02d%02d", d.Year, int(d.Month), d.Day)
	}
	return fmt.Sprintf("%02d%02d%04d", int(d.Month), d.Day, d.Year)
}
