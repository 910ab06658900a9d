package proxy

import (
	"errors"
	"fmt"
	"time"

	"github.com/idgate/idgate/client"
)

// DefaultSignatureTolerance is how far a delivery's signed timestamp may be
// from now. Deliveries are signed when sent, retries included, so anything
// older is a replay.
const DefaultSignatureTolerance = client.DefaultTolerance

// ErrWebhookAuth wraps every refusal of an incoming webhook: wrong custom
// header, bad or stale signature.
var ErrWebhookAuth = errors.New("webhook not authenticated")

// verifySignature checks the verifier's Idgate-Signature header with the
// same receiver-side function integrators use (client.VerifySignature).
func verifySignature(secret []byte, header string, body []byte, now time.Time, tolerance time.Duration) error {
	if len(secret) == 0 {
		return fmt.Errorf("%w: no webhook secret configured", ErrWebhookAuth)
	}
	if err := client.VerifySignature(secret, header, body, now, tolerance); err != nil {
		return fmt.Errorf("%w: %w", ErrWebhookAuth, err)
	}
	return nil
}
