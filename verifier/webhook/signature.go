package webhook

import "github.com/idgate/idgate/client"

// Header names of every delivery. Custom webhook_headers can never replace
// them (see ValidateHeaders). The signature is client.Sign's, the scheme
// receivers check with client.VerifySignature.
const (
	HeaderSignature  = client.SignatureHeader
	HeaderDeliveryID = "Idgate-Delivery-Id"
	HeaderAttempt    = "Idgate-Attempt"
	UserAgent        = "idgate-webhook/1"
)
