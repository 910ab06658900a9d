package http

import (
	"errors"
	"testing"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/strictjson"
)

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{"email":"a@b.c","password":"x"}`, `{"email":1}`, `{`, `[]`, `{"x":1}`, `{} {}`, `null`, `"\ud800"`, `{"email":"a","email":"b"}`, "{\"password\":\"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var a authRequest
		var k keySettingsRequest
		for _, v := range []any{&a, &k} {
			err := DecodeJSON(body, v)
			if err == nil {
				if d := strictjson.Check(body); d != nil {
					t.Fatalf("%q: accepted despite %+v", body, *d)
				}
				continue
			}
			var e *httperr.Error
			if !errors.As(err, &e) || (e.Code != httperr.MalformedJSON && e.Code != httperr.ValidationFailed) {
				t.Fatalf("%q: uncoded error %v", body, err)
			}
			if e.Code == httperr.ValidationFailed && (len(e.Details) != 1 || e.Details[0].Field == "") {
				t.Fatalf("%q: validation without a field: %+v", body, e.Details)
			}
		}
	})
}
