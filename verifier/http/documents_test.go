package http

import (
	"slices"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// TestAcceptedDocuments: accepted_documents (docs/documents.md) at creation
// and in templates. The driver's license, the default, and the passport are
// accepted, stored and inherited from a template, which returns them; a
// kind without its reader (id_card) is refused with not_available, naming
// what is available; an unknown kind, a duplicate, an empty list and an
// oversized one with their own codes.
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
		cases := []struct{ name, body, field, code string }{
			{"id card", `{"accepted_documents":["id_card"]}`, "accepted_documents[0]", "not_available"},
			{"id card beside the license", `{"accepted_documents":["drivers_license","id_card"]}`, "accepted_documents[1]", "not_available"},
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
		r := h.do("POST", "/verification", `{"accepted_documents":["id_card"]}`, "Authorization", bearer)
		if e := expectError(t, r, 422, "VALIDATION_FAILED"); len(e.Details) != 1 || !strings.Contains(e.Details[0].Message, "available: drivers_license, passport") {
			t.Errorf("not_available does not say what is available: %+v", e.Details)
		}

		// Templates: validated alike, returned, and inherited.
		if codes := validationCodes(t, h.do("POST", "/templates", `{"name":"Cards","accepted_documents":["id_card"]}`, "Authorization", bearer)); codes["accepted_documents[0]"] != "not_available" {
			t.Errorf("template with an ID card: %v", codes)
		}
		r = h.do("POST", "/templates", `{"name":"Passports","accepted_documents":["passport","drivers_license"]}`, "Authorization", bearer)
		var tpl templateResponse
		r.json(t, &tpl)
		if r.status != 201 || tpl.AcceptedDocuments == nil || !slices.Equal(*tpl.AcceptedDocuments, both) {
			t.Fatalf("template: %d %s", r.status, r.body)
		}
		if got := accepted(h.create(bearer, `{"template_id":"`+tpl.ID+`"}`).ID); !slices.Equal(got, both) {
			t.Errorf("inherited %v, want %v", got, both)
		}
	})
}
