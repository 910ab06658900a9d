package verifier

import (
	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier/webhook"
)

// DeliveryFor is the webhook delivery an update of a verification must
// enqueue in its own transaction, if any: one when v enters completed or
// manual_review (from another status, so manual_review → completed after a
// human decision delivers the final result again) with a webhook URL and a
// result. Expired and canceled verifications, those without a URL (spec,
// Events rules 1 and 2) and updates that keep the status never deliver. old
// and v are the verification before and after the update, as stored. The
// payload is the stored result byte for byte, so the webhook and
// GET /verification carry the same document.
func DeliveryFor(old, v Verification) (webhook.Delivery, bool) {
	if v.Status == old.Status || (v.Status != StatusCompleted && v.Status != StatusManualReview) ||
		v.WebhookURL == "" || len(v.Result) == 0 {
		return webhook.Delivery{}, false
	}
	return webhook.Delivery{
		ID:             uuid.NewString(),
		AccountID:      v.AccountID,
		VerificationID: v.ID,
		URL:            v.WebhookURL,
		Headers:        v.WebhookHeaders,
		Payload:        v.Result,
	}, true
}
