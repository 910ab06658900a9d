package http

import (
	"slices"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/sqlstore"
)

// TestTestCompleteDocument: a test link's result names the kind the tester
// chose (test/complete's document), one the link accepts, its members read
// from the fixture's license, passport or ID card; without it, the link's
// kind: drivers_license on a link created without accepted_documents.
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
	// A test link accepting both: the tester's passport, under 21 and
	// expired, read from the fixture's zone.
	both := h.create(h.test, `{"accepted_documents":["drivers_license","passport"],"encryption_key_mode":"none",
		"requested_fields":["last_name","document_number","country","address_city"]}`)
	h.pick(token(t, both), `{"outcome":"under_21","document":"passport"}`, 200)
	res := h.get(h.test, both.ID).Result
	if dt := resultDocumentType(t, h.get(h.test, both.ID)); dt != "passport" || !strings.Contains(string(res), `"over_21":false`) ||
		!strings.Contains(string(res), `"license_data":{"address_city":null,"country":"USA","document_number":"T00000022","last_name":"SAMPLE"}`) {
		t.Errorf("test passport: %s", res)
	}
	// Its visual zone read agrees with its zone, as a live page's does.
	expired := h.create(h.test, `{"accepted_documents":["passport"],"encryption_key_mode":"none","front_barcode_match":true}`)
	h.pick(token(t, expired), `{"outcome":"license_expired"}`, 200) // the link's only kind
	if res := h.get(h.test, expired.ID).Result; !strings.Contains(string(res), `"document_type":"passport"`) ||
		!strings.Contains(string(res), `"license_expired":true`) || !strings.Contains(string(res), `"front_barcode_match":{"result":"match"`) {
		t.Errorf("expired test passport: %s", res)
	}
	// A test link accepting the three: the tester's ID card, read from
	// the fixture's TD1 zone, its printed front agreeing with it as a
	// live card's read does (front_barcode_match match).
	all := h.create(h.test, `{"accepted_documents":["drivers_license","passport","id_card"],"encryption_key_mode":"none",
		"front_barcode_match":true,"requested_fields":["last_name","document_number","nationality","address_city"]}`)
	h.pick(token(t, all), `{"outcome":"under_18","document":"id_card"}`, 200)
	res = h.get(h.test, all.ID).Result
	if dt := resultDocumentType(t, h.get(h.test, all.ID)); dt != "id_card" || !strings.Contains(string(res), `"over_18":false`) ||
		!strings.Contains(string(res), `"front_barcode_match":{"result":"match"`) ||
		!strings.Contains(string(res), `"license_data":{"address_city":null,"document_number":"C00000049","last_name":"SAMPLE","nationality":"USA"}`) {
		t.Errorf("test ID card: %s", res)
	}
	other := h.create(h.test, `{"encryption_key_mode":"none"}`)
	h.pick(token(t, other), `{"outcome":"under_21","document":"drivers_license"}`, 200)
	if dt := resultDocumentType(t, h.get(h.test, other.ID)); dt != "drivers_license" {
		t.Errorf("document_type %q, want drivers_license", dt)
	}
}
