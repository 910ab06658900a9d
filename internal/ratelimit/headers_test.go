package ratelimit_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/idgate/idgate/internal/ratelimit"
)

func TestHeaders(t *testing.T) {
	fiveAMinute := ratelimit.Limit{Rate: 5, Period: time.Minute}
	tests := []struct {
		name string
		in   ratelimit.Result
		want map[string]string
	}{
		{
			name: "allowed carries no Retry-After",
			in:   ratelimit.Result{Allowed: true, Limit: fiveAMinute, Remaining: 4, ResetAfter: 12 * time.Second},
			want: map[string]string{
				"RateLimit-Limit": "5", "RateLimit-Remaining": "4", "RateLimit-Reset": "12",
				"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "4", "X-RateLimit-Reset": "12",
			},
		},
		{
			name: "denied rounds both delays up to whole seconds",
			in: ratelimit.Result{Limit: fiveAMinute, RetryAfter: 11*time.Second + time.Millisecond,
				ResetAfter: 59*time.Second + 1},
			want: map[string]string{
				"RateLimit-Limit": "5", "RateLimit-Remaining": "0", "RateLimit-Reset": "60",
				"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "60",
				"Retry-After": "12",
			},
		},
		{
			name: "denied with under a second to wait still says 1",
			in: ratelimit.Result{Limit: ratelimit.Limit{Rate: 300, Period: time.Hour},
				RetryAfter: time.Millisecond, ResetAfter: time.Hour - 11*time.Second - 999*time.Millisecond},
			want: map[string]string{
				"RateLimit-Limit": "300", "RateLimit-Remaining": "0", "RateLimit-Reset": "3589",
				"X-RateLimit-Limit": "300", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "3589",
				"Retry-After": "1",
			},
		},
		{
			name: "exact seconds are not rounded past",
			in:   ratelimit.Result{Limit: ratelimit.Limit{Rate: 30, Period: time.Hour}, RetryAfter: 2 * time.Minute, ResetAfter: time.Hour},
			want: map[string]string{
				"RateLimit-Limit": "30", "RateLimit-Remaining": "0", "RateLimit-Reset": "3600",
				"X-RateLimit-Limit": "30", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "3600",
				"Retry-After": "120",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ratelimit.Headers(tt.in))
		})
	}
}
