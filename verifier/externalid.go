package verifier

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxExternalIDLen bounds external_id, in characters: room for a UUID, an
// order number or a hex SHA-256 with a prefix.
const MaxExternalIDLen = 128

var (
	emailLike = regexp.MustCompile(`[^@\s]+@[^@\s]+\.[^@\s]+`)
	// phoneChars: digits with the separators people write phone numbers
	// with; the digit count and the separators are checked separately.
	phoneChars = regexp.MustCompile(`^\+?[0-9 ().-]+$`)
)

// checkExternalID applies the rule docs/decisions.md documents: external_id is a
// caller reference (UUID, order number, hash), so it is refused when it
// looks like personal data:
//   - an e-mail address: something@something.tld anywhere in it;
//   - a phone number: only digits and + ( ) . - space, 7 to 15 digits, and
//     either a leading + or at least one separator (a bare run of digits is
//     allowed: order numbers look like that);
//   - a name: only letters, spaces, apostrophes, hyphens and periods, with
//     at least two words ("Jane Doe", "mary-ann o'neil").
//
// It must also be 1 to MaxExternalIDLen characters of UTF-8 without control
// characters.
func checkExternalID(fe *fieldErrors, id string) {
	const field = "external_id"
	n := utf8.RuneCountInString(id)
	switch {
	case !utf8.ValidString(id) || strings.IndexFunc(id, unicode.IsControl) >= 0:
		fe.add(field, "invalid_value", "must be printable UTF-8")
	case n < 1 || n > MaxExternalIDLen:
		fe.add(field, "out_of_range", "must be 1 to %d characters", MaxExternalIDLen)
	case emailLike.MatchString(id):
		fe.add(field, "looks_like_personal_data", "looks like an e-mail address; use a reference such as an order number or UUID")
	case looksLikePhone(id):
		fe.add(field, "looks_like_personal_data", "looks like a phone number; use a reference such as an order number or UUID")
	case looksLikeName(id):
		fe.add(field, "looks_like_personal_data", "looks like a person's name; use a reference such as an order number or UUID")
	}
}

func looksLikePhone(s string) bool {
	if !phoneChars.MatchString(s) {
		return false
	}
	digits := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	separated := strings.HasPrefix(s, "+") || strings.ContainsAny(s, " ().-")
	return digits >= 7 && digits <= 15 && separated
}

func looksLikeName(s string) bool {
	words := strings.Fields(s)
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		letters := 0
		for _, r := range w {
			switch {
			case unicode.IsLetter(r):
				letters++
			case r == '\'' || r == '-' || r == '.' || r == '’':
			default:
				return false
			}
		}
		if letters == 0 {
			return false
		}
	}
	return true
}
