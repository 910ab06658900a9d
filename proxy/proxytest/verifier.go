package proxytest

import (
	"encoding/json"
	"html/template"
	"net/http"
	"net/http/httptest"
	"strings"
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

// Verifier stands in for the verifier's POST /verification (not
// built yet) with the integration-key rules of the interface spec: X-API-Key
// must be the key, Origin one of its allowlist, else 401/403 in the error
// format; success is 201 {"id","url"}. The url is a page of its own where a
// demo user picks a passing or failing result, which is then delivered as a
// signed webhook, as the end-user flow will once it exists.
type Verifier struct {
	URL       string
	Key       string
	Allowlist []string
	// deliver sends a signed webhook body to a store's receiver.
	deliver func(hash string, body []byte) error

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
	if strings.HasPrefix(r.URL.Path, "/v/") {
		v.endUser(w, r)
		return
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

var endUserPage = template.Must(template.New("v").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>idgate demo verification</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:480px;margin:40px auto;padding:0 16px}button{font:inherit;padding:10px 16px;margin:4px}</style></head>
<body><h1>Demo verification</h1>
{{if .Sent}}<p role="status">The {{.Sent}} result was sent to the store. Go back to the store tab: it updates by itself.</p>
{{else}}<p>The end-user flow (license scan, liveness, face match) is not built yet. Choose the result the verifier should report:</p>
<form method="post"><button name="result" value="pass">Passing result</button><button name="result" value="fail">Failing result (no face match)</button></form>{{end}}
</body></html>`))

// endUser serves /v/{id}: pick a result, and it is delivered.
func (v *Verifier) endUser(w http.ResponseWriter, r *http.Request) {
	id := strings.TrimPrefix(r.URL.Path, "/v/")
	var c *Created
	v.mu.Lock()
	for i := range v.created {
		if v.created[i].ID == id {
			c = &v.created[i]
		}
	}
	v.mu.Unlock()
	if c == nil {
		http.NotFound(w, r)
		return
	}
	data := struct{ Sent string }{}
	if r.Method == http.MethodPost {
		result := r.FormValue("result")
		var over map[string]any
		if result != "pass" {
			result, over = "failing", map[string]any{"face_match_score": "no_match", "webcam_face_matches_license_photo": false}
		} else {
			result = "passing"
		}
		_, rest, ok := strings.Cut(c.WebhookURL, "/stores/")
		hash, _, _ := strings.Cut(rest, "/")
		if !ok || v.deliver == nil {
			http.Error(w, "no webhook delivery for "+c.WebhookURL, http.StatusInternalServerError)
			return
		}
		if err := v.deliver(hash, Result(c.ID, c.ExternalID, over)); err != nil {
			http.Error(w, "webhook delivery failed: "+err.Error(), http.StatusBadGateway)
			return
		}
		data.Sent = result
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = endUserPage.Execute(w, data)
}
