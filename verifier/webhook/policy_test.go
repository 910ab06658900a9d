package webhook

import (
	"errors"
	"testing"
	"time"
)

func TestNextSchedule(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		attempt int
		want    time.Time
		ok      bool
	}{
		{1, t0.Add(5 * time.Second), true},
		{2, t0.Add(15 * time.Second), true},
		{3, time.Time{}, false},
		{0, time.Time{}, false},
		{4, time.Time{}, false},
		{-1, time.Time{}, false},
	}
	for _, c := range cases {
		got, ok := Next(c.attempt, t0)
		if ok != c.ok || !got.Equal(c.want) {
			t.Errorf("Next(%d) = %v, %v; want %v, %v", c.attempt, got, ok, c.want, c.ok)
		}
	}
}

func TestOutcomeOf(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	fail := errors.New("boom")
	cases := []struct {
		name string
		res  AttemptResult
		want Outcome
	}{
		{"2xx delivers", AttemptResult{Attempt: 1, StatusCode: 204}, Outcome{State: StateDelivered}},
		{"500 on 1 retries at +5s", AttemptResult{Attempt: 1, StatusCode: 500, Err: fail}, Outcome{StatePending, t0.Add(5 * time.Second)}},
		{"error on 2 retries at +15s", AttemptResult{Attempt: 2, Err: fail}, Outcome{StatePending, t0.Add(15 * time.Second)}},
		{"third failure fails", AttemptResult{Attempt: 3, StatusCode: 404, Err: fail}, Outcome{State: StateFailed}},
		{"3xx is not success", AttemptResult{Attempt: 3, StatusCode: 302}, Outcome{State: StateFailed}},
	}
	for _, c := range cases {
		if got := outcomeOf(c.res, t0); got != c.want {
			t.Errorf("%s: got %+v want %+v", c.name, got, c.want)
		}
	}
}
