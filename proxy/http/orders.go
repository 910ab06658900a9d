package http

import (
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/rulesets"
)

// The orders page and the forms that move between the app's pages: every
// one a POST carrying the sealed session (never in a URL, where logs and
// history keep it).
const (
	settingsOpenPath = "/app/stores/:hash/settings/open"
	ordersPath       = "/app/stores/:hash/orders"
	reviewPath       = "/app/stores/:hash/orders/review"
	orderLinkPath    = "/app/stores/:hash/orders/link"
)

var (
	//go:embed orders.html
	ordersHTML string
	ordersPage = appPage("orders", ordersHTML, template.FuncMap{
		"reason": reasonText, "when": func(t time.Time) string { return t.UTC().Format("2 Jan 2006 15:04 UTC") },
	})
)

func appPath(route, hash string) string { return strings.Replace(route, ":hash", hash, 1) }

// ordersData is what orders.html renders.
type ordersData struct {
	Session                                                string
	SettingsAction, OrdersAction, ReviewAction, LinkAction string
	Orders                                                 []proxy.OrderRow
	Notice, Error                                          string
	// Link is the verification link just made for a waiting order.
	Link *sentLink
}

// sentLink is a link for the merchant to send the shopper of an order.
type sentLink struct {
	OrderID int64
	URL     string
	Test    bool
}

// openSettings: the orders page's way back to the settings page.
func (h *appHandlers) openSettings(c *fiber.Ctx) error {
	if err := ownForm(c); err != nil {
		return err
	}
	st, s, err := h.app.OpenSession(c.UserContext(), c.Params("hash"), c.FormValue("session"))
	if err != nil {
		return toHTTP(err)
	}
	return h.render(c, fiber.StatusOK, st, s, proxy.SettingsOf(st), false, "")
}

// orders: the store's orders that needed verification.
func (h *appHandlers) orders(c *fiber.Ctx) error {
	if err := ownForm(c); err != nil {
		return err
	}
	return h.renderOrders(c, fiber.StatusOK, "", "")
}

// review: approve or reject one order by hand, then the list again.
func (h *appHandlers) review(c *fiber.Ctx) error {
	if err := ownForm(c); err != nil {
		return err
	}
	hash, sealed := c.Params("hash"), c.FormValue("session")
	if _, _, err := h.app.OpenSession(c.UserContext(), hash, sealed); err != nil {
		return toHTTP(err)
	}
	approve := false
	switch c.FormValue("decision") {
	case "approve":
		approve = true
	case "reject":
	default:
		return h.renderOrders(c, fiber.StatusUnprocessableEntity, "", "choose approve or reject")
	}
	id, err := strconv.ParseInt(c.FormValue("order_id"), 10, 64)
	if err != nil {
		return h.renderOrders(c, fiber.StatusUnprocessableEntity, "", "no such order")
	}
	row, err := h.app.ReviewOrder(c.UserContext(), hash, sealed, id, approve)
	var inputErr *proxy.InputError
	if asInput(err, &inputErr) {
		return h.renderOrders(c, fiber.StatusUnprocessableEntity, "", inputErr.Message)
	}
	if err != nil {
		return toHTTP(err)
	}
	notice := "Order " + strconv.FormatInt(row.ID, 10) + " approved: it leaves Manual Verification Required."
	if !approve {
		notice = "Order " + strconv.FormatInt(row.ID, 10) + " rejected: it stays in Manual Verification Required."
	}
	return h.renderOrders(c, fiber.StatusOK, notice, "")
}

// shopperLink: a verification link for a waiting order, for the merchant to send
// the shopper (BigCommerce's API cannot message them), shown on the list
// again. The page runs no script, so the link is in a field to select and
// copy; it is never logged.
func (h *appHandlers) shopperLink(c *fiber.Ctx) error {
	if err := ownForm(c); err != nil {
		return err
	}
	hash, sealed := c.Params("hash"), c.FormValue("session")
	if _, _, err := h.app.OpenSession(c.UserContext(), hash, sealed); err != nil {
		return toHTTP(err)
	}
	id, err := strconv.ParseInt(c.FormValue("order_id"), 10, 64)
	if err != nil {
		return h.renderOrders(c, fiber.StatusUnprocessableEntity, "", "no such order")
	}
	st, order, err := h.app.WaitingOrder(c.UserContext(), hash, sealed, id)
	var inputErr *proxy.InputError
	if asInput(err, &inputErr) {
		return h.renderOrders(c, fiber.StatusUnprocessableEntity, "", inputErr.Message)
	}
	if err != nil {
		return toHTTP(err)
	}
	made, err := h.svc.OrderLink(c.UserContext(), st, order.CartID)
	var limited *proxy.RateLimitedError
	if errors.As(err, &limited) {
		return h.renderOrders(c, fiber.StatusTooManyRequests, "", fmt.Sprintf("order %d's cart has had %d verifications started in the last hour; try again in %s",
			id, proxy.DefaultStartPerCart.Rate, limited.Result.RetryAfter.Round(time.Minute)))
	}
	if err != nil {
		return toHTTP(err)
	}
	h.log.Info("verification link made for an order", "store", st.Hash, "order", id, "verification", made.ID)
	return h.renderOrdersWith(c, fiber.StatusOK, "", "", &sentLink{OrderID: id, URL: made.URL, Test: st.TestMode})
}

// renderOrders writes the orders page for the form's session.
func (h *appHandlers) renderOrders(c *fiber.Ctx, status int, notice, formErr string) error {
	return h.renderOrdersWith(c, status, notice, formErr, nil)
}

func (h *appHandlers) renderOrdersWith(c *fiber.Ctx, status int, notice, formErr string, link *sentLink) error {
	hash, sealed := c.Params("hash"), c.FormValue("session")
	rows, err := h.app.Orders(c.UserContext(), hash, sealed)
	if err != nil {
		return toHTTP(err)
	}
	d := ordersData{
		Session: sealed, Orders: rows, Notice: notice, Error: formErr, Link: link,
		SettingsAction: appPath(settingsOpenPath, hash), OrdersAction: appPath(ordersPath, hash), ReviewAction: appPath(reviewPath, hash),
		LinkAction: appPath(orderLinkPath, hash),
	}
	return h.send(c, status, hash, ordersPage, d)
}

// reasons say a failed check in the merchant's words; a code not listed
// (a newer verifier's) is spelt out from the code itself.
var reasons = map[rulesets.Code]string{
	proxy.CodeNotVerified:              "the shopper has not verified",
	rulesets.CodeLicenseNotAuthentic:   "the ID does not look genuine",
	rulesets.CodeLicenseExpired:        "the ID has expired",
	rulesets.CodeSelfieNotLive:         "the selfie is not of a live person",
	rulesets.CodeFaceMatchUndetermined: "the selfie could not be compared with the ID's photo",
	rulesets.CodeFaceMatchBelowMinimum: "the selfie does not match the ID's photo closely enough",
	rulesets.CodeFaceMatchRejected:     "the selfie does not match the ID's photo",
	rulesets.CodeUnder18:               "the shopper is under 18",
	rulesets.CodeUnder21:               "the shopper is under 21",
	rulesets.CodeFieldMissing:          "the verification lacks a detail the rules need",
	rulesets.CodeFieldInvalid:          "a detail of the verification could not be read",
}

func reasonText(code rulesets.Code) string {
	if t, ok := reasons[code]; ok {
		return t
	}
	return strings.ReplaceAll(string(code), "_", " ")
}
