package verifierapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/idgate/idgate/proxy"
)

func TestCreateVerification(t *testing.T) {
	var got struct {
		key, origin, ctype string
		body               map[string]any
	}
	answer := func(w http.ResponseWriter, status int, body string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
	var status int
	var reply string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/verification" || r.Header.Get("Authorization") != "" {
			answer(w, 404, `{}`)
			return
		}
		got.key, got.origin, got.ctype = r.Header.Get("X-API-Key"), r.Header.Get("Origin"), r.Header.Get("Content-Type")
		_ = json.NewDecoder(r.Body).Decode(&got.body)
		answer(w, status, reply)
	}))
	defer srv.Close()
	c, err := New(srv.URL, 0)
	if err != nil {
		t.Fatal(err)
	}
	req := proxy.CreateRequest{IntegrationKey: "idgk_1", Origin: "https://shop.example", ExternalID: "v1.ref",
		WebhookURL: "https://proxy.example/hook", WebhookHeaders: map[string]string{"X-Idgate-Proxy-Auth": "v"}}

	status, reply = 201, `{"id":"abc","url":"https://verify.example/v/abc","status":"pending"}`
	out, err := c.CreateVerification(context.Background(), req)
	if err != nil || out != (proxy.Created{ID: "abc", URL: "https://verify.example/v/abc"}) {
		t.Fatalf("create: %+v %v", out, err)
	}
	if got.key != "idgk_1" || got.origin != "https://shop.example" || got.ctype != "application/json" ||
		got.body["external_id"] != "v1.ref" || got.body["webhook_url"] != "https://proxy.example/hook" ||
		got.body["webhook_headers"].(map[string]any)["X-Idgate-Proxy-Auth"] != "v" || len(got.body) != 3 {
		t.Fatalf("request sent: %+v", got)
	}

	for name, c2 := range map[string]struct {
		status  int
		reply   string
		refused bool
		code    string
	}{
		"quota":           {402, `{"error":{"code":"QUOTA_EXCEEDED"}}`, true, "QUOTA_EXCEEDED"},
		"origin":          {403, `{"error":{"code":"ORIGIN_NOT_ALLOWED"}}`, true, "ORIGIN_NOT_ALLOWED"},
		"not JSON 500":    {500, `oops`, true, ""},
		"no url":          {201, `{"id":"abc"}`, false, ""},
		"not JSON 201":    {201, `<html>`, false, ""},
		"javascript: url": {201, `{"id":"a","url":"javascript:alert(1)"}`, false, ""},
	} {
		status, reply = c2.status, c2.reply
		_, err := c.CreateVerification(context.Background(), req)
		var re *RefusedError
		switch {
		case err == nil:
			t.Errorf("%s: accepted", name)
		case c2.refused && (!errors.As(err, &re) || re.Status != c2.status || re.Code != c2.code || !errors.Is(err, ErrRefused)):
			t.Errorf("%s: %v", name, err)
		case !c2.refused && errors.Is(err, ErrRefused):
			t.Errorf("%s: %v is not a refusal", name, err)
		}
	}
	if _, err := New("ftp://x", 0); err == nil {
		t.Fatal("ftp base URL accepted")
	}
}
