package twilio

import (
	"context"
	"errors"
	"fmt"

	"github.com/idgate/idgate/verifier/address"
	"github.com/idgate/idgate/verifier/phone"
)

// identityResponse is the part of Lookup v2's answer Identity Match fills.
type identityResponse struct {
	Valid         bool `json:"valid"`
	IdentityMatch *struct {
		FirstName    string `json:"first_name_match"`
		LastName     string `json:"last_name_match"`
		AddressLines string `json:"address_lines_match"`
		City         string `json:"city_match"`
		State        string `json:"state_match"`
		PostalCode   string `json:"postal_code_match"`
		ErrorCode    *int   `json:"error_code"`
	} `json:"identity_match"`
}

// MatchSubscriber implements address.SubscriberMatcher with Lookup v2's
// Identity Match: the license's name and address go to Twilio as query
// parameters (FirstName, LastName, AddressLine1/2, City, State, PostalCode,
// AddressCountryCode) and come back as a match level per field. The
// summary_score is not read: the rule (address.SubscriberMatch.Names) is
// written over the fields it needs. An identity_match carrying an
// error_code (the number's country not covered, the package not enabled
// on the account) is ErrNotCovered. Twilio bills each answer without an
// error code; the URL, which carries the name and address, is never in an
// error.
func (c *Client) MatchSubscriber(ctx context.Context, e164 string, q address.Query) (address.SubscriberMatch, error) {
	params := map[string]string{"Fields": "identity_match"}
	for k, v := range map[string]string{"FirstName": q.FirstNames, "LastName": q.LastName, "AddressLine1": q.Line1,
		"AddressLine2": q.Line2, "City": q.City, "State": q.State, "PostalCode": q.PostalCode, "AddressCountryCode": alpha2(q)} {
		if v != "" {
			params[k] = v
		}
	}
	var out identityResponse
	resp, err := c.lookup.R().SetContext(ctx).
		SetPathParam("number", e164).
		SetQueryParams(params).
		SetResult(&out).SetError(&apiError{}).
		Get("/v2/PhoneNumbers/{number}")
	if err != nil || resp.IsError() {
		err := fail("identity match", resp, err)
		if errors.Is(err, phone.ErrUndeliverable) {
			return address.SubscriberMatch{}, fmt.Errorf("%w: %w", address.ErrNotCovered, err)
		}
		return address.SubscriberMatch{}, fmt.Errorf("%w: %w", address.ErrUnavailable, err)
	}
	im := out.IdentityMatch
	switch {
	case !out.Valid:
		return address.SubscriberMatch{}, fmt.Errorf("twilio identity match: number not valid: %w", address.ErrNotCovered)
	case im == nil:
		return address.SubscriberMatch{}, fmt.Errorf("twilio identity match: no identity_match in the answer: %w", address.ErrUnavailable)
	case im.ErrorCode != nil && *im.ErrorCode != 0:
		return address.SubscriberMatch{}, fmt.Errorf("twilio identity match: error code %d: %w", *im.ErrorCode, address.ErrNotCovered)
	}
	return address.SubscriberMatch{FirstName: level(im.FirstName), LastName: level(im.LastName),
		AddressLine: level(im.AddressLines), City: level(im.City), State: level(im.State), PostalCode: level(im.PostalCode)}, nil
}

// level maps Identity Match's level names; a name Twilio adds later, or
// none, is no data (never counted as a match or a mismatch).
func level(s string) address.Level {
	switch s {
	case "exact_match":
		return address.LevelExact
	case "high_partial_match":
		return address.LevelHighPartial
	case "partial_match":
		return address.LevelPartial
	case "no_match":
		return address.LevelNoMatch
	}
	return address.LevelNoData
}

// alpha2 is AddressCountryCode: the license's country in ISO 3166 alpha-2
// (Twilio takes at most two characters), "" when unknown.
func alpha2(q address.Query) string {
	switch {
	case q.US():
		return "US"
	case q.Country == "CAN":
		return "CA"
	}
	return ""
}
