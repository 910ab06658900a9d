package proxytest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/google/uuid"
)

// Created is one create-verification request the stand-in verifier served.
type Created struct {
	ID             string
	Origin         string
	ExternalID     string            `json:"external_id"`
	WebhookURL     string            `json:"webhook_url"`
	WebhookHeaders map[string]string `json:"webhook_headers"`
}

// Verifier stands in for the verifier's POST /verification (issue #3, not
// built yet) with the integration-key rules of the interface spec: X-API-Key
// must be the key, Origin one of its allowlist, else 401/403 in the error
// format; success is 201 {"id","url"}.
type Verifier struct {
	URL       string
	Key       string
	Allowlist []string

	mu      sync.Mutex
	created []Created
}

// Created lists what was created, oldest first.
func (v *Verifier) Created() []Created {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]Created(nil), v.created...)
}

// ServeHTTP implements the create endpoint.
func (v *Verifier) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fail := func(status int, code string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": code, "message": code}})
	}
	if r.Method != http.MethodPost || r.URL.Path != "/verification" {
		fail(http.StatusNotFound, "NOT_FOUND")
		return
	}
	if r.Header.Get("X-API-Key") != v.Key {
		fail(http.StatusUnauthorized, "UNAUTHENTICATED")
		return
	}
	allowed := false
	for _, o := range v.Allowlist {
		allowed = allowed || o == r.Header.Get("Origin")
	}
	if !allowed {
		fail(http.StatusForbidden, "ORIGIN_NOT_ALLOWED")
		return
	}
	var c Created
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&c); err != nil {
		fail(http.StatusBadRequest, "MALFORMED_JSON")
		return
	}
	c.ID, c.Origin = uuid.NewString(), r.Header.Get("Origin")
	v.mu.Lock()
	v.created = append(v.created, c)
	v.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]string{"id": c.ID, "url": v.URL + "/v/" + c.ID})
}

// start serves v on loopback.
func (v *Verifier) start() *httptest.Server {
	srv := httptest.NewServer(v)
	v.URL = srv.URL
	return srv
}
