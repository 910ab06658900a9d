package proxy

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"testing"
	"time"
)

func sign(secret string, at time.Time, body string) string {
	ts := strconv.FormatInt(at.Unix(), 10)
	return "t=" + ts + ",v1=" + hmacHex(secret, ts+"."+body)
}

func hmacHex(secret, msg string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(msg))
	return hex.EncodeToString(m.Sum(nil))
}

func TestVerifySignatureMapsToWebhookAuth(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	body := `{"request_id":"x"}`
	good := sign("whsec_a", now, body)
	old := sign("whsec_old", now, body)
	rotated := good + ",v1=" + old[len(old)-64:]
	cases := []struct {
		name   string
		header string
		body   string
		ok     bool
	}{
		{"valid", good, body, true},
		{"rotation: second v1 matches", sign("whsec_old", now, body) + "," + good[len(good)-67:], body, true},
		{"rotation: first matches", rotated, body, true},
		{"unknown scheme ignored", good + ",v2=abc", body, true},
		{"4 min old", sign("whsec_a", now.Add(-4*time.Minute), body), body, true},
		{"6 min old", sign("whsec_a", now.Add(-6*time.Minute), body), body, false},
		{"6 min ahead", sign("whsec_a", now.Add(6*time.Minute), body), body, false},
		{"other body", good, body + " ", false},
		{"other secret", sign("whsec_b", now, body), body, false},
		{"no v1", "t=" + strconv.FormatInt(now.Unix(), 10), body, false},
		{"no t", good[len("t=1800000000,"):], body, false},
		{"two t", "t=1," + good, body, false},
		{"short v1", "t=1800000000,v1=abcd", body, false},
		{"empty", "", body, false},
		{"huge t", "t=99999999999999999999,v1=" + good[len(good)-64:], body, false},
	}
	for _, c := range cases {
		err := verifySignature([]byte("whsec_a"), c.header, []byte(c.body), now, DefaultSignatureTolerance)
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok=%v", c.name, err, c.ok)
		}
		if err != nil && !errors.Is(err, ErrWebhookAuth) {
			t.Errorf("%s: %v does not wrap ErrWebhookAuth", c.name, err)
		}
	}
	if err := verifySignature(nil, good, []byte(body), now, DefaultSignatureTolerance); err == nil {
		t.Error("empty secret accepted")
	}
}
