package strictjson

import (
	"encoding/json"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		body, field, code string
	}{
		{`{"external_id":"a","message":"é ✓ \ud83d\ude00"}`, "", ""},
		{`{"":1,"a":""}`, "", ""},
		{`[{"a":1},{"a":2}]`, "", ""},
		{`{"a":{"b":1},"c":{"b":2}}`, "", ""},
		{`{"external_id":"a","external_id":"b"}`, "external_id", CodeDuplicateKey},
		{`{"":1,"":2}`, "body", CodeDuplicateKey},
		{`{"webhook_headers":{"X-A":"1","X-A":"2"}}`, "webhook_headers.X-A", CodeDuplicateKey},
		{`{"a":[1,{"b":[{},{"c":1,"c":1}]}]}`, "a[1].b[1].c", CodeDuplicateKey},
		{`[{"k":1,"k":1}]`, "[0].k", CodeDuplicateKey},
		{"{\"external_id\":\"\xff\xfe\xc0\xaf\"}", "external_id", CodeInvalidUTF8},
		{"{\"a\":[\"ok\",\"\xed\xa0\x80\"]}", "a[1]", CodeInvalidUTF8},
		{"{\"\xff\":1}", "\uFFFD", CodeInvalidUTF8},
		{`{"m":"\ud800"}`, "m", CodeInvalidUTF8},
		{`{"m":"\udc00\ud800"}`, "m", CodeInvalidUTF8},
		{`{"m":"\ud800\u0041"}`, "m", CodeInvalidUTF8},
		{`{"m":"x\ud800"}`, "m", CodeInvalidUTF8},
		{"\"\xc0\"", "body", CodeInvalidUTF8},
		{`{"a":1,`, "", ""}, // not JSON: the decoder reports it
	} {
		d := Check([]byte(c.body))
		switch {
		case c.code == "" && d != nil:
			t.Errorf("%q: refused %+v", c.body, *d)
		case c.code != "" && (d == nil || d.Code != c.code || d.Field != c.field):
			t.Errorf("%q: got %+v, want %s on %q", c.body, d, c.code, c.field)
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{"a":"b","a":1}`, `[{"x":[1,"\ud800"]}]`, "{\"a\":\"\xff\"}", `"\\u"`, `{"":{"":[]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		d := Check(body)
		if d == nil {
			return
		}
		if d.Field == "" || d.Code != CodeInvalidUTF8 && d.Code != CodeDuplicateKey {
			t.Fatalf("%q: code %q", body, d.Code)
		}
		// Whatever Check refuses, encoding/json accepted as JSON.
		if !json.Valid(body) {
			t.Fatalf("%q: refused %+v but not valid JSON", body, *d)
		}
	})
}

// BenchmarkCheck is Check on a create's body (bench/lifecycle's).
func BenchmarkCheck(b *testing.B) {
	body := []byte(`{"external_id":"order-10423","requested_fields":["first_names","last_name"],"encryption_key_mode":"none","webhook_url":"https://shop.example.com/hooks","message":"Please verify your ID"}`)
	b.ReportAllocs()
	for b.Loop() {
		if d := Check(body); d != nil {
			b.Fatal(*d)
		}
	}
}
