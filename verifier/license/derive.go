package license

import (
	"fmt"
	"time"
)

// Checks are the values derived from a License on one day.
type Checks struct {
	// Age in completed years; -1 when the license has no birth date.
	Age     int  `json:"age"`
	Over18  bool `json:"over_18"`
	Over21  bool `json:"over_21"`
	Expired bool `json:"license_expired"`
	// Warnings report dates that contradict each other or the day.
	Warnings []Warning `json:"warnings,omitempty"`
}

// AttainsAge is the first day on which a person born on dob is the given
// age: the anniversary of the birth date. For a 29 February birth date the
// anniversary in a common year is 1 March: the person has not completed
// the year before the day after 28 February. US law has no single rule
// (some states use 28 February), but 1 March is the convention of
// age-restricted sales and never admits anyone a day early.
func AttainsAge(dob Date, years int) Date { return dob.AddYears(years) }

// AgeOn is the age in completed years of a person born on dob, on day.
func AgeOn(dob, day Date) int {
	age := day.Year - dob.Year
	if day.Before(AttainsAge(dob, age)) {
		age--
	}
	return age
}

// Check derives the age and expiry checks for the calendar day of now in
// now's location (the clock is injected; pass it in the zone the check is
// made for). The rules:
//
//   - over_18 / over_21: on or after the day AttainsAge gives. No birth
//     date means false.
//   - license_expired: the license is valid through its expiry date and
//     expired from the day after. No expiry date (other than a stripe
//     marked non-expiring) counts as expired.
//
// The issuer's own "under 18/19/21 until" dates, the issue date and the
// day itself are cross-checked, and each contradiction is a warning; the
// birth date stays authoritative.
func (l License) Check(now time.Time) Checks {
	today := DateOf(now)
	c := Checks{Age: -1}
	warn := func(format string, args ...any) {
		c.Warnings = append(c.Warnings, Warning{Code: WarnInconsistentDates, Detail: fmt.Sprintf(format, args...)})
	}
	if l.DOB.IsZero() {
		c.Warnings = append(c.Warnings, Warning{Code: WarnMissingValue, Detail: "no birth date: over_18 and over_21 are false"})
	} else {
		c.Age = AgeOn(l.DOB, today)
		c.Over18 = !today.Before(AttainsAge(l.DOB, 18))
		c.Over21 = !today.Before(AttainsAge(l.DOB, 21))
		if today.Before(l.DOB) {
			warn("birth date %s is after today %s", l.DOB, today)
		}
		for _, u := range []struct {
			name  string
			years int
			until Date
		}{{"under_18_until", 18, l.Under18Until}, {"under_19_until", 19, l.Under19Until}, {"under_21_until", 21, l.Under21Until}} {
			if want := AttainsAge(l.DOB, u.years); !u.until.IsZero() && u.until != want {
				warn("%s %s differs from the birth date's %s", u.name, u.until, want)
			}
		}
	}
	switch {
	case l.NonExpiring:
	case l.ExpiryDate.IsZero():
		c.Expired = true
		c.Warnings = append(c.Warnings, Warning{Code: WarnMissingValue, Detail: "no expiry date: counted as expired"})
	default:
		c.Expired = l.ExpiryDate.Before(today)
	}
	if !l.IssueDate.IsZero() {
		if today.Before(l.IssueDate) {
			warn("issue date %s is after today %s", l.IssueDate, today)
		}
		if !l.DOB.IsZero() && l.IssueDate.Before(l.DOB) {
			warn("issue date %s is before the birth date %s", l.IssueDate, l.DOB)
		}
		if !l.ExpiryDate.IsZero() && l.ExpiryDate.Before(l.IssueDate) {
			warn("expiry date %s is before the issue date %s", l.ExpiryDate, l.IssueDate)
		}
	}
	return c
}
