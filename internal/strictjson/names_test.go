package strictjson

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type namesInner struct {
	Mode string `json:"mode"`
}

type namesBase struct {
	LifetimeDays int `json:"lifetime_days"`
}

type selfDecoding struct{ raw string }

func (s *selfDecoding) UnmarshalJSON(b []byte) error { s.raw = string(b); return nil }

type namesBody struct {
	namesBase
	Message    string            `json:"message"`
	Encryption *namesInner       `json:"encryption"`
	Fields     []namesInner      `json:"fields"`
	Headers    map[string]string `json:"webhook_headers"`
	Nested     map[string]namesInner
	Raw        json.RawMessage `json:"raw"`
	Any        any             `json:"any"`
	Own        selfDecoding    `json:"own"`
	Skipped    string          `json:"-"`
	unexported string
}

func TestCheckNames(t *testing.T) {
	for _, c := range []struct{ body, field string }{
		{`{"lifetime_days":7,"message":"m","encryption":{"mode":"none"},"fields":[{"mode":"a"}]}`, ""},
		{`{"webhook_headers":{"X-Token":"a","x-token":"b"}}`, ""}, // a map's keys are data
		{`{"Nested":{"k":{"mode":"a"}}}`, ""},                     // untagged: the Go name
		{`{"raw":{"ANY":1},"any":{"ANY":1},"own":{"ANY":1}}`, ""}, // not looked into
		{`{"unknown":{"MODE":1}}`, ""},                            // the decoder's to refuse
		{`{"lifetime_days":7`, ""},                                // not JSON
		{`{"LIFETIME_DAYS":7}`, "LIFETIME_DAYS"},
		{`{"lifetime_days":7,"Lifetime_days":8}`, "Lifetime_days"},
		{`{"Message":"m"}`, "Message"},
		{`{"encryption":{"Mode":"none"}}`, "encryption.Mode"},
		{`{"fields":[{"mode":"a"},{"MODE":"b"}]}`, "fields[1].MODE"},
		{`{"nested":{}}`, "nested"},
		{`{"Nested":{"k":{"Mode":"a"}}}`, "Nested.k.Mode"},
		{`{"skipped":"x","Unexported":"y"}`, ""},
	} {
		d := CheckNames([]byte(c.body), &namesBody{})
		switch {
		case c.field == "" && d != nil:
			t.Errorf("%s: refused %+v", c.body, *d)
		case c.field != "" && (d == nil || d.Field != c.field || d.Code != CodeUnknownField):
			t.Errorf("%s: got %+v, want unknown_field on %q", c.body, d, c.field)
		}
	}
}

// TestCheckNamesShadowing: an embedded struct's member is promoted only
// where no shallower field has the name, as encoding/json decodes it.
func TestCheckNamesShadowing(t *testing.T) {
	type outer struct {
		namesInner
		Mode int `json:"MODE"`
	}
	if d := CheckNames([]byte(`{"mode":"a","MODE":1}`), &outer{}); d != nil {
		t.Fatalf("refused %+v", *d)
	}
}

func FuzzCheckNames(f *testing.F) {
	for _, s := range []string{`{"LIFETIME_DAYS":7}`, `{"fields":[{"MODE":1}]}`, `{"Nested":{"k":{"Mode":"a"}}}`, `[1,{"a":`, `{"raw":[{"X":1}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		d := CheckNames(body, &namesBody{})
		if d == nil {
			return
		}
		// A finding names a member that differs from a field's name in
		// case only, in a body encoding/json reads.
		last := d.Field[strings.LastIndexAny(d.Field, ".]")+1:]
		if d.Code != CodeUnknownField || !json.Valid(body) || !foldsToAField(last) {
			t.Fatalf("%q: %+v", body, *d)
		}
	})
}

func foldsToAField(name string) bool {
	for _, f := range []string{"lifetime_days", "message", "encryption", "fields", "webhook_headers", "Nested", "raw", "any", "own", "mode"} {
		if strings.EqualFold(f, name) && f != name {
			return true
		}
	}
	return false
}

// TestFieldAt: the element encoding/json's UnmarshalTypeError points past,
// named as Check names members.
func TestFieldAt(t *testing.T) {
	for _, c := range []struct{ body, field string }{
		{`{"requested_fields":["dob",1]}`, "requested_fields[1]"},
		{`{"requested_fields":["dob",{"a":1}]}`, "requested_fields[1]"},
		{`{"requested_fields":["dob",[true]]}`, "requested_fields[1]"},
		{`{"b":{"c":[1,"x"]}}`, "b.c[1]"},
		{`{"lifetime_days":"7"}`, "lifetime_days"},
	} {
		var v struct {
			Fields []string `json:"requested_fields"`
			B      struct {
				C []int `json:"c"`
			} `json:"b"`
			Days int `json:"lifetime_days"`
		}
		var typ *json.UnmarshalTypeError
		if err := json.Unmarshal([]byte(c.body), &v); !errors.As(err, &typ) {
			t.Fatalf("%s: %v", c.body, err)
		}
		if got := FieldAt([]byte(c.body), typ.Offset); got != c.field {
			t.Errorf("%s: %q, want %q (offset %d)", c.body, got, c.field, typ.Offset)
		}
	}
	if got := FieldAt([]byte(`{"a":1}`), 3); got != "" {
		t.Errorf("inside a token: %q", got)
	}
}
