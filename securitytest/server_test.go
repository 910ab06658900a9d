package securitytest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/engines/enginestest"
	"github.com/idgate/idgate/verifier/flow"
	vhttp "github.com/idgate/idgate/verifier/http"
	devphone "github.com/idgate/idgate/verifier/phone/dev"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest"
)

// Limits of the server under attack: serve's defaults, except the upload
// bound (8 MB rather than 40, so the oversized probe stays cheap) and the
// sign-in limit (raised so malformed sign-ins reach the parser, not 429).
const (
	bodyLimit     = 1 << 20
	flowBodyLimit = 8 << 20
	probeTimeout  = 20 * time.Second // a hang is a failure, not a stuck test
)

var tokenConfig = verifier.TokenConfig{Issuer: "idgate", Audience: "idgate-api", TTL: time.Hour,
	Keys: []verifier.SigningKey{{ID: "k1", Secret: []byte("securitytest-signing-key-0123456789")}}}

// target is a running server and what an attacker needs to address it.
type target struct {
	t      *testing.T
	base   string
	client *http.Client
	store  *sqlstore.DB
}

// start serves the real verifier (every route: API, pages, flow on the real
// engines, webhook endpoints) on store over a loopback socket.
func start(t *testing.T, store *sqlstore.DB) *target {
	t.Helper()
	// A phone provider, so the phone step's endpoints are probed past
	// "no phone step" (the dev one: it sends nothing).
	ph, err := devphone.New("dev", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	v := verifiertest.Start(t, verifiertest.Options{Store: store, Tokens: &tokenConfig, Sealer: seal.Ephemeral(), Webhooks: true,
		Flow: &flow.Flow{Engines: enginestest.Memoized(t, 1), Phone: ph},
		Config: vhttp.Config{
			BodyLimit: bodyLimit, FlowBodyLimit: flowBodyLimit, ReadTimeout: 10 * time.Second, IdleTimeout: 10 * time.Second,
			AuthLimit:   ratelimit.Limit{Rate: 10000, Period: time.Minute},
			CreateLimit: vhttp.DefaultCreateLimit, GetLimit: vhttp.DefaultGetLimit,
			// Every probe of every upload route goes to one link, more
			// than the default 60 an hour once the ID card's two routes
			// joined (its 429 would hide the answer probed for); the
			// link's limit has its own tests (verifier/http).
			FlowUploadLimit: ratelimit.Limit{Rate: 10000, Period: time.Hour}, FlowChallengeLimit: vhttp.DefaultFlowChallengeLimit,
			PublicURL: "https://verify.example.test",
		}})
	tr := &http.Transport{}
	// Registered after Start's, so it runs first: idle keep-alive
	// connections would hold the server's shutdown.
	t.Cleanup(tr.CloseIdleConnections)
	return &target{t: t, base: v.URL, client: &http.Client{Transport: tr, Timeout: probeTimeout}, store: store}
}

type answer struct {
	status int
	header http.Header
	body   []byte
	err    error
}

// send makes one request; headers come as name, value pairs.
func (g *target) send(method, path, ctype string, body []byte, headers ...string) answer {
	req, err := http.NewRequest(method, g.base+path, strings.NewReader(string(body)))
	if err != nil {
		return answer{err: err}
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := g.client.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return answer{status: resp.StatusCode, header: resp.Header, body: b, err: err}
}

// announce sends a request whose Content-Length is n but whose body stops
// after 64 kB, then reads the answer: a server must refuse an oversized body
// from its length, without reading (or waiting for) all of it. An HTTP
// client cannot send this, as it fails on the reset that the early answer
// causes while it is still writing.
func (g *target) announce(method, path, ctype string, n int, headers ...string) answer {
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(g.base, "http://"), probeTimeout)
	if err != nil {
		return answer{err: err}
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(probeTimeout))
	var req strings.Builder
	fmt.Fprintf(&req, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n", method, path, strings.TrimPrefix(g.base, "http://"), n)
	if ctype != "" {
		fmt.Fprintf(&req, "Content-Type: %s\r\n", ctype)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		fmt.Fprintf(&req, "%s: %s\r\n", headers[i], headers[i+1])
	}
	req.WriteString("\r\n")
	if _, err := io.WriteString(conn, req.String()); err != nil {
		return answer{err: err}
	}
	_, _ = conn.Write(bytes.Repeat([]byte(" "), 64<<10)) // the server may stop reading
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return answer{status: resp.StatusCode, header: resp.Header, body: b, err: err}
}

// must sends and decodes a 2xx answer into out, failing the test otherwise.
func (g *target) must(method, path, body string, out any, headers ...string) {
	g.t.Helper()
	ctype := ""
	if body != "" {
		ctype = "application/json"
	}
	a := g.send(method, path, ctype, []byte(body), headers...)
	if a.err != nil || a.status/100 != 2 {
		g.t.Fatalf("%s %s: %d %v %s", method, path, a.status, a.err, a.body)
	}
	if out != nil {
		if err := json.Unmarshal(a.body, out); err != nil {
			g.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}
