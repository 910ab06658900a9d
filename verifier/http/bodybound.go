package http

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
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
		body, err := readUpTo(s.paced(c, req.BodyStream()), size, limit+1)
		if err != nil {
			c.Context().SetConnectionClose()
			if tooSlow(err) {
				return httperr.New(httperr.RequestTimeout, fmt.Sprintf("the request body came slower than %d bytes a second, or paused longer than %v; send it again", minBodyRate, s.cfg.ReadTimeout))
			}
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

// A streamed body's time is bounded by its pace, not by
// Config.ReadTimeout. fasthttp's ReadTimeout bounds a whole request, and a
// phone's liveness answer (about 150 frames, 2.5 MB of Foreman's and more
// of a real camera's) takes 15 s and more on a mobile uplink of 1.35
// Mbit/s (Chrome's "Fast 4G"): at the 15 s default it was cut off
// however often the person tried. So each read of a streamed body must
// come within ReadTimeout of the one before (nginx's client_body_timeout),
// and from ReadTimeout on the body's mean rate must stay at least
// minBodyRate (ASP.NET Core Kestrel's MinRequestBodyDataRate), so that a
// sender trickling bytes cannot hold a connection: either answers 408.
// 16 KiB a second is 128 kbit/s, under any 3G uplink; at it the largest
// liveness answer the engines take (40 MiB) would take 43 minutes, and a
// phone's of 5 MB five.
const minBodyRate = 16 << 10

// errTooSlow: a streamed body fell under minBodyRate.
var errTooSlow = errors.New("request body under the minimum rate")

// tooSlow says whether a body's read failed on its pace: under
// minBodyRate, or a pause past its read deadline.
func tooSlow(err error) bool {
	var ne net.Error
	return errors.Is(err, errTooSlow) || errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// paced wraps a streamed body so that its reads keep the pace above; with
// no ReadTimeout, the body is read as it comes.
func (s *Server) paced(c *fiber.Ctx, r io.Reader) io.Reader {
	if s.cfg.ReadTimeout <= 0 {
		return r
	}
	return &pacedBody{r: r, conn: c.Context().Conn(), pause: s.cfg.ReadTimeout, start: time.Now()}
}

type pacedBody struct {
	r     io.Reader
	conn  net.Conn
	pause time.Duration
	start time.Time
	got   int
}

func (p *pacedBody) Read(b []byte) (int, error) {
	now := time.Now()
	if took := now.Sub(p.start); took > p.pause && float64(p.got) < minBodyRate*took.Seconds() {
		return 0, errTooSlow
	}
	_ = p.conn.SetReadDeadline(now.Add(p.pause))
	n, err := p.r.Read(b)
	p.got += n
	if err != nil {
		// fasthttp sets the next request's deadline itself.
		_ = p.conn.SetReadDeadline(time.Time{})
	}
	return n, err
}

// firstBuf is what readUpTo holds before any of the body came.
const firstBuf = 64 << 10

// readUpTo reads r to its end or to max bytes, whichever comes first. Its
// buffer doubles as the body comes, up to the expected length, so that a
// body declared at 40 MiB and sent slowly holds about what was sent, not
// what was declared (a 5 MB liveness answer is copied 7 times on its way,
// 8 MB in all: milliseconds beside its upload).
func readUpTo(r io.Reader, expect, max int) ([]byte, error) {
	buf := make([]byte, 0, min(expect, firstBuf))
	lr := io.LimitReader(r, int64(max))
	for {
		if len(buf) == cap(buf) {
			if cap(buf) < expect {
				grown := make([]byte, len(buf), min(2*cap(buf)+1, expect))
				copy(grown, buf)
				buf = grown
			} else {
				buf = append(buf, 0)[:len(buf)]
			}
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
