package verifier

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Plan is the allowance of each verification type per calendar month
// (UTC). A negative allowance is unlimited. Every account is on the one
// configured plan until accounts carry a plan of their own.
type Plan map[Type]int

// DefaultPlan is the allowance when none is configured.
var DefaultPlan = Plan{TypeCore: 1000, TypeBasic: 500, TypeFull: 250}

// UnlimitedPlan never refuses (benchmarks; a self-hosted install).
var UnlimitedPlan = Plan{TypeCore: -1, TypeBasic: -1, TypeFull: -1}

// ParsePlan reads "core=1000,basic=500,full=250" (every type once; -1 is
// unlimited).
func ParsePlan(s string) (Plan, error) {
	p := Plan{}
	for _, part := range strings.Split(s, ",") {
		name, num, ok := strings.Cut(strings.TrimSpace(part), "=")
		t := Type(strings.TrimSpace(name))
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if !ok || !t.Valid() || err != nil || n < -1 {
			return nil, fmt.Errorf("parse plan: %q: want type=N with type core, basic or full and N ≥ -1", part)
		}
		if _, dup := p[t]; dup {
			return nil, fmt.Errorf("parse plan: %s given twice", t)
		}
		p[t] = n
	}
	for _, t := range Types {
		if _, ok := p[t]; !ok {
			return nil, fmt.Errorf("parse plan: %s missing", t)
		}
	}
	return p, nil
}

// String is the form ParsePlan reads.
func (p Plan) String() string {
	parts := make([]string, len(Types))
	for i, t := range Types {
		parts[i] = fmt.Sprintf("%s=%d", t, p[t])
	}
	return strings.Join(parts, ",")
}

// PeriodStart is the start of the quota period holding now: the first
// instant of its calendar month in UTC.
func PeriodStart(now time.Time) time.Time {
	u := now.UTC()
	return time.Date(u.Year(), u.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// Allowance is what CreateVerification enforces for type t at now.
func (p Plan) Allowance(t Type, now time.Time) Allowance {
	limit, ok := p[t]
	if !ok {
		limit = 0
	}
	return Allowance{Limit: limit, Since: PeriodStart(now)}
}

// QuotaLine is one type's allowance and use in the current period.
type QuotaLine struct {
	Type  Type
	Limit int // negative: unlimited
	Used  int
}

// Quota is GET /quota.
type Quota struct {
	PeriodStart, PeriodEnd time.Time
	Lines                  []QuotaLine
}

// Quota reports the account's allowances and the slots in use.
func (s *Verifications) Quota(ctx context.Context, accountID string) (Quota, error) {
	now := s.Now()
	start := PeriodStart(now)
	used, err := s.Store.QuotaUsage(ctx, accountID, start)
	if err != nil {
		return Quota{}, fmt.Errorf("quota: %w", err)
	}
	q := Quota{PeriodStart: start, PeriodEnd: start.AddDate(0, 1, 0)}
	for _, t := range Types {
		q.Lines = append(q.Lines, QuotaLine{Type: t, Limit: s.Plan.Allowance(t, now).Limit, Used: used[t]})
	}
	return q, nil
}
