// webhook.go signs and verifies the Idgate-Signature header of webhook
// deliveries: the verifier's sender signs with Sign, receivers check with
// VerifySignature, so the two cannot drift apart.

package client

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader is the header Sign's value goes in and VerifySignature
// checks.
const SignatureHeader = "Idgate-Signature"

// DefaultTolerance is how far a delivery's timestamp may be from now when
// VerifySignature is given no tolerance: it bounds replays of a captured
// delivery.
const DefaultTolerance = 5 * time.Minute

// maxSignatureHeader bounds the work done on a hostile header.
const maxSignatureHeader = 4096

// Errors VerifySignature returns; branch on them with errors.Is.
var (
	// ErrSignatureHeader: the header is missing or not "t=...,v1=...".
	ErrSignatureHeader = errors.New("malformed Idgate-Signature header")
	// ErrSignatureMismatch: no v1 value matches the body under the secret
	// (wrong secret, or the body or timestamp was altered).
	ErrSignatureMismatch = errors.New("webhook signature does not match")
	// ErrSignatureExpired: the signature is valid but its timestamp is
	// outside the tolerance (a replay, or a badly wrong clock).
	ErrSignatureExpired = errors.New("webhook signature timestamp outside tolerance")
)

// Sign returns the Idgate-Signature value for body sent at t:
// "t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>", one v1 per
// secret (newest first) so receivers keep verifying across a rotation. The
// HMAC key is the secret string's bytes, "whsec_" prefix included.
func Sign(secrets [][]byte, t time.Time, body []byte) string {
	ts := t.Unix()
	var b strings.Builder
	b.WriteString("t=")
	b.WriteString(strconv.FormatInt(ts, 10))
	for _, s := range secrets {
		b.WriteString(",v1=")
		b.WriteString(hex.EncodeToString(mac(s, ts, body)))
	}
	return b.String()
}

// mac is HMAC-SHA256(secret, "<ts>.<body>"), the v1 scheme.
func mac(secret []byte, ts int64, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(strconv.FormatInt(ts, 10)))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// VerifySignature checks that body (the raw request body, byte for byte as
// received) was signed by idgate with secret (the "whsec_..." string's
// bytes) at a time within tolerance of now (DefaultTolerance if ≤ 0).
//
// The header is "t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." +
// body)>"; during a secret rotation it carries one v1 per active secret and
// any one matching suffices. Unknown keys are ignored so new schemes can be
// added beside v1. Comparison is constant-time.
func VerifySignature(secret []byte, header string, body []byte, now time.Time, tolerance time.Duration) error {
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	ts, sigs, err := parseSignature(header)
	if err != nil {
		return err
	}
	want := mac(secret, ts, body)
	matched := false
	for _, s := range sigs {
		// Keep going after a match so timing does not reveal which matched.
		matched = hmac.Equal(s, want) || matched
	}
	if !matched {
		return ErrSignatureMismatch
	}
	age := now.Sub(time.Unix(ts, 0))
	if age > tolerance || age < -tolerance {
		return fmt.Errorf("%w: signed at %s, now %s", ErrSignatureExpired,
			time.Unix(ts, 0).UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	return nil
}

// parseSignature reads t (exactly once) and every v1 (at least one).
func parseSignature(header string) (int64, [][]byte, error) {
	if len(header) > maxSignatureHeader {
		return 0, nil, fmt.Errorf("%w: longer than %d bytes", ErrSignatureHeader, maxSignatureHeader)
	}
	var (
		ts    int64
		haveT bool
		sigs  [][]byte
	)
	for _, item := range strings.Split(header, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			return 0, nil, fmt.Errorf("%w: item %q has no '='", ErrSignatureHeader, item)
		}
		switch key {
		case "t":
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil || haveT || n <= 0 {
				return 0, nil, fmt.Errorf("%w: bad or repeated t", ErrSignatureHeader)
			}
			ts, haveT = n, true
		case "v1":
			sig, err := hex.DecodeString(value)
			if err != nil || len(sig) != sha256.Size {
				return 0, nil, fmt.Errorf("%w: v1 is not 64 hex digits", ErrSignatureHeader)
			}
			sigs = append(sigs, sig)
		}
	}
	if !haveT || len(sigs) == 0 {
		return 0, nil, fmt.Errorf("%w: need t and at least one v1", ErrSignatureHeader)
	}
	return ts, sigs, nil
}
