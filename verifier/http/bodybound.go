package http

import (
	"fmt"
	"io"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
)

// Every route reads its body through bound, at most its own limit (the
// route table's body column): fasthttp reads a body of up to
// Config.BodyLimit before any handler and streams a longer one
// (StreamRequestBody), so a 40 MiB body sent to POST /auth is refused after
// its headers, not after 40 MiB of it sit in memory.
//
// A body over the limit is answered 413. Its rest is read and thrown away
// when it is at most drainMax (nothing of it is kept), so that a client
// still sending sees the answer and may keep the connection; a longer or
// endless rest is not read, and the connection closes after the answer
// (the unread rest cannot be taken for the next request). With cut set,
// the handler gets the body's first limit+1 bytes instead and refuses it
// in its own words: a license photo over the flow's bound is
// "image_too_large", which the page explains, however large it is.
func (s *Server) bound(limit int, cut bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		req := c.Request()
		if !req.IsBodyStream() {
			return c.Next()
		}
		declared := req.Header.ContentLength() // -1: chunked, length unknown
		if declared > limit && !cut {
			return tooLarge(c, limit, declared)
		}
		size := limit + 1
		if declared >= 0 && declared < size {
			size = declared
		}
		body, err := readUpTo(req.BodyStream(), size, limit+1)
		if err != nil {
			c.Context().SetConnectionClose()
			return httperr.New(httperr.BadRequest, "the request body could not be read to its end")
		}
		if len(body) > limit {
			if !cut {
				return tooLarge(c, limit, declared)
			}
			discardRest(c, declared)
		}
		req.SetBody(body)
		return c.Next()
	}
}

func tooLarge(c *fiber.Ctx, limit, declared int) error {
	discardRest(c, declared)
	return httperr.New(httperr.PayloadTooLarge, fmt.Sprintf("the request body is over this endpoint's limit of %d bytes", limit))
}

// drainMax and drainTime bound how much of a refused body's rest is read
// and thrown away, and for how long. A client that sends the whole body
// before reading the answer (Go's, most scripts) sees a 413 instead of a
// reset connection when the rest fits; 16 MiB is read in well under a
// second on a phone network's upload rates above 150 Mbit/s, and costs only
// a 4 KiB buffer.
const (
	drainMax  = 16 << 20
	drainTime = 2 * time.Second
)

// discardRest reads and throws away what is left of the request body when
// it is declared at most drainMax (chunked bodies up to drainMax), and
// marks the connection to close when anything is left unread.
func discardRest(c *fiber.Ctx, declared int) {
	req := c.Request()
	if declared > drainMax || !req.IsBodyStream() {
		c.Context().SetConnectionClose()
		return
	}
	conn := c.Context().Conn()
	_ = conn.SetReadDeadline(time.Now().Add(drainTime))
	n, err := io.CopyN(io.Discard, req.BodyStream(), drainMax+1)
	_ = conn.SetReadDeadline(time.Time{})
	if err != io.EOF || n > drainMax {
		c.Context().SetConnectionClose()
	}
	_ = req.CloseBodyStream()
}

// readUpTo reads r to its end or to max bytes, whichever comes first, into
// a buffer sized for the expected length (no doubling copies of a 40 MiB
// liveness answer).
func readUpTo(r io.Reader, expect, max int) ([]byte, error) {
	buf := make([]byte, 0, expect)
	lr := io.LimitReader(r, int64(max))
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// closeUnread closes the connection after an answer that left a streamed
// body unread (a route that is not there, a method it does not take): the
// rest of that body would otherwise be read as the next request on the
// connection. A body within Config.BodyLimit was read whole by fasthttp
// and leaves the connection usable.
func (s *Server) closeUnread(c *fiber.Ctx) error {
	err := c.Next()
	req := c.Request()
	if n := req.Header.ContentLength(); req.IsBodyStream() && (n < 0 || n > s.cfg.BodyLimit) {
		c.Context().SetConnectionClose()
	}
	return err
}
