package ratelimit_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idgate/idgate/internal/ratelimit"
)

func TestLimitValidate(t *testing.T) {
	for _, l := range []ratelimit.Limit{
		{Rate: 0, Period: time.Minute},
		{Rate: -1, Period: time.Minute},
		{Rate: 5, Period: 0},
		{Rate: 5, Period: -time.Second},
		{Rate: 1000, Period: time.Millisecond / 2}, // interval below 1µs
	} {
		err := l.Validate()
		assert.Truef(t, errors.Is(err, ratelimit.ErrInvalidLimit), "%+v: got %v", l, err)
	}
	for _, l := range []ratelimit.Limit{{Rate: 1, Period: time.Microsecond}, {Rate: 5, Period: time.Minute}} {
		assert.NoErrorf(t, l.Validate(), "%+v", l)
	}
}

func TestIntervalTruncatesToMicroseconds(t *testing.T) {
	assert.Equal(t, 12*time.Second, ratelimit.Limit{Rate: 5, Period: time.Minute}.Interval())
	assert.Equal(t, 333333*time.Microsecond, ratelimit.Limit{Rate: 3, Period: time.Second}.Interval())
}

// TestGCRAInvariants walks GCRA through a mixed sequence of gaps and checks
// the properties every backend relies on, independently of the exact values
// the conformance suite pins down.
func TestGCRAInvariants(t *testing.T) {
	l := ratelimit.Limit{Rate: 7, Period: 10 * time.Second}
	var tat, now int64 = 0, 1_700_000_000_000_000
	gaps := []int64{0, 0, 1, 500_000, 0, 0, 0, 0, 0, 3_000_000, 1, 10_000_000, 0, 1_428_571}
	for i, gap := range gaps {
		now += gap
		next, r := ratelimit.GCRA(tat, now, l)
		require.Equal(t, l, r.Limit)
		require.GreaterOrEqual(t, r.Remaining, 0, "step %d", i)
		require.Less(t, r.Remaining, l.Rate, "step %d", i)
		require.LessOrEqual(t, r.ResetAfter, l.Period, "step %d", i)
		if r.Allowed {
			require.Zero(t, r.RetryAfter, "step %d", i)
			require.Greater(t, next, tat, "step %d: an allowed event must advance the TAT", i)
		} else {
			require.Equal(t, tat, next, "step %d: a denied event must not change the TAT", i)
			require.Zero(t, r.Remaining, "step %d", i)
			require.Positive(t, r.RetryAfter, "step %d", i)
			// Waiting exactly RetryAfter must be enough.
			_, again := ratelimit.GCRA(next, now+r.RetryAfter.Microseconds(), l)
			require.True(t, again.Allowed, "step %d: still denied after RetryAfter", i)
		}
		tat = next
	}
}
