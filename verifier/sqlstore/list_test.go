package sqlstore

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
)

func TestCursorRoundTrip(t *testing.T) {
	id := uuid.NewString()
	for _, at := range []time.Time{time.Unix(0, 0), time.Date(2026, 3, 14, 15, 9, 26, 535897000, time.UTC), time.Date(1960, 1, 1, 0, 0, 0, 1000, time.UTC)} {
		gotAt, gotID, err := decodeCursor(encodeCursor(at, id))
		if err != nil || !gotAt.Equal(at) || gotID != id || gotAt.Location() != time.UTC {
			t.Errorf("round trip of %v: %v, %q, %v", at, gotAt, gotID, err)
		}
	}
}

func TestBuild(t *testing.T) {
	q, err := buildList("acct", verifier.VerificationFilter{
		Statuses:    []verifier.Status{verifier.StatusPending, verifier.StatusStarted},
		CreatedFrom: time.Unix(10, 0), ExternalID: "ref",
		Cursor: encodeCursor(time.Unix(20, 0), "0c4d3b0e-5d0c-4f57-9a53-8f1e0c2b8f11"),
		Mode:   verifier.ModeTest,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "account_id = $1 AND test = $2 AND deleted_at IS NULL AND status IN ($3, $4) AND created_at >= $5 AND external_id = $6 AND (created_at, id) < ($7, $8)"
	if q.Where != want || len(q.Args) != 8 || q.Limit != verifier.DefaultListLimit || q.Args[1] != true {
		t.Fatalf("Build = %q %v %d\nwant %q", q.Where, q.Args, q.Limit, want)
	}
	if q.Args[4] != time.Unix(10, 0).UTC() || q.Args[6] != time.Unix(20, 0).UTC() {
		t.Errorf("times not passed as UTC: %v", q.Args)
	}
}

func FuzzDecodeCursor(f *testing.F) {
	f.Add(encodeCursor(time.Unix(1_700_000_000, 0), "0c4d3b0e-5d0c-4f57-9a53-8f1e0c2b8f11"))
	f.Add("")
	f.Add("MTIzOm5vdC1hLXV1aWQ")
	f.Add(strings.Repeat("A", 200))
	f.Add("KzU6MGM0ZDNiMGUtNWQwYy00ZjU3LTlhNTMtOGYxZTBjMmI4ZjEx") // "+5:<uuid>"
	f.Fuzz(func(t *testing.T, s string) {
		at, id, err := decodeCursor(s)
		if err != nil {
			if !errors.Is(err, errCursor) {
				t.Fatalf("decodeCursor(%q): uncoded error %v", s, err)
			}
			return
		}
		// Anything accepted is exactly what encodeCursor makes of it.
		if again := encodeCursor(at, id); again != s {
			t.Fatalf("decodeCursor(%q) = %v, %q, which encodes to %q", s, at, id, again)
		}
	})
}
