// Package twilio is a phone.Provider on Twilio: Verify v2 delivers the
// code by SMS (our own code, through the Verification's CustomCode, so
// the flow keeps its hashed codes, attempts and constant-time check) and
// Lookup v2 gives the line type, carrier and caller name.
//
// The Verify service must have custom verification codes enabled (Twilio
// enables them on request). The auth token is only ever in the
// Authorization header: never logged, never in an error.
package twilio

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/go-resty/resty/v2"

	"github.com/idgate/idgate/verifier/phone"
)

// The APIs' hosts.
const (
	DefaultVerifyURL = "https://verify.twilio.com"
	DefaultLookupURL = "https://lookups.twilio.com"
)

// DefaultTimeout bounds one call: the end user waits for it.
const DefaultTimeout = 10 * time.Second

// maxResponseBytes caps a response: Twilio's are a few KB.
const maxResponseBytes = 1 << 20

// Config configures a Client. AccountSID, AuthToken and VerifyServiceSID
// are required.
type Config struct {
	// AccountSID (AC…) and AuthToken, or an API key SID (SK…) and its
	// secret: HTTP basic authentication either way.
	AccountSID, AuthToken string
	// VerifyServiceSID is the Verify service (VA…) that sends the codes.
	VerifyServiceSID string
	// VerifyURL and LookupURL override the hosts (tests point them at the
	// test double).
	VerifyURL, LookupURL string
	Timeout              time.Duration
	// Transport is the HTTP transport; nil is http.DefaultTransport.
	Transport http.RoundTripper
}

var (
	accountSID = regexp.MustCompile(`^(AC|SK)[0-9a-fA-F]{32}$`)
	serviceSID = regexp.MustCompile(`^VA[0-9a-fA-F]{32}$`)
	verifySID  = regexp.MustCompile(`^VE[0-9a-fA-F]{32}$`)
)

// Client is the Twilio provider; safe for concurrent use.
type Client struct {
	cfg            Config
	verify, lookup *resty.Client
}

// New checks cfg and returns a Client.
func New(cfg Config) (*Client, error) {
	if !accountSID.MatchString(cfg.AccountSID) {
		return nil, errors.New("twilio: the account SID must be AC or SK followed by 32 hex digits")
	}
	if cfg.AuthToken == "" {
		return nil, errors.New("twilio: the auth token is empty")
	}
	if !serviceSID.MatchString(cfg.VerifyServiceSID) {
		return nil, errors.New("twilio: the Verify service SID must be VA followed by 32 hex digits")
	}
	if cfg.VerifyURL == "" {
		cfg.VerifyURL = DefaultVerifyURL
	}
	if cfg.LookupURL == "" {
		cfg.LookupURL = DefaultLookupURL
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	c := &Client{cfg: cfg}
	var err error
	if c.verify, err = c.rest(cfg.VerifyURL); err != nil {
		return nil, err
	}
	if c.lookup, err = c.rest(cfg.LookupURL); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Client) rest(base string) (*resty.Client, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("twilio: %q is not an absolute http(s) URL", base)
	}
	r := resty.New().
		SetBaseURL(strings.TrimSuffix(base, "/")).
		SetTimeout(c.cfg.Timeout).
		SetResponseBodyLimit(maxResponseBytes).
		SetBasicAuth(c.cfg.AccountSID, c.cfg.AuthToken).
		SetHeader("Accept", "application/json").
		SetRedirectPolicy(resty.NoRedirectPolicy()).
		SetLogger(discard{})
	if c.cfg.Transport != nil {
		r.SetTransport(c.cfg.Transport)
	}
	return r, nil
}

// Name is "twilio".
func (c *Client) Name() string { return "twilio" }

// apiError is Twilio's error body.
type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Status  int    `json:"status"`
}

// undeliverable are Twilio's error codes that refuse the number itself
// (https://www.twilio.com/docs/api/errors): invalid To (21211, 60200),
// not a mobile number (21614), SMS not supported by a landline (60205),
// a blocked prefix or country (60410, 60220, 60605).
var undeliverable = map[int]bool{21211: true, 21614: true, 60200: true, 60205: true, 60410: true, 60220: true, 60605: true}

// fail classifies a failed call: ErrUndeliverable for a refusal of the
// number, ErrUnavailable for the rest (network, 429, 5xx, rate limits
// such as 60203 max send attempts). The message names the operation and
// Twilio's code, never a header or the number.
func fail(op string, resp *resty.Response, err error) error {
	if err != nil {
		return fmt.Errorf("twilio %s: %w: %w", op, phone.ErrUnavailable, scrub(err))
	}
	var e *apiError
	if v, ok := resp.Error().(*apiError); ok {
		e = v
	}
	if e != nil && undeliverable[e.Code] {
		return fmt.Errorf("twilio %s: status %d code %d: %w", op, resp.StatusCode(), e.Code, phone.ErrUndeliverable)
	}
	code := 0
	if e != nil {
		code = e.Code
	}
	return fmt.Errorf("twilio %s: status %d code %d: %w", op, resp.StatusCode(), code, phone.ErrUnavailable)
}

// scrub drops the URL from a transport error: it carries the number in a
// Lookup path.
func scrub(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}

// lookupResponse is the part of Lookup v2's LookupResponse read here.
type lookupResponse struct {
	Valid      bool `json:"valid"`
	CallerName *struct {
		CallerName *string `json:"caller_name"`
	} `json:"caller_name"`
	LineTypeIntelligence *struct {
		CarrierName *string `json:"carrier_name"`
		Type        *string `json:"type"`
	} `json:"line_type_intelligence"`
}

// Lookup asks Lookup v2 for line type intelligence and the caller name
// (CNAM: US numbers only; elsewhere it comes back empty).
func (c *Client) Lookup(ctx context.Context, n phone.Number) (phone.Lookup, error) {
	var out lookupResponse
	resp, err := c.lookup.R().SetContext(ctx).
		SetPathParam("number", n.E164).
		SetQueryParam("Fields", "line_type_intelligence,caller_name").
		SetResult(&out).SetError(&apiError{}).
		Get("/v2/PhoneNumbers/{number}")
	if err != nil || resp.IsError() {
		return phone.Lookup{}, fail("lookup", resp, err)
	}
	if !out.Valid {
		return phone.Lookup{}, fmt.Errorf("twilio lookup: number not valid: %w", phone.ErrUndeliverable)
	}
	l := phone.Lookup{LineType: phone.LineUnknown}
	if li := out.LineTypeIntelligence; li != nil {
		if li.Type != nil {
			l.LineType = lineType(*li.Type)
		}
		if li.CarrierName != nil {
			l.CarrierName = *li.CarrierName
		}
	}
	if cn := out.CallerName; cn != nil && cn.CallerName != nil {
		l.CallerName = *cn.CallerName
	}
	return l, nil
}

// lineType maps line_type_intelligence.type to phone.LineType; a value
// Twilio adds later is unknown.
func lineType(t string) phone.LineType {
	switch t {
	case "mobile":
		return phone.LineMobile
	case "landline":
		return phone.LineLandline
	case "fixedVoip":
		return phone.LineFixedVoIP
	case "nonFixedVoip":
		return phone.LineNonFixedVoIP
	case "personal":
		return phone.LinePersonal
	case "tollFree":
		return phone.LineTollFree
	case "premium":
		return phone.LinePremium
	case "sharedCost":
		return phone.LineSharedCost
	case "uan":
		return phone.LineUAN
	case "voicemail":
		return phone.LineVoicemail
	case "pager":
		return phone.LinePager
	}
	return phone.LineUnknown
}

// verification is the part of Verify's Verification resource read here.
type verification struct {
	Sid    string `json:"sid"`
	Status string `json:"status"`
}

// Send creates a Verification on the service with our code as its
// CustomCode; ref is the Verification's SID.
func (c *Client) Send(ctx context.Context, n phone.Number, code, locale string) (string, error) {
	form := map[string]string{"To": n.E164, "Channel": "sms", "CustomCode": code}
	if locale != "" {
		form["Locale"] = locale
	}
	var out verification
	resp, err := c.verify.R().SetContext(ctx).
		SetPathParam("service", c.cfg.VerifyServiceSID).
		SetFormData(form).
		SetResult(&out).SetError(&apiError{}).
		Post("/v2/Services/{service}/Verifications")
	if err != nil || resp.IsError() {
		return "", fail("send", resp, err)
	}
	if !verifySID.MatchString(out.Sid) {
		return "", fmt.Errorf("twilio send: the answer carries no verification SID: %w", phone.ErrUnavailable)
	}
	return out.Sid, nil
}

// Confirm marks the Verification approved, as Twilio asks of custom-code
// verifications so its conversion statistics hold.
func (c *Client) Confirm(ctx context.Context, ref string) error {
	if !verifySID.MatchString(ref) {
		return fmt.Errorf("twilio confirm: %q is not a verification SID", ref)
	}
	resp, err := c.verify.R().SetContext(ctx).
		SetPathParams(map[string]string{"service": c.cfg.VerifyServiceSID, "sid": ref}).
		SetFormData(map[string]string{"Status": "approved"}).
		SetError(&apiError{}).
		Post("/v2/Services/{service}/Verifications/{sid}")
	if err != nil || resp.IsError() {
		return fail("confirm", resp, err)
	}
	return nil
}

// discard is resty's logger, silenced: its messages can carry URLs.
type discard struct{}

func (discard) Errorf(string, ...any) {}
func (discard) Warnf(string, ...any)  {}
func (discard) Debugf(string, ...any) {}
