package http

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

const (
	localLogger     = "idgate.logger"
	localBaseLogger = "idgate.base_logger"
	localRequestID  = "idgate.request_id"
	// localUnreadable is why fasthttp could not read a request
	// (serverError), for its access line.
	localUnreadable = "idgate.unreadable"
	headerID        = "X-Request-ID"
	maxRequestID    = 128
)

// Logger is the request's logger; every line carries request_id. It is
// made on first use: most requests log only their access line, which
// finish writes with the ID itself, and a logger With an attribute costs
// every request a handler copy with the attribute formatted.
func Logger(c *fiber.Ctx) *slog.Logger {
	if l, ok := c.Locals(localLogger).(*slog.Logger); ok {
		return l
	}
	base, ok := c.Locals(localBaseLogger).(*slog.Logger)
	if !ok {
		return slog.Default()
	}
	l := base.With("request_id", RequestID(c))
	c.Locals(localLogger, l)
	return l
}

// RequestID is the request's ID (incoming X-Request-ID if sane, else new).
func RequestID(c *fiber.Ctx) string {
	id, _ := c.Locals(localRequestID).(string)
	return id
}

// saneRequestID accepts IDs from upstream proxies only when they are short
// and made of characters that cannot forge log fields or headers.
func saneRequestID(id string) bool {
	if id == "" || len(id) > maxRequestID {
		return false
	}
	for i := 0; i < len(id); i++ {
		ch := id[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '_' || ch == '.' || ch == ':') {
			return false
		}
	}
	return true
}

// begin gives the request its ID and the server's logger, which Logger
// turns into the request's.
func (s *Server) begin(c *fiber.Ctx) {
	// Cloned: c.Get aliases a buffer fasthttp reuses after the request, and
	// RequestID's callers may keep the ID longer.
	id := strings.Clone(c.Get(headerID))
	if !saneRequestID(id) {
		id = uuid.NewString()
	}
	c.Set(headerID, id)
	c.Locals(localRequestID, id)
	c.Locals(localBaseLogger, s.log)
}

// observe is the outermost middleware: request ID, panic recovery, errors
// written in the error format, then one access-log line and the metrics.
func (s *Server) observe(c *fiber.Ctx) error {
	start := time.Now()
	s.begin(c)
	if err := s.nextRecovered(c); err != nil {
		if werr := s.respond(c, err); werr != nil {
			Logger(c).Error("write error response", "err", werr)
		}
	}
	s.finish(c, start)
	return nil
}

func (s *Server) nextRecovered(c *fiber.Ctx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			c.Response().ResetBody()
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return c.Next()
}

// routeLabel is the matched route pattern. Requests that matched none (only
// the global middleware ran, at "/") and requests refused before routing
// (fiber then reports the raw path with no handlers) share one label, so
// metrics cardinality stays bounded whatever paths clients send.
func routeLabel(c *fiber.Ctx) string {
	r := c.Route()
	if len(r.Handlers) == 0 || r.Path == "/" && c.Path() != "/" {
		return "unmatched"
	}
	return r.Path
}

// methodLabel returns a constant string: fiber's c.Method() aliases a
// request buffer that is reused later (a label kept in the registry would
// change under it), and unknown methods must not grow the label set.
func methodLabel(c *fiber.Ctx) string {
	switch m := c.Method(); m {
	case fiber.MethodGet:
		return fiber.MethodGet
	case fiber.MethodHead:
		return fiber.MethodHead
	case fiber.MethodPost:
		return fiber.MethodPost
	case fiber.MethodPut:
		return fiber.MethodPut
	case fiber.MethodPatch:
		return fiber.MethodPatch
	case fiber.MethodDelete:
		return fiber.MethodDelete
	case fiber.MethodOptions:
		return fiber.MethodOptions
	}
	return "OTHER"
}

// logPath is path as the access log writes it: an end user's link token,
// the link's only credential (stored hashed), is left out.
func logPath(path string) string {
	rest, ok := strings.CutPrefix(path, "/v/")
	if !ok {
		return path
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return "/v/{token}" + rest[i:]
	}
	return "/v/{token}"
}

// finish writes the access line (typed attributes, request_id first as on
// every other line of the request) and the metrics.
func (s *Server) finish(c *fiber.Ctx, start time.Time) {
	elapsed := time.Since(start)
	status := c.Response().StatusCode()
	route := routeLabel(c)
	s.metrics.observe(methodLabel(c), route, status, elapsed)
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	attrs := []slog.Attr{slog.String("request_id", RequestID(c)),
		slog.String("method", c.Method()), slog.String("path", logPath(c.Path())), slog.String("route", route), slog.Int("status", status),
		slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000), slog.Int("bytes", len(c.Response().Body())),
		slog.String("ip", s.clientIP(c))}
	if cause, ok := c.Locals(localUnreadable).(string); ok {
		attrs = append(attrs, slog.String("unreadable", cause))
	}
	s.log.LogAttrs(c.UserContext(), level, "request", attrs...)
}

// unreadableCause is fasthttp's reason for a request it could not read,
// for the log, without the request's bytes: its messages go on with
// "Buffer size=…, contents: …", a snippet of the request that may hold
// a link token, a cookie or an Authorization header.
func unreadableCause(msg string) string {
	for _, cut := range []string{"Buffer size=", "contents:"} {
		if i := strings.Index(msg, cut); i >= 0 {
			msg = msg[:i]
		}
	}
	msg = strings.TrimRight(strings.TrimSpace(msg), ".,")
	if r := []rune(msg); len(r) > 120 {
		msg = string(r[:120])
	}
	return msg
}
