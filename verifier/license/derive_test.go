package license

import (
	"testing"
	"time"
)

func day(y int, m time.Month, d int) Date { return Date{y, m, d} }

// at is noon on the day in UTC: the injected clock.
func at(d Date) time.Time { return time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC) }

func TestAgeEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name           string
		dob, today     Date
		age            int
		over18, over21 bool
	}{
		{"day before 18th birthday", day(2000, 6, 15), day(2018, 6, 14), 17, false, false},
		{"18th birthday", day(2000, 6, 15), day(2018, 6, 15), 18, true, false},
		{"day before 21st birthday", day(2000, 6, 15), day(2021, 6, 14), 20, true, false},
		{"21st birthday", day(2000, 6, 15), day(2021, 6, 15), 21, true, true},
		{"31 December birth, 1 January", day(2000, 12, 31), day(2019, 1, 1), 18, true, false},
		{"29 Feb birth, 28 Feb of common 18th year", day(2004, 2, 29), day(2022, 2, 28), 17, false, false},
		{"29 Feb birth, 1 Mar of common 18th year", day(2004, 2, 29), day(2022, 3, 1), 18, true, false},
		{"29 Feb birth, 28 Feb of common 21st year", day(2004, 2, 29), day(2025, 2, 28), 20, true, false},
		{"29 Feb birth, 1 Mar of common 21st year", day(2004, 2, 29), day(2025, 3, 1), 21, true, true},
		{"1 Mar 2003 birth, on leap day 2024", day(2003, 3, 1), day(2024, 2, 29), 20, true, false},
		{"29 Feb birth reaching 20 on leap day", day(2004, 2, 29), day(2024, 2, 29), 20, true, false},
		{"29 Feb 2000 birth, 18 in common 2018 on 1 Mar", day(2000, 2, 29), day(2018, 3, 1), 18, true, false},
		{"born today", day(2024, 5, 1), day(2024, 5, 1), 0, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := License{DOB: tc.dob, ExpiryDate: day(2100, 1, 1)}.Check(at(tc.today))
			if c.Age != tc.age || c.Over18 != tc.over18 || c.Over21 != tc.over21 {
				t.Errorf("age %d over18 %v over21 %v, want %d %v %v", c.Age, c.Over18, c.Over21, tc.age, tc.over18, tc.over21)
			}
			if AgeOn(tc.dob, tc.today) != tc.age {
				t.Errorf("AgeOn = %d", AgeOn(tc.dob, tc.today))
			}
		})
	}
}

func TestExpiryEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name    string
		l       License
		today   Date
		expired bool
		warning WarningCode
	}{
		{"valid through the expiry date", License{ExpiryDate: day(2024, 5, 1)}, day(2024, 5, 1), false, ""},
		{"expired the day after", License{ExpiryDate: day(2024, 5, 1)}, day(2024, 5, 2), true, ""},
		{"no expiry date counts as expired", License{}, day(2024, 5, 2), true, WarnMissingValue},
		{"non-expiring stripe", License{NonExpiring: true}, day(2024, 5, 2), false, ""},
		{"expiry 29 Feb, 1 Mar", License{ExpiryDate: day(2024, 2, 29)}, day(2024, 3, 1), true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.l.DOB = day(1980, 1, 1)
			c := tc.l.Check(at(tc.today))
			if c.Expired != tc.expired {
				t.Errorf("expired %v, want %v", c.Expired, tc.expired)
			}
			if got := hasWarning(c.Warnings, tc.warning); tc.warning != "" && !got || tc.warning == "" && len(c.Warnings) > 0 {
				t.Errorf("warnings %+v, want %q", c.Warnings, tc.warning)
			}
		})
	}
}

// TestCheckUsesTheClockZone: the calendar day is the clock's, so the same
// instant can be a birthday in UTC and the day before in UTC-5.
func TestCheckUsesTheClockZone(t *testing.T) {
	l := License{DOB: day(2000, 6, 15), ExpiryDate: day(2030, 1, 1)}
	instant := time.Date(2021, 6, 15, 2, 0, 0, 0, time.UTC)
	if !l.Check(instant).Over21 {
		t.Error("UTC: not over 21 on the birthday")
	}
	if l.Check(instant.In(time.FixedZone("EST", -5*3600))).Over21 {
		t.Error("UTC-5: over 21 on the day before the birthday")
	}
}

func TestCheckConsistencyWarnings(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    License
		want int // number of inconsistent_dates warnings
	}{
		{"consistent", License{DOB: day(1990, 1, 1), IssueDate: day(2020, 1, 1), ExpiryDate: day(2028, 1, 1), Under21Until: day(2011, 1, 1)}, 0},
		{"issued before birth", License{DOB: day(1990, 1, 1), IssueDate: day(1989, 1, 1), ExpiryDate: day(2028, 1, 1)}, 1},
		{"expires before issue", License{DOB: day(1990, 1, 1), IssueDate: day(2020, 1, 1), ExpiryDate: day(2019, 1, 1)}, 1},
		{"issued in the future", License{DOB: day(1990, 1, 1), IssueDate: day(2030, 1, 1), ExpiryDate: day(2038, 1, 1)}, 1},
		{"born in the future", License{DOB: day(2030, 1, 1), ExpiryDate: day(2038, 1, 1)}, 1},
		{"under-21 date contradicts birth date", License{DOB: day(1990, 1, 1), ExpiryDate: day(2028, 1, 1), Under21Until: day(2011, 1, 2), Under18Until: day(2008, 1, 1)}, 1},
		{"leap-day birth: issuer's under-21 date is 1 March", License{DOB: day(2004, 2, 29), ExpiryDate: day(2028, 1, 1), Under21Until: day(2025, 3, 1)}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.l.Check(at(day(2024, 6, 1)))
			n := 0
			for _, w := range c.Warnings {
				if w.Code == WarnInconsistentDates {
					n++
				}
			}
			if n != tc.want {
				t.Errorf("%d inconsistent_dates warnings, want %d: %+v", n, tc.want, c.Warnings)
			}
		})
	}
}

func TestCheckWithoutBirthDate(t *testing.T) {
	c := License{ExpiryDate: day(2030, 1, 1)}.Check(at(day(2024, 1, 1)))
	if c.Age != -1 || c.Over18 || c.Over21 || !hasWarning(c.Warnings, WarnMissingValue) {
		t.Errorf("%+v", c)
	}
}
