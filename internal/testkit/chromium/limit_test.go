package chromium

import (
	"os"
	"testing"
	"time"
)

// deadlined is a testing.TB whose binary ends at end.
type deadlined struct {
	testing.TB
	end time.Time
}

func (d deadlined) Deadline() (time.Time, bool) { return d.end, true }

func TestTabLimitEndsBeforeTheBinary(t *testing.T) {
	if got := tabLimit(deadlined{t, time.Now().Add(2 * time.Minute)}); got > 90*time.Second || got < 85*time.Second {
		t.Errorf("2 min before -timeout: tab limit %v, want about 90 s", got)
	}
	if got := tabLimit(deadlined{t, time.Now().Add(time.Hour)}); got != 10*time.Minute {
		t.Errorf("an hour before -timeout: tab limit %v, want 10 min", got)
	}
	if got := tabLimit(deadlined{t, time.Now().Add(10 * time.Second)}); got != 30*time.Second {
		t.Errorf("10 s before -timeout: tab limit %v, want the 30 s floor", got)
	}
	var b testing.TB = &testing.B{}
	if got := tabLimit(b); got != 10*time.Minute {
		t.Errorf("no deadline: tab limit %v, want 10 min", got)
	}
}

// A browser's CPU is its whole tree's: this test process's tree holds at
// least the test binary's own CPU, which is not zero after a busy loop.
func TestTreeCPUCountsDescendants(t *testing.T) {
	end := time.Now().Add(50 * time.Millisecond)
	for time.Now().Before(end) {
	}
	self, _ := readStat(os.Getpid())
	if got := treeCPU(os.Getppid()); got < self.ticks/100 || got == 0 {
		t.Errorf("the tree of the test's parent has %.2f s of CPU, the test binary alone %.2f", got, self.ticks/100)
	}
}
