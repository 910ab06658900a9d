package phone

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// Errors of Parse.
var (
	// ErrInvalidNumber: the text is not a valid phone number of the region
	// (or of the country its + prefix names).
	ErrInvalidNumber = errors.New("not a valid phone number")
	// ErrInvalidRegion: the region is not an ISO 3166-1 alpha-2 code the
	// numbering data knows.
	ErrInvalidRegion = errors.New("unknown phone region")
)

// DefaultRegion is the region of a number entered without a + prefix when
// none is named: the licenses read are North American.
const DefaultRegion = "US"

// MaxInput bounds the text Parse reads: the longest E.164 number is 15
// digits, so 40 characters leave room for spaces, dashes and brackets.
const MaxInput = 40

// Parse reads a phone number as an end user types it ("(415) 555-0123",
// "+44 7700 900123"), in region unless it starts with + (empty region:
// DefaultRegion), and checks that it is a valid number under the
// numbering plan, not only a possible one. Never panics (fuzzed).
func Parse(raw, region string) (Number, error) {
	raw = strings.TrimSpace(raw)
	if region == "" {
		region = DefaultRegion
	}
	region = strings.ToUpper(region)
	if len(region) != 2 || !phonenumbers.GetSupportedRegions()[region] {
		return Number{}, fmt.Errorf("parse phone: region %q: %w", region, ErrInvalidRegion)
	}
	if raw == "" || len(raw) > MaxInput {
		return Number{}, fmt.Errorf("parse phone: %w", ErrInvalidNumber)
	}
	for _, r := range raw {
		if !strings.ContainsRune("0123456789+-.() \u00a0/", r) {
			// Letters (vanity numbers, "ext."), control characters and
			// other scripts' digits are refused: the number must be
			// typed as digits.
			return Number{}, fmt.Errorf("parse phone: %w", ErrInvalidNumber)
		}
	}
	pn, err := phonenumbers.Parse(raw, region)
	if err != nil || !phonenumbers.IsValidNumber(pn) {
		return Number{}, fmt.Errorf("parse phone: %w", ErrInvalidNumber)
	}
	nsn := phonenumbers.GetNationalSignificantNumber(pn)
	if len(nsn) < 3 {
		return Number{}, fmt.Errorf("parse phone: %w", ErrInvalidNumber)
	}
	n := Number{
		E164:   phonenumbers.Format(pn, phonenumbers.E164),
		Region: phonenumbers.GetRegionCodeForNumber(pn),
		CC:     int(pn.GetCountryCode()),
		Last3:  nsn[len(nsn)-3:],
		Type:   planType(phonenumbers.GetNumberType(pn)),
	}
	if l := phonenumbers.GetLengthOfNationalDestinationCode(pn); l > 0 && l < len(nsn) {
		n.AreaCode = nsn[:l]
	}
	return n, nil
}

// planType is what the numbering plan's type says about the line; "" when
// it cannot tell (FIXED_LINE_OR_MOBILE, VOIP of either kind, UNKNOWN).
func planType(t phonenumbers.PhoneNumberType) LineType {
	switch t {
	case phonenumbers.FIXED_LINE:
		return LineLandline
	case phonenumbers.MOBILE:
		return LineMobile
	case phonenumbers.TOLL_FREE:
		return LineTollFree
	case phonenumbers.PREMIUM_RATE:
		return LinePremium
	case phonenumbers.SHARED_COST:
		return LineSharedCost
	case phonenumbers.PERSONAL_NUMBER:
		return LinePersonal
	case phonenumbers.PAGER:
		return LinePager
	case phonenumbers.UAN:
		return LineUAN
	case phonenumbers.VOICEMAIL:
		return LineVoicemail
	}
	return ""
}

// nonGeographic is libphonenumber's region of the country codes that belong
// to no country: satellite services (+870, +881), international networks
// (+882, +883), the global toll-free and premium ranges (+800, +808, +979).
const nonGeographic = "001"

// TakesSMS: the number can be sent a code. Besides its line type
// (LineType.TakesSMS), a number under a non-geographic country code is
// refused whatever its plan calls it: sending there costs several times a
// national SMS, the ranges are the usual targets of SMS pumping (toll
// fraud through a verification form), and the people who verify with a
// driver's license have a national mobile number.
func (n Number) TakesSMS() bool {
	return n.Region != nonGeographic && n.Type.TakesSMS()
}

// Masked is the number as the page may show it: the country code and the
// last three digits ("+1 ••• 123"), so the end user recognises it.
func (n Number) Masked() string {
	return fmt.Sprintf("+%d ••• %s", n.CC, n.Last3)
}
