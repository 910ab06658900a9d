package http

import (
	"errors"
	"sort"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/webhook"
)

// WebhookDeps are what the webhook endpoints need beyond the Store; serve
// builds them beside the worker (cmd/idgate/webhooks.go). A nil Queue
// leaves the endpoints out.
type WebhookDeps struct {
	Queue   webhook.Queue
	Secrets verifier.WebhookSecrets
	// Wake tells the worker a retry is due now; nil: the worker polls.
	Wake func()
}

// webhookHandlers serve, all bearer only:
//
//	GET  /verification/webhook/deliveries?id=  the delivery log
//	POST /verification/webhook/retry?id=       a fresh three-attempt cycle after a failure
//	POST /webhook-secret                       rotate the signing secret (shown once)
type webhookHandlers struct {
	WebhookDeps
	// verifications checks that a verification is the caller's before its
	// deliveries are shown or retried.
	verifications verifier.Store
	now           func() time.Time
}

// withDefaults fills what the routes need and Deps may leave out: without
// Wake, a retry waits for the worker's poll.
func (h webhookHandlers) withDefaults() webhookHandlers {
	if h.Wake == nil {
		h.Wake = func() {}
	}
	return h
}

// webhookIDQuery is the required ?id= (the verification's). A malformed ID
// names no verification: 404, like an unknown one.
func webhookIDQuery(c *fiber.Ctx) (string, error) {
	id := c.Query("id")
	if id == "" {
		return "", httperr.Validation(problem.Detail{Field: "id", Code: "required", Message: "give the verification's id as ?id="})
	}
	return id, nil
}

// ownVerification is the caller's verification named by ?id=, or the error
// to answer (404 for another account's, as for every other endpoint).
func (h webhookHandlers) ownVerification(c *fiber.Ctx) (verifier.Verification, error) {
	id, err := webhookIDQuery(c)
	if err != nil {
		return verifier.Verification{}, err
	}
	a, _ := Account(c)
	v, err := h.verifications.GetVerification(c.UserContext(), a.ID, id)
	if err == nil && v.Mode != Mode(c) {
		// The other mode's verification: not found, as for another account's.
		return verifier.Verification{}, verifier.ErrNotFound
	}
	return v, err
}

type attemptResponse struct {
	Attempt    int       `json:"attempt"`
	StartedAt  time.Time `json:"started_at"`
	StatusCode int       `json:"status_code"` // 0: no response
	Error      string    `json:"error,omitempty"`
	DurationMS float64   `json:"duration_ms"`
	Snippet    string    `json:"response_snippet"`
}

type deliveryResponse struct {
	ID    string `json:"id"`
	State string `json:"state"`
	URL   string `json:"url"`
	// HeaderNames lists the custom headers sent; their values are secrets
	// of the receiver and never leave the server.
	HeaderNames   []string          `json:"header_names"`
	CreatedAt     time.Time         `json:"created_at"`
	NextAttemptAt *time.Time        `json:"next_attempt_at,omitempty"`
	Attempts      []attemptResponse `json:"attempts"`
}

func toDeliveryResponse(l webhook.DeliveryLog) deliveryResponse {
	names := make([]string, 0, len(l.Headers))
	for n := range l.Headers {
		names = append(names, n)
	}
	sort.Strings(names)
	r := deliveryResponse{ID: l.ID, State: l.State, URL: l.URL, HeaderNames: names, CreatedAt: l.CreatedAt,
		Attempts: make([]attemptResponse, len(l.Attempts))}
	if l.State == webhook.StatePending {
		next := l.NextAttemptAt
		r.NextAttemptAt = &next
	}
	for i, a := range l.Attempts {
		r.Attempts[i] = attemptResponse{Attempt: a.Attempt, StartedAt: a.StartedAt, StatusCode: a.StatusCode,
			Error: a.Error, DurationMS: float64(a.Duration.Microseconds()) / 1000, Snippet: a.Snippet}
	}
	return r
}

// deliveries is GET /verification/webhook/deliveries?id=: the
// verification's deliveries, newest first, each with its attempt log.
func (h webhookHandlers) deliveries(c *fiber.Ctx) error {
	v, err := h.ownVerification(c)
	if err != nil {
		return err
	}
	log, err := h.Queue.History(c.UserContext(), v.ID)
	if err != nil {
		return err
	}
	out := make([]deliveryResponse, len(log))
	for i, l := range log {
		out[i] = toDeliveryResponse(l)
	}
	return c.JSON(fiber.Map{"verification_id": v.ID, "webhook_status": v.WebhookStatus, "deliveries": out})
}

// retry is POST /verification/webhook/retry?id=: after the latest delivery
// failed (three attempts), a new delivery of the same payload starts a
// fresh three-attempt cycle now. 409 when the latest delivery has not
// failed (pending, delivered) or there is none.
func (h webhookHandlers) retry(c *fiber.Ctx) error {
	v, err := h.ownVerification(c)
	if err != nil {
		return err
	}
	d, err := h.Queue.Retry(c.UserContext(), v.ID, uuid.NewString(), h.now())
	if errors.Is(err, webhook.ErrNotFailed) {
		return httperr.New(httperr.Conflict, "the latest webhook delivery of this verification has not failed (it is pending or delivered, or there is none); nothing to retry")
	}
	if err != nil {
		return err
	}
	h.Wake()
	return c.Status(fiber.StatusAccepted).JSON(toDeliveryResponse(webhook.DeliveryLog{Delivery: d}))
}

// rotateSecret is POST /webhook-secret: a new signing secret, shown in this
// answer only. The previous one keeps co-signing (a second v1 in
// Idgate-Signature) until previous_secret_valid_until, so receivers can
// switch without rejecting deliveries.
func (h webhookHandlers) rotateSecret(c *fiber.Ctx) error {
	a, _ := Account(c)
	secret, keys, err := h.Secrets.Rotate(c.UserContext(), a.ID)
	if err != nil {
		return err
	}
	resp := struct {
		Secret        string     `json:"secret"`
		PreviousUntil *time.Time `json:"previous_secret_valid_until,omitempty"`
	}{Secret: secret}
	if keys.Previous != "" {
		resp.PreviousUntil = &keys.PreviousUntil
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(fiber.StatusCreated).JSON(resp)
}
