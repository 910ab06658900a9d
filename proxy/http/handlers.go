package http

import (
	"encoding/json"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/internal/qr"
	"github.com/idgate/idgate/proxy"
)

// status: GET /proxy/v1/stores/{hash}/status?cart_id=UUID[&order_id=N]
// [Idgate-Customer-Token: <Current Customer JWT>].
func (h *handlers) status(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	st, err := h.svc.Status(c.UserContext(), c.Params("hash"), c.Get(fiber.HeaderOrigin), c.Query("cart_id"), c.Query("order_id"), c.Get(CustomerTokenHeader))
	if err != nil {
		return toHTTP(err)
	}
	return c.JSON(st)
}

// start: POST /proxy/v1/stores/{hash}/verifications {"cart_id": UUID}.
func (h *handlers) start(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	cartID, err := cartBody(c, "a start request")
	if err != nil {
		return err
	}
	created, err := h.svc.Start(c.UserContext(), c.Params("hash"), c.Get(fiber.HeaderOrigin), clientIP(h.proxies, c), cartID, c.Get(CustomerTokenHeader))
	if err != nil {
		return toHTTP(err)
	}
	out := started{Created: created}
	// The QR code is drawn here, not in the widget, so the footer script
	// carries no encoder; a link too long to encode just shows no code.
	if code, err := qr.New(created.URL); err == nil {
		out.QR = &code
	}
	return c.Status(fiber.StatusCreated).JSON(out)
}

// carry: POST /proxy/v1/stores/{hash}/carry {"cart_id": UUID}
// Idgate-Customer-Token: <Current Customer JWT>. A cart the widget saw
// verified as a guest, sent once the shopper is logged in (proxy.CarryGuest).
func (h *handlers) carry(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	cartID, err := cartBody(c, "a carry request")
	if err != nil {
		return err
	}
	out, err := h.svc.CarryGuest(c.UserContext(), c.Params("hash"), c.Get(fiber.HeaderOrigin), cartID, c.Get(CustomerTokenHeader))
	if err != nil {
		return toHTTP(err)
	}
	return c.JSON(out)
}

// cartBody reads the widget's JSON body {"cart_id": ...}, what (e.g. "a
// start request") naming it in errors. A member the proxy does not read is
// refused, as the verifier's API does: a widget sending one is out of date
// or not the widget.
func cartBody(c *fiber.Ctx, what string) (string, error) {
	if !strings.HasPrefix(c.Get(fiber.HeaderContentType), fiber.MIMEApplicationJSON) {
		return "", httperr.New(httperr.UnsupportedMediaType, "send application/json")
	}
	body := c.Body()
	if len(body) > maxStartBody {
		return "", httperr.New(httperr.PayloadTooLarge, "request body too large")
	}
	var in struct {
		CartID string `json:"cart_id"`
	}
	if !json.Valid(body) {
		return "", httperr.New(httperr.MalformedJSON, "the body is not valid JSON")
	}
	if err := proxy.DecodeStrict(body, &in, what); err != nil {
		return "", toHTTP(err)
	}
	var members map[string]json.RawMessage
	_ = json.Unmarshal(body, &members)
	for name := range members {
		if name != "cart_id" {
			return "", httperr.Validation(problem.Detail{Field: name, Code: "unknown_field", Message: "not a member of " + what})
		}
	}
	return in.CartID, nil
}

// started is the start answer: the verification, and its link as a QR code
// for a desktop shopper's phone.
type started struct {
	proxy.Created
	QR *qr.Code `json:"qr,omitempty"`
}

// webhook: POST /proxy/v1/stores/{hash}/webhook, from the verifier.
func (h *handlers) webhook(c *fiber.Ctx) error {
	st, err := h.svc.Stores.Store(c.UserContext(), c.Params("hash"))
	if err != nil {
		return toHTTP(err)
	}
	applied, err := h.svc.ApplyWebhook(c.UserContext(), st.Hash, proxy.Delivery{
		HeaderValue: c.Get(st.WebhookHeader),
		Signature:   c.Get("Idgate-Signature"),
		Body:        c.Body(),
	})
	if err != nil {
		// Who failed and why goes to the log (never the headers or body).
		h.log.Warn("webhook refused", "store", st.Hash, "err", err)
		return toHTTP(err)
	}
	return c.JSON(applied)
}

// orderWebhook: POST /proxy/v1/stores/{hash}/order-webhook, from
// BigCommerce (store/order/created), for the order guard.
func (h *handlers) orderWebhook(c *fiber.Ctx) error {
	st, err := h.svc.Stores.Store(c.UserContext(), c.Params("hash"))
	if err != nil {
		return toHTTP(err)
	}
	res, err := h.svc.GuardOrder(c.UserContext(), st.Hash, proxy.OrderEvent{HeaderValue: c.Get(st.WebhookHeader), Body: c.Body()})
	if err != nil {
		h.log.Warn("order webhook refused", "store", st.Hash, "err", err)
		return toHTTP(err)
	}
	return c.JSON(res)
}
