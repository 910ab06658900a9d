package verifier

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestTransitionTable(t *testing.T) {
	allowed := map[[2]Status]bool{
		{StatusPending, StatusStarted}:        true,
		{StatusPending, StatusExpired}:        true,
		{StatusPending, StatusCanceled}:       true,
		{StatusStarted, StatusCompleted}:      true,
		{StatusStarted, StatusManualReview}:   true,
		{StatusStarted, StatusExpired}:        true,
		{StatusStarted, StatusCanceled}:       true,
		{StatusManualReview, StatusCompleted}: true,
	}
	all := append(append([]Status{}, Statuses...), "", "bogus")
	for _, from := range all {
		for _, to := range all {
			err := CheckTransition(from, to)
			if allowed[[2]Status{from, to}] {
				if err != nil {
					t.Errorf("CheckTransition(%q, %q) = %v; want allowed", from, to, err)
				}
				continue
			}
			if !errors.Is(err, ErrInvalidTransition) {
				t.Errorf("CheckTransition(%q, %q) = %v; want ErrInvalidTransition", from, to, err)
			}
		}
	}
}

func TestStatusAndTypeSets(t *testing.T) {
	holds := map[Status]bool{StatusPending: true, StatusStarted: true, StatusCompleted: true, StatusManualReview: true}
	for _, s := range Statuses {
		if !s.Valid() {
			t.Errorf("%s not Valid", s)
		}
		if s.HoldsSlot() != holds[s] {
			t.Errorf("%s.HoldsSlot() = %v", s, s.HoldsSlot())
		}
	}
	for _, s := range []Status{"", "done", "Pending"} {
		if s.Valid() || s.HoldsSlot() {
			t.Errorf("%q accepted", s)
		}
	}
	for _, typ := range Types {
		if !typ.Valid() {
			t.Errorf("%s not Valid", typ)
		}
	}
	if Type("premium").Valid() || Type("").Valid() {
		t.Error("unknown type accepted")
	}
}

func TestQuotaErrorMatches(t *testing.T) {
	err := fmt.Errorf("create verification: %w", &QuotaError{Type: TypeFull, Limit: 10})
	var qe *QuotaError
	if !errors.Is(err, ErrQuotaExceeded) || !errors.As(err, &qe) || qe.Type != TypeFull {
		t.Fatalf("%v does not carry a QuotaError for full", err)
	}
	if errors.Is(err, ErrNotFound) {
		t.Fatal("QuotaError matches ErrNotFound")
	}
}

func TestCheckUpdate(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	old := Verification{ID: "id", AccountID: "acct", TokenHash: []byte{1}, Type: TypeBasic, TemplateID: "tpl",
		CreatedAt: at, Status: StatusPending}
	v := Verification{ID: "x", AccountID: "y", TokenHash: []byte{2}, Type: TypeFull, TemplateID: "z",
		CreatedAt: at.Add(time.Hour), Status: StatusStarted, Message: "kept"}
	if err := CheckUpdate(old, &v); err != nil {
		t.Fatalf("pending → started: %v", err)
	}
	if v.ID != "id" || v.AccountID != "acct" || v.TokenHash[0] != 1 || v.Type != TypeBasic || v.TemplateID != "tpl" ||
		!v.CreatedAt.Equal(at) || v.Message != "kept" || v.Status != StatusStarted {
		t.Fatalf("CheckUpdate left %+v", v)
	}
	v.Status = StatusPending
	if err := CheckUpdate(Verification{Status: StatusCompleted}, &v); !errors.Is(err, ErrInvalidTransition) {
		t.Fatalf("completed → pending: %v", err)
	}
	same := Verification{Status: StatusCompleted}
	if err := CheckUpdate(Verification{Status: StatusCompleted}, &same); err != nil {
		t.Fatalf("no status change: %v", err)
	}
}
