package twiliotest_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/phone/twilio/twiliotest"
)

// The double catches requests that break Twilio's documents, and refuses
// wrong credentials without calling that a breach.
func TestDoubleChecksTheContract(t *testing.T) {
	var violations []string
	d, err := twiliotest.New(twiliotest.Options{Dir: testkit.Data(t, "testdata", "twilio"), AccountSID: "AC" + strings.Repeat("1", 32),
		AuthToken: "tok", OnViolation: func(msg string) { violations = append(violations, msg) }})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	post := func(path, user, pass string, form url.Values) int {
		req, _ := http.NewRequest("POST", d.URL+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(user, pass)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	service := "/v2/Services/VA" + strings.Repeat("2", 32) + "/Verifications"
	user := "AC" + strings.Repeat("1", 32)
	if code := post(service, user, "wrong", url.Values{"To": {"+12015550123"}, "Channel": {"sms"}, "CustomCode": {"123456"}}); code != 401 || len(violations) != 0 {
		t.Errorf("wrong credentials: %d, violations %v", code, violations)
	}
	if code := post(service, user, "tok", url.Values{"To": {"+12015550123"}}); code != 400 || len(violations) != 1 {
		t.Errorf("no Channel (required): %d, violations %v", code, violations)
	}
	if code := post("/v2/Services/VAshort/Verifications", user, "tok", url.Values{"To": {"+1"}, "Channel": {"sms"}}); code != 400 || len(violations) != 2 {
		t.Errorf("a malformed service SID: %d, violations %v", code, violations)
	}
	if code := post("/v1/Nothing", user, "tok", nil); code != 404 || len(violations) != 3 {
		t.Errorf("an unknown path: %d, violations %v", code, violations)
	}
	if code := post(service, user, "tok", url.Values{"To": {"+12015550123"}, "Channel": {"sms"}, "CustomCode": {"123456"}}); code != 201 || len(violations) != 3 {
		t.Errorf("a valid request: %d, violations %v", code, violations)
	}
}
