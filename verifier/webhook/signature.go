package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Header names of every delivery. Custom webhook_headers can never replace
// them (see ValidateHeaders).
const (
	HeaderSignature  = "Idgate-Signature"
	HeaderDeliveryID = "Idgate-Delivery-Id"
	HeaderAttempt    = "Idgate-Attempt"
	UserAgent        = "idgate-webhook/1"
)

// Signature returns the Idgate-Signature value for body sent at t:
// "t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>", one v1 per
// secret (newest first) so receivers keep verifying across a rotation. The
// HMAC key is the secret string's bytes, "whsec_" prefix included.
func Signature(secrets [][]byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	var b strings.Builder
	b.WriteString("t=")
	b.WriteString(ts)
	for _, s := range secrets {
		mac := hmac.New(sha256.New, s)
		mac.Write([]byte(ts))
		mac.Write([]byte{'.'})
		mac.Write(body)
		b.WriteString(",v1=")
		b.WriteString(hex.EncodeToString(mac.Sum(nil)))
	}
	return b.String()
}
