package verifier

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier/e2ee"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/webhook"
)

// Limits on verification and template settings.
const (
	DefaultLifetimeDays = 14
	MinLifetimeDays     = 1
	MaxLifetimeDays     = 90
	MaxMessageLen       = 1000 // characters
	MaxWebhookURLLen    = 2048 // bytes
	MaxKeyValueLen      = 16 << 10
	MaxTemplateNameLen  = 100 // characters
)

// Options are the settings a create request or a template gives. A nil
// field is "not given": in a create request it inherits the template's
// value, in a template it leaves the request's default.
type Options struct {
	RequestedFields     *[]string          `json:"requested_fields,omitempty"`
	PhoneVerification   *bool              `json:"phone_verification,omitempty"`
	AddressVerification *bool              `json:"address_verification,omitempty"`
	LocationConsistency *bool              `json:"location_consistency,omitempty"`
	IncludeLicensePhoto *bool              `json:"include_license_photo,omitempty"`
	FrontBarcodeMatch   *bool              `json:"front_barcode_match,omitempty"`
	AcceptedDocuments   *[]DocumentKind    `json:"accepted_documents,omitempty"`
	EncryptionKeyMode   *string            `json:"encryption_key_mode,omitempty"`
	EncryptionKey       *string            `json:"encryption_key,omitempty"`
	EncryptionKeyName   *string            `json:"encryption_key_name,omitempty"`
	WebhookURL          *string            `json:"webhook_url,omitempty"`
	WebhookHeaders      *map[string]string `json:"webhook_headers,omitempty"`
	Message             *string            `json:"message,omitempty"`
	LifetimeDays        *int               `json:"lifetime_days,omitempty"`
}

// Over returns o with every field o leaves unset taken from base: explicit
// fields override, omitted ones inherit.
func (o Options) Over(base Options) Options {
	if o.RequestedFields == nil {
		o.RequestedFields = base.RequestedFields
	}
	if o.PhoneVerification == nil {
		o.PhoneVerification = base.PhoneVerification
	}
	if o.AddressVerification == nil {
		o.AddressVerification = base.AddressVerification
	}
	if o.LocationConsistency == nil {
		o.LocationConsistency = base.LocationConsistency
	}
	if o.IncludeLicensePhoto == nil {
		o.IncludeLicensePhoto = base.IncludeLicensePhoto
	}
	if o.FrontBarcodeMatch == nil {
		o.FrontBarcodeMatch = base.FrontBarcodeMatch
	}
	if o.AcceptedDocuments == nil {
		o.AcceptedDocuments = base.AcceptedDocuments
	}
	if o.EncryptionKeyMode == nil {
		o.EncryptionKeyMode = base.EncryptionKeyMode
		// A key belongs to its mode: inherit it only with the mode.
		if o.EncryptionKey == nil {
			o.EncryptionKey, o.EncryptionKeyName = base.EncryptionKey, base.EncryptionKeyName
		}
	}
	if o.WebhookURL == nil {
		o.WebhookURL = base.WebhookURL
	}
	if o.WebhookHeaders == nil {
		o.WebhookHeaders = base.WebhookHeaders
	}
	if o.Message == nil {
		o.Message = base.Message
	}
	if o.LifetimeDays == nil {
		o.LifetimeDays = base.LifetimeDays
	}
	return o
}

// Settings are a verification's effective options, stored (JSON) in
// Verification.Options. The webhook and message settings live in their own
// Verification fields.
type Settings struct {
	RequestedFields     []string `json:"requested_fields"`
	PhoneVerification   bool     `json:"phone_verification"`
	AddressVerification bool     `json:"address_verification"`
	LocationConsistency bool     `json:"location_consistency"`
	IncludeLicensePhoto bool     `json:"include_license_photo"`
	FrontBarcodeMatch   bool     `json:"front_barcode_match"`
	// AcceptedDocuments are the document kinds the end user may show;
	// nil (every verification created before the option) is
	// DriversLicense alone, the default.
	AcceptedDocuments []DocumentKind `json:"accepted_documents,omitempty"`
	// EncryptionKeyMode is none when nothing personal is collected.
	EncryptionKeyMode e2ee.Mode `json:"encryption_key_mode"`
	// EncryptionKey is the PEM (custom) or the passphrase key ID.
	EncryptionKey     string `json:"encryption_key,omitempty"`
	EncryptionKeyName string `json:"encryption_key_name,omitempty"`
	// PassphraseKey is the public part of the passphrase key, copied at
	// creation so deleting the key later cannot strand a pending link.
	PassphraseKey *e2ee.PassphraseKey `json:"passphrase_key,omitempty"`
	// SiteOrigin is the Origin an integration key's allowlist admitted
	// when the verification was created (CanonicalOrigin; "" for a bearer
	// token's): the only site the end user's page will offer to go back
	// to when that site opened the link in its own tab.
	SiteOrigin string `json:"site_origin,omitempty"`
}

// Documents are the kinds the verification accepts, in the order given:
// AcceptedDocuments, or the default (the driver's license alone) when the
// option was not set.
func (s Settings) Documents() []DocumentKind {
	if len(s.AcceptedDocuments) == 0 {
		return []DocumentKind{DriversLicense}
	}
	return s.AcceptedDocuments
}

// CollectsPersonalData: requested fields, phone verification or the license
// photo. Without any of them the encryption mode is ignored (treated as
// none), as docs/decisions.md says.
func (s Settings) CollectsPersonalData() bool {
	return len(s.RequestedFields) > 0 || s.PhoneVerification || s.IncludeLicensePhoto
}

// ParseSettings decodes Verification.Options.
func ParseSettings(raw json.RawMessage) (Settings, error) {
	var s Settings
	if len(raw) == 0 {
		return s, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return Settings{}, fmt.Errorf("parse verification settings: %w", err)
	}
	return s, nil
}

// fieldErrors collects validation details.
type fieldErrors []problem.Detail

func (f *fieldErrors) add(field, code, format string, args ...any) {
	*f = append(*f, problem.Detail{Field: field, Code: code, Message: fmt.Sprintf(format, args...)})
}

func (f fieldErrors) err() error {
	if len(f) == 0 {
		return nil
	}
	return &ValidationError{Fields: f}
}

func isSet(b *bool) bool { return b != nil && *b }

// checkShape validates what can be checked without the store or the
// template: field names, URLs, headers,
// message, lifetime, mode name and key text. webhook_headers are checked by
// the webhook package's rule, so a verification never stores headers the
// sender would refuse.
func (o Options) checkShape(fe *fieldErrors, allowLoopback bool) {
	if o.RequestedFields != nil && len(*o.RequestedFields) > len(license.Catalog) {
		// More names than the catalog holds cannot all be valid; one
		// detail, not one per item (securitytest sent 150000).
		fe.add("requested_fields", "too_many", "at most %d names (the catalog's size)", len(license.Catalog))
	} else if o.RequestedFields != nil {
		seen := map[string]bool{}
		for i, name := range *o.RequestedFields {
			field := fmt.Sprintf("requested_fields[%d]", i)
			if _, ok := license.LookupField(name); !ok {
				fe.add(field, "unknown_field_name", "%q is not in the requested-field catalog", name)
			} else if seen[name] {
				fe.add(field, "duplicate", "%q is listed twice", name)
			}
			seen[name] = true
		}
	}
	if o.AcceptedDocuments != nil {
		checkDocuments(fe, *o.AcceptedDocuments)
	}
	if o.WebhookURL != nil && *o.WebhookURL != "" {
		checkWebhookURL(fe, *o.WebhookURL, allowLoopback)
	}
	if o.WebhookHeaders != nil {
		*fe = append(*fe, webhook.ValidateHeaders(*o.WebhookHeaders)...)
	}
	if o.Message != nil {
		if !utf8.ValidString(*o.Message) || utf8.RuneCountInString(*o.Message) > MaxMessageLen {
			fe.add("message", "too_long", "at most %d characters of UTF-8", MaxMessageLen)
		} else if !controlFree(*o.Message, true) {
			fe.add("message", "control_character", "must not contain control characters (line breaks are fine)")
		}
	}
	if o.LifetimeDays != nil && (*o.LifetimeDays < MinLifetimeDays || *o.LifetimeDays > MaxLifetimeDays) {
		fe.add("lifetime_days", "out_of_range", "must be %d to %d days", MinLifetimeDays, MaxLifetimeDays)
	}
	if o.EncryptionKeyMode != nil {
		switch m, err := e2ee.ParseMode(*o.EncryptionKeyMode); {
		case err != nil:
			fe.add("encryption_key_mode", "invalid_value", "must be passphrase, custom or none")
		case m == e2ee.ModeShared:
			fe.add("encryption_key_mode", "legacy_mode", "shared is legacy and refused for new verifications; use passphrase or custom")
		}
	}
	if o.EncryptionKey != nil && len(*o.EncryptionKey) > MaxKeyValueLen {
		fe.add("encryption_key", "too_long", "at most %d bytes", MaxKeyValueLen)
	}
	if o.EncryptionKeyName != nil {
		if err := e2ee.ValidateName(*o.EncryptionKeyName); err != nil {
			fe.add("encryption_key_name", "invalid_value", "1 to %d printable characters", e2ee.MaxNameLen)
		}
	}
}

// checkWebhookURL refuses at creation and template save what the sender
// would refuse anyway, hosts included: a private, loopback, link-local or
// metadata address in any notation, or a name that never leads to a public
// host (webhook.HostRefusal). Names are judged again after DNS when sending.
func checkWebhookURL(fe *fieldErrors, raw string, allowLoopback bool) {
	u, err := url.Parse(raw)
	switch {
	case len(raw) > MaxWebhookURLLen:
		fe.add("webhook_url", "too_long", "at most %d bytes", MaxWebhookURLLen)
	case err != nil || u.Host == "" || !u.IsAbs():
		fe.add("webhook_url", "invalid_url", "must be an absolute https URL")
	case !strings.EqualFold(u.Scheme, "https"):
		fe.add("webhook_url", "must_be_https", "webhook_url must use https")
	case u.User != nil:
		fe.add("webhook_url", "invalid_url", "must not carry user:password")
	default:
		if reason := webhook.HostRefusal(u.Hostname(), allowLoopback); reason != "" {
			fe.add("webhook_url", "private_address", "%s: webhook targets must be public hosts", reason)
		}
	}
}
