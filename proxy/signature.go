package proxy

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

// DefaultSignatureTolerance is how far a delivery's signed timestamp may be
// from now. Deliveries are signed when sent, retries included, so anything
// older is a replay.
const DefaultSignatureTolerance = 5 * time.Minute

// Signature refusals; all wrap ErrWebhookAuth.
var (
	ErrWebhookAuth         = errors.New("webhook not authenticated")
	errSignatureMalformed  = fmt.Errorf("%w: malformed Idgate-Signature", ErrWebhookAuth)
	errSignatureMismatch   = fmt.Errorf("%w: no matching v1 signature", ErrWebhookAuth)
	errSignatureOutOfRange = fmt.Errorf("%w: timestamp outside the tolerance", ErrWebhookAuth)
)

// maxSignatureHeader bounds the header we parse: a timestamp and a few v1
// values during a secret rotation.
const maxSignatureHeader = 2048

// VerifySignature checks an Idgate-Signature header
// ("t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>[,v1=...]")
// against body: one v1 must match and t must be within tolerance of now.
// It mirrors the verifier's webhook.Signature; client/webhook.go will hold
// the shared receiver-side function once it lands.
func VerifySignature(secret []byte, header string, body []byte, now time.Time, tolerance time.Duration) error {
	if len(header) > maxSignatureHeader || len(secret) == 0 {
		return errSignatureMalformed
	}
	var ts string
	var sigs [][]byte
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return errSignatureMalformed
		}
		switch k {
		case "t":
			if ts != "" {
				return errSignatureMalformed
			}
			ts = v
		case "v1":
			sig, err := hex.DecodeString(v)
			if err != nil || len(sig) != sha256.Size {
				return errSignatureMalformed
			}
			sigs = append(sigs, sig)
		}
		// Other schemes are ignored so a future v2 does not break us.
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return errSignatureMalformed
	}
	signed := time.Unix(sec, 0)
	if d := now.Sub(signed); d > tolerance || d < -tolerance {
		return errSignatureOutOfRange
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(ts))
	mac.Write([]byte{'.'})
	mac.Write(body)
	want := mac.Sum(nil)
	for _, sig := range sigs {
		if hmac.Equal(sig, want) {
			return nil
		}
	}
	return errSignatureMismatch
}
