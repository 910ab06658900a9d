package http

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"testing"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier/e2ee"
)

// TestReviewImageEndpoint: the images kept for review are served to their
// account only: opened under none, as the sealed document under custom
// (which the key holder opens), never to another account, gone after the
// purge.
func TestReviewImageEndpoint(t *testing.T) {
	h := newFlowHarness(t, openSQLite)
	_, otherBearer := h.owner()
	img := func(bearer, id, kind string, headers ...string) response {
		return h.do("GET", "/verification/review/image?id="+id+"&kind="+kind, "", append([]string{"Authorization", bearer}, headers...)...)
	}

	// none: the server opens the image and sends it.
	v, tok := h.link(`{"requested_fields":["dob"],"encryption_key_mode":"none"}`)
	front := frontPhoto(t, foremanFace(t), 6)
	h.ok(h.post(tok, "/license/front", "image/jpeg", front), 200, nil)
	r := img(h.bearer, v.ID, "license_front")
	if r.status != 200 || r.header.Get("Content-Type") != "image/jpeg" || r.header.Get("Cache-Control") != "no-store" || !bytes.Equal(r.body, front) {
		t.Fatalf("license_front: %d %v (%d bytes, want the %d uploaded)", r.status, r.header, len(r.body), len(front))
	}
	expectError(t, img(h.bearer, v.ID, "selfie"), 404, httperr.NotFound) // not taken yet
	expectError(t, img(otherBearer, v.ID, "license_front"), 404, httperr.NotFound)
	expectError(t, img(h.bearer, v.ID, "passport"), 422, httperr.ValidationFailed)
	expectError(t, h.do("GET", "/verification/review/image?kind=selfie", "", "Authorization", h.bearer), 422, httperr.ValidationFailed)
	// The dashboard's session reads it too.
	cookie, _ := h.dashboardSignIn(h.acct.Email, "correct horse battery staple")
	if r := h.do("GET", "/verification/review/image?id="+v.ID+"&kind=license_front", "", "Cookie", cookie, "Idgate-Mode", "live"); r.status != 200 || !bytes.Equal(r.body, front) {
		t.Fatalf("with the session cookie: %d", r.status)
	}

	// custom: the sealed document, which the account's key opens.
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	body, _ := json.Marshal(map[string]any{"requested_fields": []string{"dob"}, "encryption_key_mode": "custom",
		"encryption_key": string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))})
	sv, stok := h.link(string(body))
	h.ok(h.post(stok, "/license/front", "image/jpeg", front), 200, nil)
	r = img(h.bearer, sv.ID, "license_front")
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("sealed license_front: %d %v", r.status, r.header)
	}
	hdr, err := e2ee.ReadHeader(r.body)
	if err != nil {
		t.Fatal(err)
	}
	session, err := e2ee.CustomOpener(priv)(hdr)
	if err != nil {
		t.Fatal(err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(r.body, &members); err != nil {
		t.Fatal(err)
	}
	env, err := e2ee.ParseSealedMember(members["license_front"])
	if err != nil {
		t.Fatal(err)
	}
	if got, err := session.OpenMember("license_front", env); err != nil || !bytes.Equal(got, front) {
		t.Fatalf("the account's key opened %d bytes, %v", len(got), err)
	}
	if bytes.Contains(r.body, front[100:164]) {
		t.Fatal("the sealed document carries the image in clear")
	}

	// Canceled and swept: the images are gone.
	h.ok(h.do("POST", "/verification/cancel?id="+v.ID, "", "Authorization", h.bearer), 200, nil)
	if _, err := h.flow.PurgeDue(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	expectError(t, img(h.bearer, v.ID, "license_front"), 404, httperr.NotFound)
}

// The reviewer's reason rides in the decided result (and so in its
// webhook); a bad one is refused before anything changes.
func TestReviewDecisionReason(t *testing.T) {
	h := newFlowHarness(t, openSQLite)
	v, tok := h.link(`{"webhook_url":"` + h.rcv.URL + `"}`)
	h.steps(tok, frontPhoto(t, labeledFace(t, "sheldon/sheldon2.png"), 2))
	h.ok(h.post(tok, "/submit", "", nil), 200, nil)
	h.ok(h.post(tok, "/review", "", nil), 200, nil)
	h.delivered(1)
	review := func(body string) response {
		return h.do("POST", "/verification/review?id="+v.ID, body, "Authorization", h.bearer)
	}
	e := expectError(t, review(`{"approved":true,"reason":"tab\there"}`), 422, httperr.ValidationFailed)
	if e.Details[0].Field != "reason" || e.Details[0].Code != "control_character" {
		t.Fatalf("details %+v", e.Details)
	}
	var got verificationResponse
	h.ok(review(`{"approved":true,"reason":"Same person; the license photo is ten years old"}`), 200, &got)
	var res struct {
		Verification map[string]any `json:"verification"`
	}
	if err := json.Unmarshal(got.Result, &res); err != nil || res.Verification["review_reason"] != "Same person; the license photo is ten years old" ||
		res.Verification["webcam_face_matches_license_photo"] != true {
		t.Fatalf("decided result %s", got.Result)
	}
	bodies := h.delivered(2)
	if !bytes.Equal(bodies[1], got.Result) || bytes.Contains(bodies[0], []byte("review_reason")) {
		t.Fatalf("second delivery is not the decided result:\n%s\n%s", bodies[1], got.Result)
	}
}
