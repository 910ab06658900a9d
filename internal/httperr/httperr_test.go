package httperr

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/problem"
)

// serve runs one request through an app whose only handler returns err and
// returns the response, its decoded body and what was logged.
func serve(t *testing.T, err error) (*http.Response, Body, string) {
	t.Helper()
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	app := fiber.New(fiber.Config{ErrorHandler: ErrorHandler(func(*fiber.Ctx) *slog.Logger { return log })})
	app.Get("/x", func(*fiber.Ctx) error { return err })
	resp, rerr := app.Test(httptest.NewRequest("GET", "/x", nil))
	if rerr != nil {
		t.Fatal(rerr)
	}
	raw, _ := io.ReadAll(resp.Body)
	var body Body
	if jerr := json.Unmarshal(raw, &body); jerr != nil {
		t.Fatalf("body %q: %v", raw, jerr)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("content type %q", ct)
	}
	return resp, body, logs.String()
}

func TestEveryCodeHasAnErrorStatus(t *testing.T) {
	for code, status := range Codes() {
		if status < 400 || status > 599 {
			t.Errorf("%s → %d", code, status)
		}
		if e := New(code, "m"); e.Status != status || e.Code != code {
			t.Errorf("New(%s) = %d %s", code, e.Status, e.Code)
		}
	}
}

func TestNewPanicsOnUnlistedCode(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for an unlisted code")
		}
	}()
	New("NOT_IN_TABLE", "m")
}

func TestValidationBodyCarriesDetails(t *testing.T) {
	resp, body, _ := serve(t, Validation(problem.Detail{Field: "webhook_url", Code: "must_be_https", Message: "use https"}))
	if resp.StatusCode != 422 || body.Error.Code != ValidationFailed {
		t.Fatalf("got %d %s", resp.StatusCode, body.Error.Code)
	}
	if len(body.Error.Details) != 1 || body.Error.Details[0].Field != "webhook_url" || body.Error.Details[0].Code != "must_be_https" {
		t.Fatalf("details %+v", body.Error.Details)
	}
}

func TestQuotaCarriesVerificationTypeAndHeaders(t *testing.T) {
	e := New(QuotaExceeded, "no allowance left")
	e.VerificationType = "full"
	e.Headers = map[string]string{"Retry-After": "7"}
	resp, body, _ := serve(t, e)
	if resp.StatusCode != 402 || body.Error.VerificationType != "full" || resp.Header.Get("Retry-After") != "7" {
		t.Fatalf("got %d %+v %v", resp.StatusCode, body, resp.Header)
	}
	if body.Error.Details != nil {
		t.Fatalf("details on a non-validation error: %+v", body.Error.Details)
	}
}

func TestInternalNeverLeaksButIsLogged(t *testing.T) {
	resp, body, logs := serve(t, errors.New("pq: password authentication failed for user secret"))
	if resp.StatusCode != 500 || body.Error.Code != Internal {
		t.Fatalf("got %d %s", resp.StatusCode, body.Error.Code)
	}
	if strings.Contains(body.Error.Message, "secret") {
		t.Fatalf("cause leaked: %q", body.Error.Message)
	}
	if !strings.Contains(logs, "secret") {
		t.Fatalf("cause not logged: %q", logs)
	}
}

func TestFiberErrorsMapThroughTable(t *testing.T) {
	cases := map[int]Code{404: NotFound, 405: MethodNotAllowed, 413: PayloadTooLarge, 408: RequestTimeout, 415: UnsupportedMediaType, 431: BadRequest, 502: Internal}
	for status, want := range cases {
		resp, body, _ := serve(t, fiber.NewError(status))
		if body.Error.Code != want || resp.StatusCode != Codes()[want] {
			t.Errorf("fiber %d → %d %s, want %s", status, resp.StatusCode, body.Error.Code, want)
		}
	}
}

func TestWrappedErrorKeepsCode(t *testing.T) {
	_, body, _ := serve(t, errors.Join(errors.New("ctx"), New(Conflict, "taken")))
	if body.Error.Code != Conflict {
		t.Fatalf("got %s", body.Error.Code)
	}
}

func TestValidationDetailsBounded(t *testing.T) {
	many := make([]problem.Detail, 1000)
	for i := range many {
		many[i] = problem.Detail{Field: fmt.Sprintf("items[%d]", i), Code: "invalid", Message: "x"}
	}
	e := Validation(many...)
	if len(e.Details) != MaxDetails || e.Details[MaxDetails-2].Field != fmt.Sprintf("items[%d]", MaxDetails-2) ||
		e.Details[MaxDetails-1].Code != "more_details" || !strings.Contains(e.Details[MaxDetails-1].Message, "951 more") {
		t.Fatalf("%d details, last %+v", len(e.Details), e.Details[len(e.Details)-1])
	}
	if e := Validation(many[:3]...); len(e.Details) != 3 {
		t.Fatalf("short list changed: %d", len(e.Details))
	}
}

// A connection that sends nothing before the read timeout (a browser's
// connection opened ahead of need) gets 408 REQUEST_TIMEOUT on the wire, in
// the error format, and is closed: browsers send their request again on
// 408, which they do not on 400.
func TestIdleNewConnectionGetsRequestTimeout(t *testing.T) {
	app := fiber.New(fiber.Config{ReadTimeout: 200 * time.Millisecond, DisableStartupMessage: true,
		ErrorHandler: ErrorHandler(func(*fiber.Ctx) *slog.Logger { return slog.New(slog.DiscardHandler) })})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go app.Listener(ln) //nolint:errcheck // ends with Shutdown
	t.Cleanup(func() { _ = app.Shutdown() })
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	var body Body
	if err := json.Unmarshal(raw, &body); err != nil || resp.StatusCode != 408 || body.Error.Code != RequestTimeout {
		t.Fatalf("idle connection answered %d %q (%v)", resp.StatusCode, raw, err)
	}
	if !resp.Close {
		t.Errorf("the connection is kept open after a 408")
	}
}
