package lobtest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/address/lob/lobtest"
)

// The double catches requests that break Lob's document and refuses a
// wrong key without calling that a breach.
func TestDoubleChecksTheContract(t *testing.T) {
	var violations []string
	d, err := lobtest.New(lobtest.Options{Dir: testkit.Data(t, "testdata", "lob"), APIKey: "live_k",
		OnViolation: func(m string) { violations = append(violations, m) }})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	post := func(key, body string) int {
		req, _ := http.NewRequest("POST", d.URL+"/us_verifications", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth(key, "")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post("live_other", `{"primary_line":"210 KING ST","zip_code":"94107"}`); code != 401 || len(violations) != 0 {
		t.Errorf("wrong key: %d %v", code, violations)
	}
	if code := post("live_k", `{"city":"SAN FRANCISCO","state":"CA"}`); code != 422 || len(violations) != 1 {
		t.Errorf("no primary_line: %d %v", code, violations)
	}
	if code := post("live_k", `{"primary_line":"210 KING ST","zip_code":"9410"}`); code != 422 || len(violations) != 2 {
		t.Errorf("a four-digit ZIP code: %d %v", code, violations)
	}
	if code := post("live_k", `{"primary_line":"210 KING ST","zip_code":"94107"}`); code != 200 || len(violations) != 2 {
		t.Errorf("a valid request: %d %v", code, violations)
	}
}
