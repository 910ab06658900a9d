package http

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

const (
	localLogger    = "idgate.logger"
	localRequestID = "idgate.request_id"
	headerID       = "X-Request-ID"
	maxRequestID   = 128
)

// Logger is the request's logger; every line carries request_id.
func Logger(c *fiber.Ctx) *slog.Logger {
	if l, ok := c.Locals(localLogger).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
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

// begin gives the request its ID and logger.
func (s *Server) begin(c *fiber.Ctx) *slog.Logger {
	id := c.Get(headerID)
	if !saneRequestID(id) {
		id = uuid.NewString()
	}
	c.Set(headerID, id)
	log := s.log.With("request_id", id)
	c.Locals(localRequestID, id)
	c.Locals(localLogger, log)
	return log
}

// observe is the outermost middleware: request ID, panic recovery, errors
// written in the error format, then one access-log line and the metrics.
func (s *Server) observe(c *fiber.Ctx) error {
	start := time.Now()
	log := s.begin(c)
	if err := s.nextRecovered(c); err != nil {
		if werr := s.respond(c, err); werr != nil {
			log.Error("write error response", "err", werr)
		}
	}
	s.finish(c, log, start)
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

// routeLabel is the matched route pattern; requests that matched none share
// one label so metrics cardinality stays bounded.
func routeLabel(c *fiber.Ctx) string {
	r := c.Route()
	if r == nil || r.Path == "/" && c.Path() != "/" {
		return "unmatched"
	}
	return r.Path
}

func (s *Server) finish(c *fiber.Ctx, log *slog.Logger, start time.Time) {
	elapsed := time.Since(start)
	status := c.Response().StatusCode()
	route := routeLabel(c)
	s.metrics.observe(c.Method(), route, status, elapsed)
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	log.Log(c.UserContext(), level, "request",
		"method", c.Method(), "path", c.Path(), "route", route, "status", status,
		"duration_ms", float64(elapsed.Microseconds())/1000, "bytes", len(c.Response().Body()), "ip", s.clientIP(c))
}
