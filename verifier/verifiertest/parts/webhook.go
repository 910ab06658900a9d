package parts

import (
	"crypto/x509"
	"time"

	"github.com/idgate/idgate/verifier/webhook"
)

// Worker is the real webhook worker and sender over q, signing with
// secrets, trusting roots (the test receivers' certificates) and
// delivering to loopback, where the receivers listen; senderNow is the
// sender's clock (nil: real time), opts the worker's.
func Worker(q webhook.Queue, roots *x509.CertPool, secrets webhook.SecretSource, senderNow func() time.Time, opts webhook.WorkerOptions) *webhook.Worker {
	sender := webhook.NewSender(webhook.SenderOptions{AllowLoopback: true, RootCAs: roots, Secrets: secrets, Now: senderNow})
	return webhook.NewWorker(q, sender, opts)
}
