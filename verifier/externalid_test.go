package verifier

import (
	"fmt"
	"testing"
)

func TestExternalIDRule(t *testing.T) {
	for id, want := range map[string]string{
		"order-10423":                          "",
		"3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b": "",
		"5551234567":                           "", // a bare digit run: order numbers look like this
		"INV 2026 0042":                        "",
		"a3f5c9e1d2b4":                         "",
		"Smith":                                "", // one word: not refused (could be a product code)
		"jane@example.com":                     "looks_like_personal_data",
		"ref:jane.doe@mail.example.org":        "looks_like_personal_data",
		"+15551234567":                         "looks_like_personal_data",
		"(555) 123-4567":                       "looks_like_personal_data",
		"555.123.4567":                         "looks_like_personal_data",
		"Jane Doe":                             "looks_like_personal_data",
		"mary-ann o'neil":                      "looks_like_personal_data",
		"José  Núñez":                          "looks_like_personal_data",
		"":                                     "out_of_range",
		string(make([]byte, 10)):               "invalid_value",
		"\xff\xfe":                             "invalid_value",
		fmt.Sprintf("%0129d", 0):               "out_of_range",
	} {
		var fe fieldErrors
		checkExternalID(&fe, id)
		got := ""
		if len(fe) > 0 {
			got = fe[0].Code
		}
		if got != want || len(fe) > 1 {
			t.Errorf("%q: %v, want %q", id, fe, want)
		}
	}
}

func FuzzExternalID(f *testing.F) {
	f.Add("order-1")
	f.Add("+1 (555) 123-4567")
	f.Fuzz(func(t *testing.T, s string) {
		var fe fieldErrors
		checkExternalID(&fe, s)
		if len(fe) > 1 {
			t.Fatalf("%q: %d details", s, len(fe))
		}
	})
}
