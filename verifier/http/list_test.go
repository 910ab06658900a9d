package http

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/sqlstore"
)

// TestListVerifications: filters (status, created range, external_id),
// cursor pages newest first, tenant isolation, bad parameters.
func TestListVerifications(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t))
		_, bearer := h.owner()
		_, other := h.owner()
		var made []verificationResponse
		for i := 0; i < 7; i++ {
			made = append(made, h.create(bearer, fmt.Sprintf(`{"external_id":"order-%d"}`, i%3)))
			h.clock.Advance(time.Minute)
		}
		h.do("POST", "/verification/cancel?id="+made[1].ID, "", "Authorization", bearer)
		h.do("POST", "/verification/cancel?id="+made[4].ID, "", "Authorization", bearer)

		list := func(who, query string) verificationList {
			t.Helper()
			r := h.do("GET", "/verifications?"+query, "", "Authorization", who)
			if r.status != 200 || r.header.Get("Cache-Control") != "no-store" {
				t.Fatalf("list %s: %d %s", query, r.status, r.body)
			}
			var l verificationList
			r.json(t, &l)
			return l
		}
		ids := func(l verificationList) string {
			s := ""
			for _, v := range l.Items {
				for i, m := range made {
					if m.ID == v.ID {
						s += fmt.Sprint(i)
					}
				}
			}
			return s
		}
		// Pages of 3, newest first, following next_cursor.
		var all string
		cursor := ""
		for page := 0; ; page++ {
			l := list(bearer, "limit=3&cursor="+url.QueryEscape(cursor))
			all += ids(l)
			if l.NextCursor == "" {
				break
			}
			cursor = l.NextCursor
			if page > 3 {
				t.Fatal("cursor never ends")
			}
		}
		if all != "6543210" {
			t.Fatalf("pages gave %q", all)
		}
		for q, want := range map[string]string{
			"status=canceled":                    "41",
			"status=pending,canceled":            "6543210",
			"external_id=order-1":                "41",
			"external_id=order-1&status=pending": "",
			"created_from=" + url.QueryEscape(t0.Add(2*time.Minute).Format(time.RFC3339)) + "&created_before=" + url.QueryEscape(t0.Add(5*time.Minute).Format(time.RFC3339)): "432",
		} {
			if got := ids(list(bearer, q)); got != want {
				t.Errorf("%s: %q, want %q", q, got, want)
			}
		}
		if l := list(other, ""); len(l.Items) != 0 {
			t.Fatal("another account lists these verifications")
		}
		codes := validationCodes(t, h.do("GET", "/verifications?limit=0&created_from=yesterday", "", "Authorization", bearer))
		if codes["limit"] != "out_of_range" || codes["created_from"] != "invalid_time" {
			t.Fatalf("%v", codes)
		}
		if codes := validationCodes(t, h.do("GET", "/verifications?status=done", "", "Authorization", bearer)); codes["status"] != "unknown_status" {
			t.Fatalf("%v", codes)
		}
		for q, want := range map[string]string{"limit=abc": "wrong_type", "limit=1.5": "wrong_type", "limit=99999999999999999999": "out_of_range", "limit=-3": "out_of_range"} {
			if codes := validationCodes(t, h.do("GET", "/verifications?"+q, "", "Authorization", bearer)); len(codes) != 1 || codes["limit"] != want {
				t.Errorf("%s: %v, want limit: %s", q, codes, want)
			}
		}
		// The cursor's message is the document's words, not a Go decoder's.
		for _, c := range []string{"zzz", "a%0Ab", "%21%21"} {
			r := h.do("GET", "/verifications?cursor="+c, "", "Authorization", bearer)
			if e := r.errorBody(t); len(e.Details) != 1 || e.Details[0].Code != "invalid_cursor" || e.Details[0].Message != "must be the next_cursor of a previous page" {
				t.Errorf("cursor %s: %+v", c, e)
			}
		}
	})
}
