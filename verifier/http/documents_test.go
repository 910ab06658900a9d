package http

import (
	"slices"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// TestAcceptedDocuments: accepted_documents (docs/documents.md) at creation
// and in templates. The driver's license, the default, the passport and
// the ID card are accepted, stored and inherited from a template, which
// returns them; an unknown kind, a duplicate, an empty list and an
// oversized one are refused with their own codes (a kind named but not
// available, not_available, is verifier's TestKindNotAvailable: every kind
// is available today).
func TestAcceptedDocuments(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t))
		a, bearer := h.owner()
		accepted := func(id string) []verifier.DocumentKind {
			t.Helper()
			v, err := h.srv.verifications.Get(t.Context(), a.ID, id)
			if err != nil {
				t.Fatal(err)
			}
			st, err := verifier.ParseSettings(v.Options)
			if err != nil {
				t.Fatal(err)
			}
			return st.AcceptedDocuments
		}
		license := []verifier.DocumentKind{verifier.DriversLicense}

		if got := accepted(h.create(bearer, `{"accepted_documents":["drivers_license"]}`).ID); !slices.Equal(got, license) {
			t.Errorf("stored %v, want %v", got, license)
		}
		// Not given: nothing stored, which is the driver's license alone.
		if got := accepted(h.create(bearer, `{}`).ID); got != nil {
			t.Errorf("default stored as %v", got)
		}

		both := []verifier.DocumentKind{verifier.Passport, verifier.DriversLicense}
		if got := accepted(h.create(bearer, `{"accepted_documents":["passport","drivers_license"]}`).ID); !slices.Equal(got, both) {
			t.Errorf("stored %v, want %v", got, both)
		}
		all := []verifier.DocumentKind{verifier.IDCard, verifier.DriversLicense, verifier.Passport}
		if got := accepted(h.create(bearer, `{"accepted_documents":["id_card","drivers_license","passport"]}`).ID); !slices.Equal(got, all) {
			t.Errorf("stored %v, want %v", got, all)
		}
		cases := []struct{ name, body, field, code string }{
			{"unknown kind", `{"accepted_documents":["visa"]}`, "accepted_documents[0]", "invalid_value"},
			{"listed twice", `{"accepted_documents":["drivers_license","drivers_license"]}`, "accepted_documents[1]", "duplicate"},
			{"empty", `{"accepted_documents":[]}`, "accepted_documents", "invalid_value"},
			{"oversized", `{"accepted_documents":[` + strings.Repeat(`"passport",`, 100) + `"passport"]}`, "accepted_documents", "too_many"},
			{"not a list", `{"accepted_documents":"drivers_license"}`, "accepted_documents", "wrong_type"},
		}
		for _, c := range cases {
			codes := validationCodes(t, h.do("POST", "/verification", c.body, "Authorization", bearer))
			if len(codes) != 1 || codes[c.field] != c.code {
				t.Errorf("%s: details %v, want {%s: %s}", c.name, codes, c.field, c.code)
			}
		}
		// Templates: validated alike, returned, and inherited.
		if codes := validationCodes(t, h.do("POST", "/templates", `{"name":"Cards","accepted_documents":["id_card","id_card"]}`, "Authorization", bearer)); codes["accepted_documents[1]"] != "duplicate" {
			t.Errorf("template listing the ID card twice: %v", codes)
		}
		r := h.do("POST", "/templates", `{"name":"Cards","accepted_documents":["id_card","drivers_license","passport"]}`, "Authorization", bearer)
		var tpl templateResponse
		r.json(t, &tpl)
		if r.status != 201 || tpl.AcceptedDocuments == nil || !slices.Equal(*tpl.AcceptedDocuments, all) {
			t.Fatalf("template: %d %s", r.status, r.body)
		}
		if got := accepted(h.create(bearer, `{"template_id":"`+tpl.ID+`"}`).ID); !slices.Equal(got, all) {
			t.Errorf("inherited %v, want %v", got, all)
		}
	})
}
