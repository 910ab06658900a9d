package http

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/widget"
)

// widgetCacheControl: browsers keep the script a day and may use a stale
// copy for a week while revalidating by ETag, so a new release reaches
// every storefront within a day without a new script URL.
const widgetCacheControl = "public, max-age=86400, stale-while-revalidate=604800"

func serveWidget(b *widget.Bundle) fiber.Handler {
	return func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderCacheControl, widgetCacheControl)
		c.Set(fiber.HeaderETag, b.ETag)
		c.Vary(fiber.HeaderAcceptEncoding)
		// Storefronts are other origins; let pages with COEP load it.
		c.Set("Cross-Origin-Resource-Policy", "cross-origin")
		if etagMatches(c.Get(fiber.HeaderIfNoneMatch), b.ETag) {
			return c.SendStatus(fiber.StatusNotModified)
		}
		c.Set(fiber.HeaderContentType, "text/javascript; charset=utf-8")
		if acceptsGzip(c.Get(fiber.HeaderAcceptEncoding)) {
			c.Set(fiber.HeaderContentEncoding, "gzip")
			return c.Send(b.Gzip)
		}
		return c.Send(b.JS)
	}
}

func etagMatches(header, etag string) bool {
	for _, v := range strings.Split(header, ",") {
		v = strings.TrimPrefix(strings.TrimSpace(v), "W/")
		if v == etag || v == "*" {
			return true
		}
	}
	return false
}

// acceptsGzip honours "gzip;q=0" as a refusal.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
