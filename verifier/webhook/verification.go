package webhook

import (
	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
)

// ForUpdate is the delivery a verification update must enqueue in its own
// transaction, if any: one when v enters completed or manual_review (from
// another status, so manual_review → completed after a human decision
// delivers the final result again) with a webhook URL and a result. Expired
// and canceled verifications, those without a URL (spec, Events rules 1
// and 2) and updates that keep the status never deliver. old and v are the
// verification before and after the update, as stored. The payload is the
// stored result byte for byte, so the webhook and GET /verification carry
// the same document.
func ForUpdate(old, v verifier.Verification) (Delivery, bool) {
	if v.Status == old.Status || (v.Status != verifier.StatusCompleted && v.Status != verifier.StatusManualReview) ||
		v.WebhookURL == "" || len(v.Result) == 0 {
		return Delivery{}, false
	}
	return Delivery{
		ID:             uuid.NewString(),
		AccountID:      v.AccountID,
		VerificationID: v.ID,
		URL:            v.WebhookURL,
		Headers:        v.WebhookHeaders,
		Payload:        v.Result,
	}, true
}
