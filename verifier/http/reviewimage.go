package http

import (
	nethttp "net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
)

// reviewImageTypes are the image formats the flow accepts, so the only
// ones a kept image can have.
var reviewImageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/webp": true}

// reviewImage is GET /verification/review/image?id=&kind=: an image the
// flow kept for manual review (the license front, the passport's data
// page, the ID card's front, the selfie). Under the
// none mode it is opened with the server key and sent as the image itself;
// sealed to the account's key (custom, passphrase) it is sent as the
// sealed JSON document, which only the account holder can open (the
// dashboard opens it in the page, `idgate decrypt` on a computer). Gone
// after the purge (404).
func (s *Server) reviewImage(c *fiber.Ctx) error {
	a, _ := Account(c)
	id, err := queryID(c)
	if err != nil {
		return err
	}
	v, err := s.verifications.Get(c.UserContext(), a.ID, id)
	if err != nil {
		return err
	}
	kind := flow.ReviewImage(c.Query("kind"))
	if kind != flow.ReviewLicenseFront && kind != flow.ReviewPassportPage && kind != flow.ReviewIDCardFront && kind != flow.ReviewSelfie {
		return httperr.Validation(problem.Detail{Field: "kind", Code: "invalid_value", Message: "must be license_front, passport_page, id_card_front or selfie"})
	}
	imgs, err := s.flow.Store.ReviewImages(c.UserContext(), a.ID, v.ID)
	if err != nil {
		return err
	}
	sealed, ok := imgs[kind]
	if !ok {
		return httperr.New(httperr.NotFound, "no such review image: never taken, or purged")
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	settings, err := verifier.ParseSettings(v.Options)
	if err != nil {
		return err
	}
	if settings.EncryptionKeyMode.Sealed() {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(sealed)
	}
	img, err := s.flow.OpenReviewImage(v.ID, kind, sealed)
	if err != nil {
		return err
	}
	ctype := nethttp.DetectContentType(img)
	if !reviewImageTypes[ctype] {
		ctype = fiber.MIMEOctetStream
	}
	c.Set(fiber.HeaderContentType, ctype)
	c.Set(fiber.HeaderContentDisposition, "inline")
	return c.Send(img)
}
