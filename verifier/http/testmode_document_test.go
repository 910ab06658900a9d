package http

import (
	"slices"
	"testing"

	"github.com/idgate/idgate/verifier/sqlstore"
)

// TestTestCompleteDocument: a test link's result names the kind the tester
// chose (test/complete's document), one the link accepts; without it, the
// link's kind: drivers_license on a link created without accepted_documents.
func TestTestCompleteDocument(t *testing.T) {
	onBothBackends(t, testTestCompleteDocument)
}

func testTestCompleteDocument(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	h := newTestModeHarness(t, open)
	v := h.create(h.test, `{"encryption_key_mode":"none"}`)
	tok := token(t, v)
	for body, code := range map[string]string{
		`{"outcome":"verified","document":"passport"}`: "not_accepted",
		`{"outcome":"verified","document":"visa"}`:     "invalid_value",
	} {
		r := h.do("POST", "/v/"+tok+"/test/complete", body)
		if got := validationCodes(t, r); !slices.Equal([]string{got["document"]}, []string{code}) || len(got) != 1 {
			t.Errorf("%s: %v, want %s on document", body, got, code)
		}
	}
	h.pick(tok, `{"outcome":"verified"}`, 200)
	if dt := resultDocumentType(t, h.get(h.test, v.ID)); dt != "drivers_license" {
		t.Errorf("document_type %q, want drivers_license", dt)
	}
	other := h.create(h.test, `{"encryption_key_mode":"none"}`)
	h.pick(token(t, other), `{"outcome":"under_21","document":"drivers_license"}`, 200)
	if dt := resultDocumentType(t, h.get(h.test, other.ID)); dt != "drivers_license" {
		t.Errorf("document_type %q, want drivers_license", dt)
	}
}
