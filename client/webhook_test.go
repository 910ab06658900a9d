package client

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Known answer computed independently with
// printf '%s' '1700000000.{"request_id":"r1"}' | openssl dgst -sha256 -hmac whsec_test
const (
	kaSecret = "whsec_test"
	kaBody   = `{"request_id":"r1"}`
	kaSig    = "3b7a30bf0550f9be20e42debfd7b9bc14bb4dc2b93607c91cebe18d6e16e594f"
)

var kaTime = time.Unix(1700000000, 0)

func TestVerifySignatureKnownAnswer(t *testing.T) {
	h := "t=1700000000,v1=" + kaSig
	if err := VerifySignature([]byte(kaSecret), h, []byte(kaBody), kaTime.Add(time.Minute), 0); err != nil {
		t.Fatalf("valid signature refused: %v", err)
	}
	// The signer produces the same header.
	if got := Sign([][]byte{[]byte(kaSecret)}, kaTime, []byte(kaBody)); got != h {
		t.Fatalf("Sign = %q, want %q", got, h)
	}
}

func TestVerifySignatureRotation(t *testing.T) {
	old, cur := []byte("whsec_old"), []byte("whsec_new")
	body := []byte(`{"request_id":"r2","verification":{}}`)
	h := Sign([][]byte{cur, old}, kaTime, body)
	for _, s := range [][]byte{old, cur} {
		if err := VerifySignature(s, h, body, kaTime, time.Minute); err != nil {
			t.Errorf("secret %s refused: %v", s, err)
		}
	}
	if err := VerifySignature([]byte("whsec_other"), h, body, kaTime, time.Minute); !errors.Is(err, ErrSignatureMismatch) {
		t.Errorf("third secret: got %v, want ErrSignatureMismatch", err)
	}
}

func TestVerifySignatureRejects(t *testing.T) {
	good := "t=1700000000,v1=" + kaSig
	flipped := "t=1700000000,v1=" + strings.Replace(kaSig, "3b", "3c", 1)
	cases := []struct {
		name   string
		header string
		body   string
		now    time.Time
		tol    time.Duration
		want   error
	}{
		{"altered body", good, kaBody + " ", kaTime, 0, ErrSignatureMismatch},
		{"altered timestamp", strings.Replace(good, "1700000000", "1700000001", 1), kaBody, kaTime, 0, ErrSignatureMismatch},
		{"altered signature", flipped, kaBody, kaTime, 0, ErrSignatureMismatch},
		{"too old (default 5 min)", good, kaBody, kaTime.Add(5*time.Minute + time.Second), 0, ErrSignatureExpired},
		{"too far in the future", good, kaBody, kaTime.Add(-6 * time.Minute), 0, ErrSignatureExpired},
		{"custom tolerance", good, kaBody, kaTime.Add(11 * time.Second), 10 * time.Second, ErrSignatureExpired},
		{"empty", "", kaBody, kaTime, 0, ErrSignatureHeader},
		{"no v1", "t=1700000000", kaBody, kaTime, 0, ErrSignatureHeader},
		{"no t", "v1=" + kaSig, kaBody, kaTime, 0, ErrSignatureHeader},
		{"two t", "t=1700000000,t=1700000000,v1=" + kaSig, kaBody, kaTime, 0, ErrSignatureHeader},
		{"bad t", "t=abc,v1=" + kaSig, kaBody, kaTime, 0, ErrSignatureHeader},
		{"short v1", "t=1700000000,v1=3b7a", kaBody, kaTime, 0, ErrSignatureHeader},
		{"non-hex v1", "t=1700000000,v1=" + strings.Repeat("zz", 32), kaBody, kaTime, 0, ErrSignatureHeader},
		{"item without =", good + ",junk", kaBody, kaTime, 0, ErrSignatureHeader},
		{"too long", good + "," + strings.Repeat("x=1,", 2000), kaBody, kaTime, 0, ErrSignatureHeader},
	}
	for _, c := range cases {
		err := VerifySignature([]byte(kaSecret), c.header, []byte(c.body), c.now, c.tol)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

func TestVerifySignatureTolerates(t *testing.T) {
	// Spaces after commas and unknown schemes (a future v2) are accepted.
	h := fmt.Sprintf("t=1700000000, v2=abc, v1=%s", kaSig)
	if err := VerifySignature([]byte(kaSecret), h, []byte(kaBody), kaTime.Add(-5*time.Minute), 0); err != nil {
		t.Fatalf("got %v", err)
	}
}

func FuzzVerifySignature(f *testing.F) {
	f.Add("t=1700000000,v1="+kaSig, []byte(kaBody))
	f.Add("t=1,v1=00,v1=", []byte{})
	f.Add(",,=,t=", []byte("x"))
	f.Fuzz(func(t *testing.T, header string, body []byte) {
		err := VerifySignature([]byte(kaSecret), header, body, kaTime, 0)
		if err == nil {
			// Only a genuine signature may pass: re-sign and compare. Hex
			// digits are decoded, so their case does not matter.
			want := Sign([][]byte{[]byte(kaSecret)}, kaTime, body)
			if !strings.Contains(strings.ToLower(header), want[strings.Index(want, "v1="):]) {
				t.Fatalf("accepted %q for body %q", header, body)
			}
		}
	})
}

// A receiver checks the signature on the raw body before trusting it.
func ExampleVerifySignature() {
	secret := []byte("whsec_...") // from the dashboard, shown once
	handler := func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "read error", http.StatusBadRequest)
			return
		}
		if err := VerifySignature(secret, r.Header.Get(SignatureHeader), body, time.Now(), 0); err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		// Deduplicate on Idgate-Delivery-Id (or request_id) before acting.
		fmt.Println("verified delivery", r.Header.Get("Idgate-Delivery-Id"))
		w.WriteHeader(http.StatusNoContent)
	}

	body := []byte(`{"request_id":"r1","verification":{}}`)
	req := httptest.NewRequest(http.MethodPost, "/hooks/idgate", bytes.NewReader(body))
	req.Header.Set(SignatureHeader, Sign([][]byte{secret}, time.Now(), body))
	req.Header.Set("Idgate-Delivery-Id", "d-1")
	handler(httptest.NewRecorder(), req)

	req = httptest.NewRequest(http.MethodPost, "/hooks/idgate", bytes.NewReader([]byte(`{"forged":true}`)))
	req.Header.Set(SignatureHeader, Sign([][]byte{secret}, time.Now(), body))
	rec := httptest.NewRecorder()
	handler(rec, req)
	fmt.Println("forged body:", rec.Code)
	// Output:
	// verified delivery d-1
	// forged body: 401
}
