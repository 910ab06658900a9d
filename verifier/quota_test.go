package verifier

import (
	"testing"
	"time"
)

func TestParsePlan(t *testing.T) {
	p, err := ParsePlan(" core=1000, basic=0,full=-1")
	if err != nil || p[TypeCore] != 1000 || p[TypeBasic] != 0 || p[TypeFull] != -1 {
		t.Fatalf("%v %v", p, err)
	}
	if again, err := ParsePlan(p.String()); err != nil || again.String() != p.String() {
		t.Fatalf("round trip %v %v", again, err)
	}
	for _, bad := range []string{"", "core=1,basic=2", "core=1,basic=2,full=3,core=4", "core=1,basic=2,full=-2", "core=x,basic=1,full=1", "gold=1,core=1,basic=1,full=1"} {
		if _, err := ParsePlan(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if a := DefaultPlan.Allowance(TypeFull, mustTime(t, "2026-11-22T04:00:00Z")); a.Limit != 250 || !a.Since.Equal(mustTime(t, "2026-11-01T00:00:00Z")) {
		t.Fatalf("%+v", a)
	}
}

func FuzzParsePlan(f *testing.F) {
	f.Add("core=1000,basic=500,full=250")
	f.Add("core=-1,basic=,full")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePlan(s)
		if err != nil {
			return
		}
		if again, err := ParsePlan(p.String()); err != nil || again.String() != p.String() {
			t.Fatalf("%q → %v → %v %v", s, p, again, err)
		}
	})
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
