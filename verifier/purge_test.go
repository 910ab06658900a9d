package verifier_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/idgate/idgate/verifier"
)

func TestPurgeResult(t *testing.T) {
	in := `{"request_id":"r","verification":{"over_21":true,"face_match_score":"likely_match"},"license_data":{"dob":"1990-01-02"},` +
		`"license_photo":"/9j/","phone_verification":{"phone_areacode":"555","last_3_digits":"123","phone_verified":true,"line_type":"mobile","lookup":{"phone_number":"+15555550123"}}}`
	out, err := verifier.PurgeResult([]byte(in))
	want := `{"license_data":{},"phone_verification":{"last_3_digits":"123","line_type":"mobile","phone_areacode":"555","phone_verified":true},` +
		`"request_id":"r","verification":{"over_21":true,"face_match_score":"likely_match"}}`
	if err != nil || string(out) != want {
		t.Fatalf("PurgeResult =\n%s, %v\nwant\n%s", out, err, want)
	}
	for _, bad := range []string{``, `null`, `[]`, `{"phone_verification":3}`} {
		if _, err := verifier.PurgeResult([]byte(bad)); !errors.Is(err, verifier.ErrMalformedResult) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// FuzzPurgeResult: a stored result of any shape never panics the purge,
// and what it returns holds no license_photo.
func FuzzPurgeResult(f *testing.F) {
	f.Add([]byte(`{"license_data":{"a":1},"license_photo":"x","phone_verification":{"lookup":{}}}`))
	f.Add([]byte(`{"phone_verification":null}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		out, err := verifier.PurgeResult(raw)
		if err != nil {
			return
		}
		again, err := verifier.PurgeResult(out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("purging twice changed %s into %s (%v)", out, again, err)
		}
	})
}

// PurgedPayload reports a change exactly when personal data went: a payload
// it calls unchanged keeps its bytes in the outbox, so it must hold no
// license_data members, license_photo or phone lookup; and what it returns
// is PurgeResult's answer, which a second purge leaves as it is.
func FuzzPurgedPayload(f *testing.F) {
	f.Add([]byte(`{"request_id":"r",  "verification":{"over_18":true}}`))
	f.Add([]byte(`{"license_data":{},"license_photo":"x"}`))
	f.Add([]byte(`{"license_data":{"a":1},"phone_verification":{"verified":true,"lookup":{"carrier":"c"}}}`))
	f.Add([]byte(`{"phone_verification":{"verified":true}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		out, changed, err := verifier.PurgedPayload(raw)
		if err != nil {
			return
		}
		want, err := verifier.PurgeResult(raw)
		if err != nil || string(want) != string(out) {
			t.Fatalf("PurgedPayload %s, PurgeResult %s (%v)", out, want, err)
		}
		if _, again, err := verifier.PurgedPayload(out); err != nil || again {
			t.Fatalf("a purged payload %s still reports personal data (%v)", out, err)
		}
		if !changed {
			// Exact member names, as PurgeResult and the result's own
			// encoding use them.
			var top map[string]json.RawMessage
			if json.Unmarshal(raw, &top) != nil {
				return
			}
			var data, phone map[string]json.RawMessage
			_ = json.Unmarshal(top["license_data"], &data)
			_ = json.Unmarshal(top["phone_verification"], &phone)
			_, photo := top["license_photo"]
			_, lookup := phone["lookup"]
			if len(data) > 0 || photo || lookup {
				t.Fatalf("%s keeps personal data but is reported unchanged", raw)
			}
		}
	})
}
