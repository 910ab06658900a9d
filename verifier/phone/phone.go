// Package phone is phone verification's domain: parsing and validating the
// number the end user enters (libphonenumber's rules, through
// github.com/nyaruka/phonenumbers), the one-time code (generated here,
// stored only hashed, compared in constant time), the line types the result
// reports, and the Provider port that delivers codes by SMS and looks
// numbers up, and TestProvider, which test verifications use whatever is
// configured (testmode.go: code 000000, magic numbers, nothing sent).
// Adapters: twilio (Twilio Verify + Lookup v2) and dev (writes the code to
// the log; refused outside dev).
package phone

import (
	"context"
	"errors"
)

// Number is a parsed, valid phone number.
type Number struct {
	// E164 is the number in E.164 form (+14155550123).
	E164 string `json:"e164"`
	// Region is the ISO 3166-1 alpha-2 region the number belongs to (US).
	Region string `json:"region"`
	// CC is the country calling code (1).
	CC int `json:"cc"`
	// AreaCode is phone_areacode: the national destination code (in the
	// North American plan the three-digit area code; elsewhere the area or
	// mobile network prefix), "" when the plan has none.
	AreaCode string `json:"area_code"`
	// Last3 is last_3_digits.
	Last3 string `json:"last3"`
	// Type is what the numbering plan alone says about the line (before
	// any carrier lookup): one of the LineType values, or "" when the plan
	// cannot tell (fixed line or mobile, as most North American numbers).
	Type LineType `json:"type,omitempty"`
}

// LineType is phone_verification.line_type. The values are the kinds of
// line carrier data distinguishes (Twilio Lookup's line type intelligence,
// in snake case); unknown when no source could tell.
type LineType string

// The line types.
const (
	LineMobile       LineType = "mobile"
	LineLandline     LineType = "landline"
	LineFixedVoIP    LineType = "fixed_voip"
	LineNonFixedVoIP LineType = "non_fixed_voip"
	LinePersonal     LineType = "personal"
	LineTollFree     LineType = "toll_free"
	LinePremium      LineType = "premium"
	LineSharedCost   LineType = "shared_cost"
	LineUAN          LineType = "uan"
	LineVoicemail    LineType = "voicemail"
	LinePager        LineType = "pager"
	LineUnknown      LineType = "unknown"
)

// LineTypes lists every LineType, for documentation and tests.
var LineTypes = []LineType{LineMobile, LineLandline, LineFixedVoIP, LineNonFixedVoIP, LinePersonal,
	LineTollFree, LinePremium, LineSharedCost, LineUAN, LineVoicemail, LinePager, LineUnknown}

// TakesSMS reports whether a line of type t can receive a code by SMS from
// a real person as far as we know: landlines, toll-free, premium,
// shared-cost, UAN, voicemail and pager numbers cannot; personal numbers
// (UK 070, "follow-me" numbers) forward to wherever their holder points
// them, are charged to the sender at a premium, and are a classic
// destination of SMS toll fraud, so they are refused too; unknown is given
// the benefit of the doubt (the provider refuses it if it cannot deliver).
func (t LineType) TakesSMS() bool {
	switch t {
	case LineLandline, LineTollFree, LinePremium, LineSharedCost, LineUAN, LineVoicemail, LinePager, LinePersonal:
		return false
	}
	return true
}

// Lookup is what carrier data says about a number: the result's line_type
// and lookup (caller_name, carrier_name; empty when the source has none).
type Lookup struct {
	LineType    LineType
	CallerName  string
	CarrierName string
}

// Provider delivers one-time codes by SMS and looks numbers up. The code
// is generated and checked here (NewCode, Code.Matches), never by the
// provider, so every provider is held to the same limits and the same
// constant-time comparison.
type Provider interface {
	// Name labels the provider in logs ("twilio", "dev").
	Name() string
	// Lookup is the carrier's data on n. ErrUnavailable when the source
	// cannot answer now.
	Lookup(ctx context.Context, n Number) (Lookup, error)
	// Send delivers code to n by SMS, in locale (en, es) where the provider
	// has it. ref names the delivery for Confirm. ErrUndeliverable when
	// the provider refuses the number for good, ErrUnavailable when it
	// cannot send now.
	Send(ctx context.Context, n Number, code, locale string) (ref string, err error)
	// Confirm tells the provider that the code it delivered under ref was
	// entered correctly (providers use it for delivery and fraud
	// statistics). Best effort: the verification does not depend on it.
	Confirm(ctx context.Context, ref string) error
}

// Errors of a Provider.
var (
	// ErrUnavailable: the provider cannot answer now (network, its own
	// rate limits, a 5xx); try again later.
	ErrUnavailable = errors.New("phone provider unavailable")
	// ErrUndeliverable: the provider will not deliver to this number
	// (not a valid number for it, a landline, a blocked prefix).
	ErrUndeliverable = errors.New("phone number cannot receive SMS")
)
