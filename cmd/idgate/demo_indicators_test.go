package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// demoIndicators is docs/optional-checks.md's request for a demo verification
// with every indicator ("Seeing them in the demo").
const demoIndicators = `{"phone_verification":true,"address_verification":true,"location_consistency":true,"encryption_key_mode":"none"}`

// TestDemoVerificationIndicators follows that recipe on serve --dev
// with make run's settings (the IP data, IDGATE_DEV_CLIENT_IP, the dev
// providers by default): as the demo account a live verification asking
// for every indicator is Full and its link has the phone step (the dev
// provider is offered); the same request in test mode, its phone step
// walked with the test code and finished through test/complete, carries
// phone_verification, address_verification, ip_found and
// location_consistency.
func TestDemoVerificationIndicators(t *testing.T) {
	inTempDir(t)
	t.Setenv("IDGATE_IP_DATA_DIR", ipDataForTest(t))
	t.Setenv("IDGATE_DEV_CLIENT_IP", "174.198.1.1")
	base, lines, stop := startServe(t)
	defer stop()
	var password string
	for _, l := range lines {
		if _, after, ok := strings.Cut(l, "demo account created: email demo@idgate.local password "); ok {
			password = after
		}
	}
	call := func(method, path, bearer, body string, want int, out any) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
		}
		if out != nil {
			if err := json.Unmarshal(raw, out); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
		}
	}
	signIn := func(mode string) string {
		var tok struct {
			AccessToken string `json:"access_token"`
		}
		body, _ := json.Marshal(map[string]string{"email": "demo@idgate.local", "password": password, "mode": mode})
		call("POST", "/auth", "", string(body), 200, &tok)
		return tok.AccessToken
	}
	type created struct {
		ID, URL, Type string
	}
	create := func(bearer string) (created, string) {
		var c created
		call("POST", "/verification", bearer, demoIndicators, 201, &c)
		_, link, _ := strings.Cut(c.URL, "/v/")
		return c, link
	}

	live := signIn("live")
	c, link := create(live)
	var v struct {
		Type string `json:"type"`
	}
	call("GET", "/verification?id="+c.ID, live, "", 200, &v)
	var s struct {
		Steps []struct {
			Name string `json:"name"`
		} `json:"steps"`
	}
	call("GET", "/v/"+link+"/session", "", "", 200, &s)
	if v.Type != "full" || len(s.Steps) != 4 || s.Steps[3].Name != "phone" {
		t.Fatalf("live demo verification: type %q, steps %+v; want full with the phone step", v.Type, s.Steps)
	}

	test := signIn("test")
	c, link = create(test)
	call("POST", "/v/"+link+"/phone", "", `{"phone_number":"+12175550177"}`, 200, nil)
	call("POST", "/v/"+link+"/phone/verify", "", `{"code":"000000"}`, 200, nil)
	call("POST", "/v/"+link+"/test/complete", "", `{"outcome":"verified"}`, 200, nil)
	var got struct {
		Status string                     `json:"status"`
		Result map[string]json.RawMessage `json:"result"`
	}
	call("GET", "/verification?id="+c.ID, test, "", 200, &got)
	for _, member := range []string{"phone_verification", "address_verification", "location_consistency"} {
		if _, ok := got.Result[member]; !ok {
			t.Errorf("test demo verification (%s) lacks %s: %s", got.Status, member, mustMarshal(got.Result))
		}
	}
	if !strings.Contains(string(got.Result["verification"]), `"ip_found":true`) {
		t.Errorf("verification %s: want ip_found", got.Result["verification"])
	}
	if p := string(got.Result["phone_verification"]); !strings.Contains(p, `"phone_verified":true`) || !strings.Contains(p, `"last_3_digits":"177"`) {
		t.Errorf("phone_verification %s: want the walked number, verified", p)
	}
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return bytes.TrimSpace(b)
}
