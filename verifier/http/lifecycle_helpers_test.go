package http

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/idgate/idgate/verifier"
)

var accountSeq atomic.Int64

// owner creates a fresh account and signs it in.
func (h *harness) owner() (verifier.Account, string) {
	h.t.Helper()
	email := fmt.Sprintf("owner%d@example.com", accountSeq.Add(1))
	a := h.account(email, "correct horse battery staple")
	return a, h.signIn(email, "correct horse battery staple")
}

// resign signs a (made by owner) in again: tokens live an hour, and tests
// move the clock further.
func (h *harness) resign(a verifier.Account) string {
	h.t.Helper()
	return h.signIn(a.Email, "correct horse battery staple")
}

// create posts body to POST /verification with bearer and decodes a 201.
func (h *harness) create(bearer, body string) verificationResponse {
	h.t.Helper()
	r := h.do("POST", "/verification", body, "Authorization", bearer)
	if r.status != 201 {
		h.t.Fatalf("create %s: %d %s", body, r.status, r.body)
	}
	var v verificationResponse
	r.json(h.t, &v)
	return v
}

// get reads one verification through the API.
func (h *harness) get(bearer, id string) verificationResponse {
	h.t.Helper()
	r := h.do("GET", "/verification?id="+id, "", "Authorization", bearer)
	if r.status != 200 {
		h.t.Fatalf("get %s: %d %s", id, r.status, r.body)
	}
	var v verificationResponse
	r.json(h.t, &v)
	return v
}

// token is the link token of a created verification's url.
func token(t *testing.T, v verificationResponse) string {
	t.Helper()
	tok, ok := strings.CutPrefix(v.URL, testPublicURL+"/v/")
	if !ok {
		t.Fatalf("url %q is not under %s/v/", v.URL, testPublicURL)
	}
	return tok
}

// validationCodes maps each detail's field to its code.
func validationCodes(t *testing.T, r response) map[string]string {
	t.Helper()
	e := expectError(t, r, 422, "VALIDATION_FAILED")
	out := map[string]string{}
	for _, d := range e.Details {
		if _, dup := out[d.Field]; dup {
			t.Errorf("two details for %s: %+v", d.Field, e.Details)
		}
		out[d.Field] = d.Code
	}
	return out
}

func rsaPEM(t *testing.T, bits int) string {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, bits)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}
