package webhook

import "time"

// MaxAttempts is the documented limit (docs/decisions.md, Webhooks): after the third failed attempt the
// delivery (and the verification's webhook_status) is failed.
const MaxAttempts = 3

// retryDelays[i] is the wait after failed attempt i+1 before the next one:
// attempt 2 comes 5 s after the first failure, attempt 3 15 s after the
// second (spec, Events rule 4).
var retryDelays = [MaxAttempts - 1]time.Duration{5 * time.Second, 15 * time.Second}

// Next says when the attempt after a failed attempt number attempt is due,
// given the time it failed; false when no attempt is left (or attempt is out
// of range), i.e. the delivery is failed.
func Next(attempt int, failedAt time.Time) (time.Time, bool) {
	if attempt < 1 || attempt >= MaxAttempts {
		return time.Time{}, false
	}
	return failedAt.Add(retryDelays[attempt-1]), true
}

// outcomeOf maps an attempt's result to the delivery's next state.
func outcomeOf(res AttemptResult, failedAt time.Time) Outcome {
	if res.OK() {
		return Outcome{State: StateDelivered}
	}
	if next, ok := Next(res.Attempt, failedAt); ok {
		return Outcome{State: StatePending, NextAttemptAt: next}
	}
	return Outcome{State: StateFailed}
}
