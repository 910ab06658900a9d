package web_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/web"
)

// A liveness answer whose upload got no answer (the network dropped it,
// or the server cut a stalled upload: 408) is sent again as it was when
// the person taps "Send again", not recorded again, and the page says so:
// the movements are not lost to a network (src/liveness.ts, send). The test camera fails the
// page's first answer unsent, as a dropped upload does.
func TestLivenessAnswerSentAgainInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	tb := liveTab(t, e, 390, 844, smartSegments, 0)
	eval[bool](tb, `(Object.assign(idgateTestCamera, {drop: 1, log: [], repeats: 0, sent: null, frames: null, answer: null}), true)`)
	e.order.Queue(liveness.TurnLeft, liveness.Blink, liveness.TurnRight)
	tb.click("Start the video")
	if text := tb.screen("live-unsent"); !strings.Contains(text, web.T("en", "error.network")) || !strings.Contains(text, web.T("en", "live.unsent")) {
		t.Fatalf("a dropped upload reads %q", text)
	}
	tb.shootPhones("send-again", 390, 844)
	var first []int
	check(t, json.Unmarshal([]byte(eval[string](tb, `JSON.stringify(idgateTestCamera.sent)`)), &first))
	recorded := eval[int](tb, `idgateTestCamera.log.length`)
	// Sent again over a slow uplink (256 KB/s: the answer's 1 MB take
	// about 4 s), the page shows how much is sent, then that the server
	// is checking it.
	slow := network.Conditions{Latency: 50, DownloadThroughput: 1 << 20, UploadThroughput: 256 << 10}
	if _, err := chromedp.Call(tb.Ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []*network.Conditions{&slow}}); err != nil {
		t.Fatal(err)
	}
	tb.click(web.T("en", "live.sendagain"))
	var partway, checking bool
	for start := time.Now(); time.Since(start) < 60*time.Second; time.Sleep(50 * time.Millisecond) {
		var now struct {
			Screen, Text string
			Share        float64
		}
		check(t, json.Unmarshal([]byte(eval[string](tb, `(() => { const m = document.querySelector("main"), b = document.querySelector("progress.upload");
			return JSON.stringify({screen: m.dataset.screen, text: m.innerText, share: b && !b.hidden ? b.value : -1}); })()`)), &now))
		if now.Screen != "live-sending" {
			break
		}
		if now.Share > 0.1 && now.Share < 0.9 && !partway {
			partway = true
			contains(t, now.Text, web.T("en", "live.uploading"))
			tb.shootPhones("sending", 390, 844)
		}
		checking = checking || (now.Share < 0 && strings.Contains(now.Text, web.T("en", "live.sending")))
	}
	if !partway || !checking {
		t.Errorf("sending showed its share partway: %v; then that the server checks: %v", partway, checking)
	}
	end, w := answered(t, tb, walk{})
	t.Logf("sent again: %s; %d frames; the server's steps %+v, failures %v", strings.ReplaceAll(end, "\n", " / "), len(w.Sent), w.Answer.Steps, w.Answer.Failures)
	if len(first) < 10 || !slices.Equal(w.Sent, first) {
		t.Fatalf("sent again %d frames, not the %d of the dropped answer", len(w.Sent), len(first))
	}
	if n := eval[int](tb, `idgateTestCamera.log.length`); n != recorded {
		t.Errorf("the camera played %d segments more: the page recorded again", n-recorded)
	}
	if n := eval[int](tb, `idgateTestCamera.dropped`); n != 1 {
		t.Errorf("%d answers dropped, want 1", n)
	}
	if len(w.Answer.Steps) == 0 {
		t.Errorf("the server did not judge the frames sent again: %s", end)
	}
}
