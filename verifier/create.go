package verifier

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier/e2ee"
	"github.com/idgate/idgate/verifier/webhook"
)

// LinkTokenBytes is the randomness of the end user's link token (256 bits,
// 43 base64url characters). Only its SHA-256 is stored.
const LinkTokenBytes = 32

// HashLinkToken is how link tokens are stored and looked up.
func HashLinkToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// WellFormedLinkToken checks the shape so garbage never reaches the store.
func WellFormedLinkToken(token string) bool {
	raw, err := base64.RawURLEncoding.Strict().DecodeString(token)
	return err == nil && len(raw) == LinkTokenBytes
}

// Verifications is the account holder's side of the lifecycle: create,
// read, list, cancel, delete, the end user's first open, and quotas. Every
// status change goes through Store.UpdateVerification (one transaction,
// checked by CheckTransition) or the store's ExpireDue.
type Verifications struct {
	Store Store
	Now   func() time.Time
	Plan  Plan
	// AllowLoopbackWebhooks accepts webhook_url hosts on loopback, as the
	// sender does with IDGATE_WEBHOOK_ALLOW_LOOPBACK: dev and tests only.
	AllowLoopbackWebhooks bool
}

// CreateRequest is the body of POST /verification.
type CreateRequest struct {
	Options
	TemplateID *string `json:"template_id,omitempty"`
	ExternalID *string `json:"external_id,omitempty"`
	// SiteOrigin is set by the HTTP layer, never by the body: the
	// request's Origin when an integration key (whose allowlist it
	// matched) authenticated it. Kept as Settings.SiteOrigin.
	SiteOrigin string `json:"-"`
}

// Created is a new verification and its link token, which exists nowhere
// else: the caller puts it in the url once.
type Created struct {
	Verification
	Token string
}

// Create validates r (every problem reported at once), applies its
// template, derives the type and stores the verification if the plan has a
// slot left for that type (*QuotaError otherwise). A caller in test mode
// (ModeOf(ctx)) creates a test verification, which uses no allowance.
func (s *Verifications) Create(ctx context.Context, accountID string, r CreateRequest) (Created, error) {
	var fe fieldErrors
	opts := r.Options
	var templateID string
	if r.TemplateID != nil {
		tpl, ok, err := s.template(ctx, accountID, *r.TemplateID)
		if err != nil {
			return Created{}, fmt.Errorf("create verification: %w", err)
		}
		if !ok {
			fe.add("template_id", "unknown_template", "no template with this ID in the account")
		} else {
			templateID = tpl.ID
			ts, err := ParseTemplateSettings(tpl.Settings)
			if err != nil {
				return Created{}, fmt.Errorf("create verification: %w", err)
			}
			// external_id is never inherited: TemplateSettings has none.
			opts = opts.Over(ts.Options)
		}
	}
	if r.ExternalID != nil {
		checkExternalID(&fe, *r.ExternalID)
	}
	settings, err := s.resolve(ctx, &fe, accountID, opts, true)
	if err != nil {
		return Created{}, fmt.Errorf("create verification: %w", err)
	}
	if opts.WebhookURL != nil && webhook.FailsOnPurpose(*opts.WebhookURL) && ModeOf(ctx) != ModeTest {
		fe.add("webhook_url", "test_only", "%s fails on purpose and is for test verifications only", webhook.FailingTestURL)
	}
	if err := fe.err(); err != nil {
		return Created{}, err
	}
	settings.SiteOrigin, _ = CanonicalOrigin(r.SiteOrigin)

	raw, err := json.Marshal(settings)
	if err != nil {
		return Created{}, fmt.Errorf("create verification: %w", err)
	}
	tok := make([]byte, LinkTokenBytes)
	if _, err := rand.Read(tok); err != nil {
		return Created{}, fmt.Errorf("create verification: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(tok)
	now := s.Now().UTC().Truncate(time.Microsecond)
	days := DefaultLifetimeDays
	if opts.LifetimeDays != nil {
		days = *opts.LifetimeDays
	}
	v := Verification{
		ID: uuid.NewString(), AccountID: accountID, TokenHash: HashLinkToken(token),
		Status: StatusPending, Type: DeriveType(settings), Options: raw,
		LifetimeDays: days, ExpiresAt: now.AddDate(0, 0, days), TemplateID: templateID,
		CreatedAt: now, UpdatedAt: now, Mode: ModeOf(ctx),
	}
	if r.ExternalID != nil {
		v.ExternalID = *r.ExternalID
	}
	if opts.WebhookURL != nil {
		v.WebhookURL = *opts.WebhookURL
	}
	if opts.WebhookHeaders != nil && len(*opts.WebhookHeaders) > 0 {
		v.WebhookHeaders = *opts.WebhookHeaders
	}
	if opts.Message != nil {
		v.Message = *opts.Message
	}
	allowance := s.Plan.Allowance(v.Type, now)
	if v.Mode == ModeTest {
		allowance = Allowance{Limit: -1} // test creates count against nothing
	}
	if err := s.Store.CreateVerification(ctx, v, allowance); err != nil {
		if errors.Is(err, ErrNotFound) && templateID != "" {
			// The template was deleted between the read and the insert.
			return Created{}, &ValidationError{Fields: []problem.Detail{{Field: "template_id", Code: "unknown_template",
				Message: "no template with this ID in the account"}}}
		}
		return Created{}, fmt.Errorf("create verification: %w", err)
	}
	return Created{Verification: v, Token: token}, nil
}

func (s *Verifications) template(ctx context.Context, accountID, id string) (Template, bool, error) {
	if _, err := uuid.Parse(id); err != nil {
		return Template{}, false, nil
	}
	t, err := s.Store.GetTemplate(ctx, accountID, id)
	if errors.Is(err, ErrNotFound) {
		return Template{}, false, nil
	}
	return t, err == nil, err
}

// resolve validates opts and returns the effective settings. For a
// verification (final), the encryption rules (docs/encryption.md) apply in full:
// when personal data is collected a mode is required; when none is, the
// mode is ignored and stored as none. A template (not final) may leave the
// mode to its requests.
func (s *Verifications) resolve(ctx context.Context, fe *fieldErrors, accountID string, o Options, final bool) (Settings, error) {
	o.checkShape(fe, s.AllowLoopbackWebhooks)
	st := Settings{
		PhoneVerification: isSet(o.PhoneVerification), AddressVerification: isSet(o.AddressVerification),
		LocationConsistency: isSet(o.LocationConsistency), IncludeLicensePhoto: isSet(o.IncludeLicensePhoto),
		FrontBarcodeMatch: isSet(o.FrontBarcodeMatch),
	}
	if o.RequestedFields != nil && len(*o.RequestedFields) > 0 {
		st.RequestedFields = *o.RequestedFields
	}
	if o.AcceptedDocuments != nil {
		st.AcceptedDocuments = *o.AcceptedDocuments
	}
	mode := ""
	if o.EncryptionKeyMode != nil {
		mode = *o.EncryptionKeyMode
	}
	// A key with mode none contradicts itself whether or not personal
	// data is collected: refused, not silently dropped.
	if mode == string(e2ee.ModeNone) && o.EncryptionKey != nil && *o.EncryptionKey != "" {
		fe.add("encryption_key", "not_allowed", "encryption_key is only used with encryption_key_mode custom or passphrase")
	}
	if final && !st.CollectsPersonalData() {
		st.EncryptionKeyMode = e2ee.ModeNone
		return st, nil
	}
	if mode == "" {
		if final {
			fe.add("encryption_key_mode", "required", "required when personal data is collected (requested_fields, phone_verification or include_license_photo) and the template sets none")
		}
		if o.EncryptionKey != nil {
			fe.add("encryption_key", "mode_required", "give encryption_key_mode with encryption_key")
		}
		return st, nil
	}
	st.EncryptionKeyMode = e2ee.Mode(mode)
	key := ""
	if o.EncryptionKey != nil {
		key = *o.EncryptionKey
	}
	if o.EncryptionKeyName != nil {
		st.EncryptionKeyName = *o.EncryptionKeyName
	}
	switch st.EncryptionKeyMode {
	case e2ee.ModeNone:
		st.EncryptionKeyName = ""
	case e2ee.ModeCustom:
		switch _, err := e2ee.ParseRSAPublicKey([]byte(key)); {
		case key == "":
			fe.add("encryption_key", "required", "custom mode needs a PEM RSA public key (at least 2048 bits)")
		case errors.Is(err, e2ee.ErrPrivateKey):
			fe.add("encryption_key", "invalid_key", "this is a private key: send only its public part (openssl rsa -in key.pem -pubout), "+
				"and treat this private key as exposed: make a new key pair")
		case errors.Is(err, e2ee.ErrWeakKey):
			fe.add("encryption_key", "key_too_small", "the RSA key must have %d to %d bits", e2ee.MinRSABits, e2ee.MaxRSABits)
		case err != nil:
			fe.add("encryption_key", "invalid_key", "must be a PEM RSA public key (PUBLIC KEY or RSA PUBLIC KEY)")
		}
		st.EncryptionKey = key
	case e2ee.ModePassphrase:
		if key == "" {
			fe.add("encryption_key", "required", "passphrase mode needs the ID of one of the account's passphrase keys")
			break
		}
		pk, ok, err := lookupPassphraseKey(ctx, s.Store, accountID, key)
		if err != nil {
			return Settings{}, err
		}
		if !ok {
			fe.add("encryption_key", "unknown_key", "no passphrase key with this ID in the account")
		}
		st.EncryptionKey, st.PassphraseKey = key, pk
		st.EncryptionKeyName = ""
	}
	return st, nil
}
