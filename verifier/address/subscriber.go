package address

import "context"

// Names at the address from a phone subscriber's record.
//
// Address providers that only check deliverability (Lob) cannot say who is
// on record at an address. A phone number can: its carrier (and the data
// sources behind Twilio Lookup's Identity Match) holds a subscriber record
// with a name and a billing or service address. When the end user proved
// in this verification that they hold a number (the phone step's code),
// the record of that number's subscriber is asked whether it carries the
// license's names at the license's address:
//
//   - name_at_address true: the subscriber of the verified number is on
//     record under the license's first and last name at the license's
//     address. It proves that a person of that name is on record at that
//     address in the subscriber data; it does not prove that the license
//     holder lives there today (records lag moves) and says nothing of
//     other sources.
//   - last_name_at_address true: the subscriber record at the address has
//     the license's last name but another first name: typically a family
//     plan held by a household member.
//   - both false: the subscriber record answers, and is not the license's
//     name at the license's address (a record at another address, another
//     name, a work phone, a prepaid line in another name). A negative
//     answer is no proof of fraud.
//   - null (Result.NamesChecked false): no number was verified, the
//     source has no data for a field the rule needs, or it could not
//     answer.

// Level is how closely one field of the query matched the record.
type Level string

// The levels, strongest first. LevelNoData: the record lacks the field (or
// the source did not say).
const (
	LevelExact       Level = "exact"
	LevelHighPartial Level = "high_partial"
	LevelPartial     Level = "partial"
	LevelNoMatch     Level = "no_match"
	LevelNoData      Level = "no_data"
)

// SubscriberMatch is the level of each field of a Query against the
// record of a number's subscriber.
type SubscriberMatch struct {
	FirstName, LastName, AddressLine, City, State, PostalCode Level
}

// SubscriberMatcher is the port of the names at the address when the
// address provider matches none: a source of subscriber records of phone
// numbers (twilio: Lookup v2's Identity Match; dev: fixed rules).
type SubscriberMatcher interface {
	// Name labels the source in logs ("twilio", "dev").
	Name() string
	// MatchSubscriber compares q with the record of the subscriber of
	// e164, a number the end user verified. ErrNotCovered when the
	// source has no records for the number (its country, the package not
	// enabled); ErrUnavailable when it cannot answer now.
	MatchSubscriber(ctx context.Context, e164 string, q Query) (SubscriberMatch, error)
}

// truth is a three-valued (Kleene) truth: a field the record lacks is
// unknown, neither a match nor a mismatch.
type truth int8

const (
	unknown truth = iota
	yes
	no
)

// matched: exact and high partial (a typo, a nickname, an abbreviated
// street suffix) count as a match; partial and no match do not; no data
// is unknown.
func (l Level) matched() truth {
	switch l {
	case LevelExact, LevelHighPartial:
		return yes
	case LevelPartial, LevelNoMatch:
		return no
	}
	return unknown
}

func all(ts ...truth) truth {
	out := yes
	for _, t := range ts {
		if t == no {
			return no
		}
		if t == unknown {
			out = unknown
		}
	}
	return out
}

func either(a, b truth) truth {
	switch {
	case a == yes || b == yes:
		return yes
	case a == unknown || b == unknown:
		return unknown
	}
	return no
}

func not(t truth) truth {
	switch t {
	case yes:
		return no
	case no:
		return yes
	}
	return unknown
}

// Names applies the rule. The record is at the license's address when the
// street line matches and so does the ZIP code, or else both the city and
// the state (a street line alone names a house in many towns). Then
//
//	full     = at address ∧ first name ∧ last name
//	lastOnly = at address ∧ last name ∧ ¬ first name
//
// in three-valued logic, so a definite mismatch anywhere decides even when
// other fields lack data. ok is false when either answer stays unknown:
// both are then null, never a guess.
func (m SubscriberMatch) Names() (full, lastOnly, ok bool) {
	at := all(m.AddressLine.matched(), either(m.PostalCode.matched(), all(m.City.matched(), m.State.matched())))
	first, last := m.FirstName.matched(), m.LastName.matched()
	f, l := all(at, first, last), all(at, last, not(first))
	if f == unknown || l == unknown {
		return false, false, false
	}
	return f == yes, l == yes, true
}
