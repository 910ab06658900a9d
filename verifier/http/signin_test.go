package http

import (
	"bytes"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/idgate/idgate/internal/httperr"
	rlredis "github.com/idgate/idgate/internal/ratelimit/redis"
)

func TestSignInThenMe(t *testing.T) {
	h := newHarness(t)
	a := h.account("Owner@Example.com", "correct horse battery staple")
	r := h.do("POST", "/auth", `{"email":"  owner@EXAMPLE.com","password":"correct horse battery staple"}`)
	if r.status != 200 || r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("%d %v %s", r.status, r.header, r.body)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
		ExpiresIn   int    `json:"expires_in"`
	}
	r.json(t, &tok)
	if tok.TokenType != "Bearer" || tok.ExpiresIn != 3600 || tok.AccessToken == "" {
		t.Fatalf("%+v", tok)
	}
	if r.header.Get("RateLimit-Limit") != "5" || r.header.Get("RateLimit-Remaining") != "4" {
		t.Fatalf("rate-limit headers %v", r.header)
	}
	me := h.do("GET", "/me", "", "Authorization", "Bearer "+tok.AccessToken)
	var got accountResponse
	me.json(t, &got)
	if me.status != 200 || got.ID != a.ID || got.Email != "owner@example.com" || !got.CreatedAt.Equal(a.CreatedAt) {
		t.Fatalf("%d %+v", me.status, got)
	}
}

func TestWrongEmailAndWrongPasswordLookTheSame(t *testing.T) {
	h := newHarness(t)
	h.account("owner@example.com", "correct horse battery staple")
	wrongPw := h.do("POST", "/auth", `{"email":"owner@example.com","password":"wrong password!"}`)
	unknown := h.do("POST", "/auth", `{"email":"nobody@example.com","password":"wrong password!"}`)
	expectError(t, wrongPw, 401, httperr.Unauthenticated)
	expectError(t, unknown, 401, httperr.Unauthenticated)
	if !bytes.Equal(wrongPw.body, unknown.body) {
		t.Fatalf("bodies differ:\n%s\n%s", wrongPw.body, unknown.body)
	}
	for _, name := range []string{"Content-Type", "WWW-Authenticate", "RateLimit-Limit"} {
		if wrongPw.header.Get(name) != unknown.header.Get(name) {
			t.Errorf("header %s differs", name)
		}
	}
}

func TestSignInValidation(t *testing.T) {
	h := newHarness(t)
	e := expectError(t, h.do("POST", "/auth", `{"email":"","password":""}`), 422, httperr.ValidationFailed)
	if len(e.Details) != 2 || e.Details[0].Field != "email" || e.Details[1].Field != "password" || e.Details[0].Code != "required" {
		t.Fatalf("%+v", e.Details)
	}
	// The schema's format and lengths, before any account is looked up.
	long := strings.Repeat("p", 1025)
	for body, want := range map[string]string{
		`{"email":"not an address","password":"x"}`:                        "email:invalid_email",
		`{"email":"Jane <jane@example.com>","password":"x"}`:               "email:invalid_email",
		`{"email":"` + strings.Repeat("a", 250) + `@x.io","password":"x"}`: "email:invalid_email",
		`{"email":"owner@example.com","password":"` + long + `"}`:          "password:too_long",
	} {
		e := expectError(t, h.do("POST", "/auth", body), 422, httperr.ValidationFailed)
		if len(e.Details) != 1 || e.Details[0].Field+":"+e.Details[0].Code != want {
			t.Errorf("%.60s: %+v, want %s", body, e.Details, want)
		}
	}
	// An address that merely differs in case or spacing signs in.
	h.account("owner@example.com", "correct horse battery staple")
	if r := h.do("POST", "/auth", `{"email":" Owner@Example.com ","password":"correct horse battery staple"}`); r.status != 200 {
		t.Fatalf("normalised address: %d %s", r.status, r.body)
	}
}

// TestSignInLimitPerIP: 5 attempts a minute from one address, whatever the
// e-mail; the 6th is refused before the password is even checked, and the
// limit recovers as the (injected) clock moves.
func TestSignInLimitPerIP(t *testing.T) {
	h := newHarness(t)
	h.account("owner@example.com", "correct horse battery staple")
	for i := 0; i < 5; i++ {
		r := h.do("POST", "/auth", `{"email":"guess`+strconv.Itoa(i)+`@example.com","password":"wrong password"}`)
		expectError(t, r, 401, httperr.Unauthenticated)
	}
	r := h.do("POST", "/auth", `{"email":"owner@example.com","password":"correct horse battery staple"}`)
	expectError(t, r, 429, httperr.RateLimited)
	if r.header.Get("Retry-After") != "12" || r.header.Get("RateLimit-Remaining") != "0" || r.header.Get("X-RateLimit-Limit") != "5" {
		t.Fatalf("headers %v", r.header)
	}
	h.clock.Advance(11 * time.Second)
	expectError(t, h.do("POST", "/auth", `{"email":"owner@example.com","password":"correct horse battery staple"}`), 429, httperr.RateLimited)
	h.clock.Advance(time.Second)
	if r := h.do("POST", "/auth", `{"email":"owner@example.com","password":"correct horse battery staple"}`); r.status != 200 {
		t.Fatalf("after waiting: %d %s", r.status, r.body)
	}
}

// TestSignInLimitPerEmail: attempts on one e-mail from many addresses (via a
// trusted proxy's X-Forwarded-For) are limited too; another e-mail is not.
func TestSignInLimitPerEmail(t *testing.T) {
	h := newHarness(t, func(d *Deps) { d.Config.TrustedProxies = []string{"127.0.0.0/8"} })
	h.account("owner@example.com", "correct horse battery staple")
	h.account("other@example.com", "another good password")
	for i := 0; i < 5; i++ {
		r := h.do("POST", "/auth", `{"email":"owner@example.com","password":"wrong password"}`, "X-Forwarded-For", "203.0.113."+strconv.Itoa(i+1))
		expectError(t, r, 401, httperr.Unauthenticated)
	}
	r := h.do("POST", "/auth", `{"email":"Owner@Example.com","password":"correct horse battery staple"}`, "X-Forwarded-For", "198.51.100.1")
	expectError(t, r, 429, httperr.RateLimited)
	if r := h.do("POST", "/auth", `{"email":"other@example.com","password":"another good password"}`, "X-Forwarded-For", "198.51.100.1"); r.status != 200 {
		t.Fatalf("other e-mail: %d %s", r.status, r.body)
	}
}

// TestForwardedForIgnoredFromUntrustedPeers: without trusted proxies a
// client cannot dodge the IP limit by inventing X-Forwarded-For.
func TestForwardedForIgnoredFromUntrustedPeers(t *testing.T) {
	h := newHarness(t)
	for i := 0; i < 5; i++ {
		h.do("POST", "/auth", `{"email":"g`+strconv.Itoa(i)+`@example.com","password":"wrong password"}`, "X-Forwarded-For", "203.0.113."+strconv.Itoa(i+1))
	}
	r := h.do("POST", "/auth", `{"email":"g9@example.com","password":"wrong password"}`, "X-Forwarded-For", "198.51.100.9")
	expectError(t, r, 429, httperr.RateLimited)
}

// deadRedis is the real Redis limiter pointed at a port nothing listens on.
func deadRedis(t *testing.T) *rlredis.Limiter {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	client := goredis.NewClient(&goredis.Options{Addr: addr, MaxRetries: -1})
	t.Cleanup(func() { client.Close() })
	return rlredis.New(client, "idgate:rl:", time.Now)
}

// TestLimiterDownFailsClosed: with Redis unreachable, sign-in is refused
// with 503 rather than left unlimited, and the cause stays in logs.
func TestLimiterDownFailsClosed(t *testing.T) {
	h := newHarness(t, func(d *Deps) { d.Limiter = deadRedis(t) })
	h.account("owner@example.com", "correct horse battery staple")
	r := h.do("POST", "/auth", `{"email":"owner@example.com","password":"correct horse battery staple"}`)
	expectError(t, r, 503, httperr.Unavailable)
	if r.header.Get("Retry-After") != "1" || bytes.Contains(r.body, []byte("127.0.0.1")) {
		t.Fatalf("%v %s", r.header, r.body)
	}
	if !bytes.Contains([]byte(h.logs.String()), []byte("connection refused")) {
		t.Fatal("cause not logged")
	}
}
