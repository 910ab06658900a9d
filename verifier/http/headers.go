package http

import (
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/webhook"
)

// checkWebhookHeaders applies the webhook package's webhook_headers rule
// (count, size, reserved and hop-by-hop names) at creation, so a
// verification never stores headers the sender would refuse.
func checkWebhookHeaders(h map[string]string) []verifier.FieldError {
	details := webhook.ValidateHeaders(h)
	out := make([]verifier.FieldError, len(details))
	for i, d := range details {
		out[i] = verifier.FieldError{Field: d.Field, Code: d.Code, Message: d.Message}
	}
	return out
}
