package verifier_test

import (
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
