package http

import (
	_ "embed"
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
	Session                                    string
	SettingsAction, OrdersAction, ReviewAction string
	Orders                                     []proxy.OrderRow
	Notice, Error                              string
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

// renderOrders writes the orders page for the form's session.
func (h *appHandlers) renderOrders(c *fiber.Ctx, status int, notice, formErr string) error {
	hash, sealed := c.Params("hash"), c.FormValue("session")
	rows, err := h.app.Orders(c.UserContext(), hash, sealed)
	if err != nil {
		return toHTTP(err)
	}
	d := ordersData{
		Session: sealed, Orders: rows, Notice: notice, Error: formErr,
		SettingsAction: appPath(settingsOpenPath, hash), OrdersAction: appPath(ordersPath, hash), ReviewAction: appPath(reviewPath, hash),
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
