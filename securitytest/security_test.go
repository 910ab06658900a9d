package securitytest

import (
	"bytes"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"image"
	"image/png"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/e2ee"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

func TestAttackEveryOperation(t *testing.T) {
	for _, b := range parts.Backends {
		t.Run(b.Name, func(t *testing.T) { attack(t, start(t, b.Open(t))) })
	}
}

// account is one tenant: its credentials and one object of every kind.
type account struct {
	id, bearer, key string
	cookie, csrf    string            // the dashboard session: Cookie header value and its CSRF token
	objects         map[string]string // kind → id: verification, template, passphrase_key
	token           string            // the link of a live verification (the flow's credential)
	snapshot        map[string][]byte // kind → its GET answer before the attack
	logo            []byte            // its logo as GET /me/logo answers it
}

// objectReads are the GETs whose answers must not change under attack.
var objectReads = map[string]string{
	"verification":   "/verification?id=",
	"template":       "/templates/",
	"passphrase_key": "/passphrase-keys/",
}

func newAccount(g *target, email string) *account {
	t := g.t
	t.Helper()
	pw := "correct horse battery staple " + email
	a, err := verifier.NewAccount(email, pw, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := g.store.CreateAccount(t.Context(), a); err != nil {
		t.Fatal(err)
	}
	acct := &account{id: a.ID, objects: map[string]string{}}
	var signedIn struct {
		AccessToken string `json:"access_token"`
	}
	g.must("POST", "/auth", fmt.Sprintf(`{"email":%q,"password":%q}`, email, pw), &signedIn)
	acct.bearer = "Bearer " + signedIn.AccessToken
	var session struct {
		CSRFToken string `json:"csrf_token"`
	}
	a2 := g.send("POST", "/dashboard/session", "application/json", []byte(fmt.Sprintf(`{"email":%q,"password":%q}`, email, pw)))
	if a2.status != 201 || json.Unmarshal(a2.body, &session) != nil || session.CSRFToken == "" {
		t.Fatalf("dashboard sign-in: %d %v %s", a2.status, a2.err, a2.body)
	}
	acct.cookie, _, _ = strings.Cut(a2.header.Get("Set-Cookie"), ";")
	acct.csrf = session.CSRFToken
	var key struct {
		Key string `json:"key"`
	}
	g.must("POST", "/integration-key", `{"allowed_domains":["shop.example.com"]}`, &key, "Authorization", acct.bearer)
	acct.key = key.Key
	var obj struct {
		ID  string `json:"id"`
		URL string `json:"url"`
	}
	g.must("POST", "/verification", `{"external_id":"order-1"}`, &obj, "Authorization", acct.bearer)
	acct.objects["verification"] = obj.ID
	g.must("POST", "/verification", `{}`, &obj, "Authorization", acct.bearer)
	acct.token = obj.URL[strings.LastIndex(obj.URL, "/")+1:]
	g.must("POST", "/templates", `{"name":"Age 21+","message":"hi"}`, &obj, "Authorization", acct.bearer)
	acct.objects["template"] = obj.ID
	g.must("POST", "/passphrase-keys", passphraseKey(t), &obj, "Authorization", acct.bearer)
	acct.objects["passphrase_key"] = obj.ID
	// A logo of its own (each account's a different colour), so GET
	// /me/logo is an account read like the others: the attacker gets 200
	// and its own image, never the victim's.
	if r := g.send("PUT", "/me/logo", "image/png", logoPNG(t, email), "Authorization", acct.bearer); r.status != 200 {
		t.Fatalf("PUT /me/logo: %d %v %s", r.status, r.err, r.body)
	}
	acct.logo = g.send("GET", "/me/logo", "", nil, "Authorization", acct.bearer).body
	acct.snapshot = g.snapshot(acct)
	return acct
}

// params are the account's own values for op's parameters, with token as
// the link token.
func (a *account) params(op operation, token string) func(name, in string) string {
	return func(name, in string) string {
		switch name {
		case "token":
			return token
		case "id":
			if in == "query" {
				return a.objects["verification"]
			}
			return a.objects[op.kind()]
		case "name":
			return "app.js"
		}
		return "00000000-0000-4000-8000-000000000000" // challenge ids and the like
	}
}

func (g *target) snapshot(a *account) map[string][]byte {
	out := map[string][]byte{}
	for kind, path := range objectReads {
		r := g.send("GET", path+url.QueryEscape(a.objects[kind]), "", nil, "Authorization", a.bearer)
		if r.status != 200 {
			g.t.Fatalf("read %s: %d %s", kind, r.status, r.body)
		}
		out[kind] = r.body
	}
	return out
}

func passphraseKey(t *testing.T) string {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	kdf, err := e2ee.DefaultKDFParams()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(e2ee.PassphraseKey{Name: "k", PublicKey: priv.PublicKey().Bytes(), KDF: kdf})
	return string(b)
}

// forgedTokens are bearer tokens for the victim that the server must refuse:
// signed with another key, unsigned (alg none), and expired (the server's
// own key, an hour past its lifetime).
func forgedTokens(t *testing.T, g *target, victim string) map[string]string {
	claims := jwt.RegisteredClaims{Issuer: tokenConfig.Issuer, Audience: jwt.ClaimStrings{tokenConfig.Audience}, Subject: victim,
		IssuedAt: jwt.NewNumericDate(time.Now()), ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Hour))}
	other := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
	other.Header["kid"] = tokenConfig.Keys[0].ID
	wrongKey, err := other.SignedString([]byte("not the server's key, same kid......"))
	if err != nil {
		t.Fatal(err)
	}
	none, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	past, err := verifier.NewAuthenticator(g.store, tokenConfig, func() time.Time { return time.Now().Add(-3 * time.Hour) })
	if err != nil {
		t.Fatal(err)
	}
	expired, err := past.Issue(victim)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"forged token (other key)": "Bearer " + wrongKey,
		"forged token (alg none)":  "Bearer " + none,
		"forged token (garbage)":   "Bearer " + base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte{0xff}, 64)),
		"expired token":            "Bearer " + expired.Token,
	}
}

// attack walks every operation of the served document with every probe.
func attack(t *testing.T, g *target) {
	victim := newAccount(g, "victim@example.com")
	attacker := newAccount(g, "attacker@example.com")
	ops := operations(t, g)
	forged := forgedTokens(t, g, victim.id)
	probes, requests := map[string]bool{}, 0
	pairs := 0

	for _, op := range ops {
		// Own ids: the victim's objects, so a refusal is about the probe,
		// not an unknown id.
		own := op.url(victim.params(op, victim.token))
		// held checks one answer: a 4xx in the error format (a page for page
		// operations), small, and when want says so, that status and detail
		// code.
		held := func(probe, path string, a answer, want ...expect) {
			t.Helper()
			requests++
			if !probes[probe] {
				probes[probe] = true
			}
			if a.err != nil {
				t.Errorf("%s %s [%s]: no answer within %s: %v", op.method, path, probe, probeTimeout, a.err)
				return
			}
			page := op.html && strings.HasPrefix(a.header.Get("Content-Type"), "text/html")
			switch {
			case a.status < 400 || a.status > 499 || (!page && !isErrorFormat(a.body)):
				t.Errorf("%s %s [%s]: %d %.300s", op.method, path, probe, a.status, a.body)
			case len(a.body) > maxAnswer:
				t.Errorf("%s %s [%s]: a %d-byte answer to a refusal", op.method, path, probe, len(a.body))
			case len(want) > 0 && !want[0].met(a):
				t.Errorf("%s %s [%s]: want %d %s, got %d %.300s", op.method, path, probe, want[0].status, want[0].detail, a.status, a.body)
			}
		}
		body := op.example
		if op.auth != "public" {
			pairs++
			held("no credentials", own, g.send(op.method, own, op.ctype, body), expect{status: 401})
			for name, tok := range forged {
				pairs++
				held(name, own, g.send(op.method, own, op.ctype, body, "Authorization", tok), expect{status: 401})
			}
			if op.cookieAuth() {
				pairs++
				held("integration key where not allowed", own, g.send(op.method, own, op.ctype, body,
					"X-API-Key", victim.key, "Origin", "https://shop.example.com"), expect{status: 403})
				pairs++
				name, _, _ := strings.Cut(victim.cookie, "=")
				held("forged session cookie", own, g.send(op.method, own, op.ctype, body,
					"Cookie", name+"="+base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte{0x5a}, 32))), expect{status: 401})
			}
			if op.cookieAuth() && op.changesState() {
				// CSRF: the victim's own cookie, as a foreign page would
				// make the browser send it, without the header.
				pairs++
				held("session cookie without the CSRF header", own, g.send(op.method, own, op.ctype, body, "Cookie", victim.cookie), expect{status: 403})
				pairs++
				held("session cookie with another session's CSRF token", own, g.send(op.method, own, op.ctype, body,
					"Cookie", victim.cookie, "X-CSRF-Token", attacker.csrf), expect{status: 403})
			}
		}
		if op.auth == "bearer" && op.takesID() {
			// The tenant matrix: the attacker's own credentials, the
			// victim's id of every kind.
			for kind, id := range victim.objects {
				path := op.url(func(name, in string) string {
					if name == "id" {
						return id
					}
					return victim.params(op, victim.token)(name, in)
				})
				pairs++
				held("other account's "+kind, path, g.send(op.method, path, op.ctype, op.minimal, "Authorization", attacker.bearer), expect{status: 404})
				pairs++
				held("other account's "+kind+" in a dashboard session", path, g.send(op.method, path, op.ctype, op.minimal,
					"Cookie", attacker.cookie, "X-CSRF-Token", attacker.csrf, "Idgate-Mode", "live"), expect{status: 404})
			}
		}
		if op.auth != "public" && op.method == "GET" && !op.takesID() && len(op.pathParams) == 0 {
			// Lists and account reads: the attacker's answer names none of
			// the victim's objects.
			pairs++
			requests++
			probes["other account's objects in lists"] = true
			cred := []string{"Authorization", attacker.bearer}
			if op.auth == "session" {
				cred = []string{"Cookie", attacker.cookie}
			}
			a := g.send(op.method, op.path, "", nil, cred...)
			if a.err != nil || a.status != 200 {
				t.Errorf("GET %s as the attacker: %d %v", op.path, a.status, a.err)
			}
			for kind, id := range victim.objects {
				if bytes.Contains(a.body, []byte(id)) {
					t.Errorf("GET %s as the attacker lists the victim's %s %s", op.path, kind, id)
				}
			}
			if op.path == "/me/logo" && (bytes.Equal(a.body, victim.logo) || !bytes.Equal(a.body, attacker.logo)) {
				t.Errorf("GET /me/logo as the attacker: not the attacker's own logo")
			}
		}
		if op.has("token") {
			path := op.url(victim.params(op, strings.Repeat("A", 43)))
			pairs++
			held("unknown link token", path, g.send(op.method, path, op.ctype, body), expect{status: 404})
		}
		if op.ctype != "" {
			auth := []string{}
			switch op.auth {
			case "public":
			case "session": // the cookie only: past it and its CSRF check, to the body
				auth = []string{"Cookie", victim.cookie, "X-CSRF-Token", victim.csrf}
			default:
				auth = []string{"Authorization", victim.bearer}
			}
			for name, b := range malformed {
				pairs++
				var want []expect
				if op.ctype == "application/json" {
					want = jsonWants[name]
				}
				held("malformed body: "+name, own, g.send(op.method, own, op.ctype, b, auth...), want...)
			}
			pairs++
			held("malformed body: over the server's limit", own, g.announce(op.method, own, op.ctype, flowBodyLimit+1, auth...), expect{status: 413})
		}
	}
	for _, a := range []*account{victim, attacker} {
		after := g.snapshot(a)
		for kind, before := range a.snapshot {
			if !bytes.Equal(before, after[kind]) {
				t.Errorf("%s's %s changed under attack:\n%s\n%s", a.id, kind, before, after[kind])
			}
		}
	}
	names := make([]string, 0, len(probes))
	for p := range probes {
		names = append(names, p)
	}
	sort.Strings(names)
	t.Logf("probes: %s", strings.Join(names, "; "))
	verdict := "all held"
	if t.Failed() {
		verdict = "SOME FAILED (see above)"
	}
	fmt.Printf("securitytest %s: %d operations × %d probes (%d applicable pairs, %d requests), %s\n",
		t.Name(), len(ops), len(probes), pairs, requests, verdict)
}

// isErrorFormat reports whether body is the one error format.
func isErrorFormat(body []byte) bool {
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	return json.Unmarshal(body, &e) == nil && e.Error.Code != "" && e.Error.Message != ""
}

// malformed are the bodies every operation that takes one must refuse,
// whatever its content type says.
var malformed = map[string][]byte{
	"invalid UTF-8":  []byte("{\"name\":\"\xff\xfe\xc0\xaf\",\"external_id\":\"\xff\"}"),
	"duplicate keys": []byte(`{"name":"a","name":"b","approved":true,"approved":false,"email":"a@b.c","email":"x@y.z"}`),
	"deep nesting":   []byte(strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000)),
	"huge array":     []byte(`{"requested_fields":[` + strings.Repeat(`"dob",`, 150000) + `"dob"]}`),
	"wrong types":    []byte(`{"name":1,"approved":"yes","email":[],"password":{},"allowed_domains":"x","lifetime_days":"7"}`),
	"not an object":  []byte(`["x",1,null]`),
	"truncated":      []byte(`{"name":"x`),
	"oversized":      bytes.Repeat([]byte(" "), bodyLimit+1),
}

// jsonWants are the exact refusals of malformed JSON bodies; the other
// malformed bodies may be refused with any 4xx.
var jsonWants = map[string][]expect{
	"invalid UTF-8":  {{status: 422, detail: "invalid_utf8"}},
	"duplicate keys": {{status: 422, detail: "duplicate_key"}},
	"truncated":      {{status: 400}},
	"oversized":      {{status: 413}},
}

// expect is an exact refusal: a status and, if set, a detail code.
type expect struct {
	status int
	detail string
}

func (e expect) met(a answer) bool {
	if a.status != e.status {
		return false
	}
	if e.detail == "" {
		return true
	}
	var b struct {
		Error struct {
			Details []struct {
				Field string `json:"field"`
				Code  string `json:"code"`
			} `json:"details"`
		} `json:"error"`
	}
	return json.Unmarshal(a.body, &b) == nil && len(b.Error.Details) == 1 &&
		b.Error.Details[0].Code == e.detail && b.Error.Details[0].Field != ""
}

// maxAnswer bounds the answer to a refused request: a refusal that grows
// with the request is an amplifier.
const maxAnswer = 64 << 10

// logoPNG is a 64×32 PNG in a colour derived from seed.
func logoPNG(t *testing.T, seed string) []byte {
	t.Helper()
	h := fnv.New32a()
	h.Write([]byte(seed))
	v := h.Sum32()
	img := image.NewRGBA(image.Rect(0, 0, 64, 32))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = byte(v), byte(v>>8), byte(v>>16), 255
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
