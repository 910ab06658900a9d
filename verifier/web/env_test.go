package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/ratelimit/memory"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	verifierhttp "github.com/idgate/idgate/verifier/http"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// clock is real time plus an offset the test moves: the liveness judge
// compares frame times with the server's elapsed time, so time must pass
// for real, and an expired link needs days to pass at once.
type clock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}

// env is the real verifier (SQLite, real HTTP) on loopback with one
// account signed in.
type env struct {
	t      *testing.T
	URL    string
	clock  *clock
	store  verifier.Store
	bearer string
	logs   *testkit.LogBuffer
}

func start(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	store, err := sqlstore.Open(ctx, filepath.Join(t.TempDir(), "idgate.db")) // migrates
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	c := &clock{}
	auth, err := verifier.NewAuthenticator(store, verifier.TokenConfig{Issuer: "idgate", Audience: "idgate-api", TTL: time.Hour,
		Keys: []verifier.SigningKey{{ID: "k", Secret: []byte("0123456789abcdef0123456789abcdef")}}}, c.Now)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	logs := &testkit.LogBuffer{}
	srv, err := verifierhttp.New(verifierhttp.Deps{
		Store: store, Limiter: memory.New(c.Now), Auth: auth, Now: c.Now,
		Logger: slog.New(slog.NewJSONHandler(logs, nil)),
		Config: verifierhttp.Config{BodyLimit: 16 << 20, ReadTimeout: 30 * time.Second, IdleTimeout: 30 * time.Second, PublicURL: base},
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		<-done
	})
	e := &env{t: t, URL: base, clock: c, store: store, logs: logs}
	a, err := verifier.NewAccount("owner@example.com", "correct horse battery", c.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := store.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	e.signIn()
	return e
}

// signIn gets a fresh bearer token (after the clock moved past its life).
func (e *env) signIn() {
	e.t.Helper()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	e.bearer = ""
	e.call("POST", "/auth", `{"email":"owner@example.com","password":"correct horse battery"}`, 200, &tok)
	e.bearer = "Bearer " + tok.AccessToken
}

// call sends a request as the account holder and decodes the answer.
func (e *env) call(method, path, body string, want int, out any) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if e.bearer != "" {
		req.Header.Set("Authorization", e.bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		e.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	if out != nil {
		if err := json.NewDecoder(bytes.NewReader(raw)).Decode(out); err != nil {
			e.t.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
}

type created struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

// create makes a verification (body: the create request) and returns it.
func (e *env) create(body string) created {
	e.t.Helper()
	var c created
	e.call("POST", "/verification", body, 201, &c)
	return c
}

// status reads a verification's status as the account holder.
func (e *env) status(id string) string {
	e.t.Helper()
	var v struct {
		Status string `json:"status"`
	}
	e.call("GET", "/verification?id="+id, "", 200, &v)
	return v.Status
}
