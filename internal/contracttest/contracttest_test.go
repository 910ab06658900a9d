package contracttest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

const doc = `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
 "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}},
 "security": [{"key": []}],
 "paths": {"/things": {"post": {
  "requestBody": {"required": true, "content": {"application/json": {"schema": {
   "type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}},
  "responses": {"201": {"description": "made", "content": {"application/json": {"schema": {
   "type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}}}}}}}}}`

func router(t *testing.T) []routers.Router {
	t.Helper()
	d, err := openapi3.NewLoader().LoadFromData([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	r, err := gorillamux.NewRouter(d)
	if err != nil {
		t.Fatal(err)
	}
	return []routers.Router{r}
}

func auth(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	if in.RequestValidationInput.Request.Header.Get("X-Key") != "k" {
		return errors.New("wrong key")
	}
	return nil
}

func post(path, key, body string) (*http.Request, []byte) {
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if key != "" {
		r.Header.Set("X-Key", key)
	}
	return r, []byte(body)
}

func TestRequest(t *testing.T) {
	rs := router(t)
	r, body := post("/nothing", "k", `{"name":"a"}`)
	if in, err := Request(rs, r, body, auth); !errors.Is(err, ErrNoOperation) || in != nil {
		t.Errorf("unknown path: %v, %v; want ErrNoOperation and no input", in, err)
	}
	r, body = post("/things", "wrong", `{"name":"a"}`)
	if in, err := Request(rs, r, body, auth); !errors.Is(err, ErrUnauthorized) || in == nil {
		t.Errorf("wrong key: %v, %v; want ErrUnauthorized with the input", in, err)
	}
	r, body = post("/things", "wrong", `{"nom":"a"}`)
	if _, err := Request(rs, r, body, auth); err == nil || errors.Is(err, ErrUnauthorized) {
		t.Errorf("wrong key and body: %v; want a contract violation", err)
	}
	r, body = post("/things", "k", `{"name":"a"}`)
	in, err := Request(rs, r, body, auth)
	if err != nil {
		t.Fatalf("valid request: %v", err)
	}
	again, _ := io.ReadAll(in.Request.Body)
	if string(again) != `{"name":"a"}` {
		t.Errorf("body after validation %q, want it readable again", again)
	}

	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Type", "application/json")
	rec.WriteHeader(http.StatusCreated)
	_, _ = rec.WriteString(`{"id":1}`)
	if err := Response(in, rec); err != nil {
		t.Errorf("documented answer: %v", err)
	}
	w := httptest.NewRecorder()
	Send(w, rec)
	if w.Code != http.StatusCreated || w.Body.String() != `{"id":1}` || w.Header().Get("Content-Type") != "application/json" {
		t.Errorf("sent %d %q %v", w.Code, w.Body, w.Header())
	}
	for _, bad := range []struct {
		status int
		body   string
	}{{http.StatusCreated, `{"id":"x"}`}, {http.StatusOK, `{"id":1}`}} {
		rec := httptest.NewRecorder()
		rec.Header().Set("Content-Type", "application/json")
		rec.WriteHeader(bad.status)
		_, _ = rec.WriteString(bad.body)
		if err := Response(in, rec); err == nil {
			t.Errorf("answer %d %s passed; want a violation", bad.status, bad.body)
		}
	}
}
