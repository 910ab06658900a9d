package systemtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// TestFaultsUnderLoad: under a steady load of creates,
// GETs and completions with webhooks, PostgreSQL is restarted, Redis is
// stopped and started, and one verifier is killed (kill -9) while it
// delivers a webhook. Afterwards: no acknowledged create is lost, every
// acknowledged completion's webhook arrived (same request_id) and was made
// once, /readyz reported the database outage and recovered, and every
// request during the faults got an answer within the client's patience:
// a success, or 503 with Retry-After (502 from the balancer only for the
// requests the killed instance held), never a 500 and never a hang.
//
// PostgreSQL and Redis here are the test's own (services_test.go), so the
// restarts touch no other test. Completions are written through the store,
// as an engine-free stand-in for the flow's last step (the same
// UpdateVerification transaction enqueues the webhook).
func TestFaultsUnderLoad(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("restarts PostgreSQL and Redis under load (about 90 seconds)")
	}
	ctx := context.Background()
	pg := newPrivatePG(t)
	rd := newPrivateRedis(t)
	rc := newReceiver(t)
	c := newClusterAt(t, pg.dsn, rd.url, "IDGATE_PLAN=core=-1,basic=-1,full=-1", "IDGATE_SWEEP_INTERVAL=1s", "SSL_CERT_FILE="+rc.certFile)
	a, b := c.start(t, "a"), c.start(t, "b")
	rc.pids = []int{a.cmd.Process.Pid, b.cmd.Process.Pid}
	lb := newBalancer(t, a, b)
	store, err := sqlstore.Open(ctx, pg.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()

	// Four accounts (sign-in allows 5 a minute per client address), so the
	// per-account create and read limits (100 and 300 an hour) hold the load.
	type client struct {
		acct  verifier.Account
		token string
	}
	var clients []client
	for i := range 4 {
		acct, token := signUp(t, store, lb.url, fmt.Sprintf("load%d@example.com", i))
		clients = append(clients, client{acct, token})
	}

	rec := &loadRecord{}
	load, stopLoad := context.WithCancel(ctx)
	var wg sync.WaitGroup

	// Creators and readers: one per account, about 4 requests a second each.
	completions := make(chan [2]string, 1000) // account, verification
	for _, cl := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []string
			for load.Err() == nil {
				var v struct{ ID string }
				if rec.do(lb.url, "POST", "/verification", cl.token, map[string]any{"webhook_url": rc.url}, &v) == http.StatusCreated {
					rec.acked(v.ID, cl.acct.ID)
					mine = append(mine, v.ID)
					completions <- [2]string{cl.acct.ID, v.ID}
				}
				if len(mine) > 0 {
					rec.do(lb.url, "GET", "/verification?id="+mine[rand.IntN(len(mine))], cl.token, nil, nil)
				}
				time.Sleep(250 * time.Millisecond)
			}
		}()
	}
	// The completer: every acknowledged create is completed, retried
	// through outages until the store acknowledges it.
	completed := &sync.Map{}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			var job [2]string
			select {
			case job = <-completions:
			case <-load.Done():
				return
			}
			for load.Err() == nil {
				if err := complete(ctx, store, job[0], job[1]); err == nil {
					completed.Store(job[1], true)
					break
				} else if !sqlstore.Unavailable(err) {
					t.Errorf("completing %s: %v", job[1], err)
					break
				}
				time.Sleep(200 * time.Millisecond)
			}
		}
	}()
	// The load balancer's health check: /readyz of every instance, 10 a second.
	var readyMu sync.Mutex
	var readyLog []readyProbe
	wg.Add(1)
	go func() {
		defer wg.Done()
		for load.Err() == nil {
			for _, in := range []*instance{a, b} {
				select {
				case <-in.done:
					continue
				default:
				}
				p := readyProbe{at: time.Now(), code: getStatus(in.url + "/readyz")}
				readyMu.Lock()
				readyLog = append(readyLog, p)
				readyMu.Unlock()
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()

	time.Sleep(4 * time.Second) // steady state

	// Fault 1: PostgreSQL restarts (down 3 s).
	pgDown := time.Now()
	pg.stop(t)
	time.Sleep(3 * time.Second)
	pg.start(t)
	pgUp := time.Now()
	pgRecovered := rec.firstSuccessAfter(pgUp, 30*time.Second)
	time.Sleep(5 * time.Second)

	// Fault 2: Redis stops for 3 s (the limiter falls back to counting in process).
	redisDown := time.Now()
	rd.stop(t)
	time.Sleep(3 * time.Second)
	rd.start(t)
	redisUp := time.Now()
	time.Sleep(4 * time.Second)

	// Fault 3: the instance sending a webhook is killed mid-delivery; a
	// replacement joins; the survivor takes the delivery over when its lease ends.
	rc.armHold()
	var held hit
	select {
	case held = <-rc.held:
	case <-time.After(30 * time.Second):
		t.Fatal("no webhook arrived to hold")
	}
	victim := a
	if held.pid == b.cmd.Process.Pid {
		victim = b
	}
	killedAt := time.Now()
	victim.kill(t)
	rec.markKill(killedAt)
	replacement := c.start(t, "c")
	lb.add(replacement)
	rc.mu.Lock()
	rc.pids = append(rc.pids, replacement.cmd.Process.Pid)
	rc.mu.Unlock()
	time.Sleep(5 * time.Second)
	stopLoad()
	wg.Wait()

	// Every acknowledged create is there; every acknowledged completion's
	// webhook arrives (the held one after its lease runs out).
	acked := rec.ackedIDs()
	var want []string
	completed.Range(func(k, _ any) bool { want = append(want, k.(string)); return true })
	delivered := func() map[string]map[string]bool { // request_id → delivery ids answered
		out := map[string]map[string]bool{}
		for _, h := range rc.snapshot() {
			if h.answered {
				if out[h.request] == nil {
					out[h.request] = map[string]bool{}
				}
				out[h.request][h.delivery] = true
			}
		}
		return out
	}
	waitFor(t, 90*time.Second, "every acknowledged completion's webhook", func() bool {
		d := delivered()
		for _, id := range want {
			if len(d[id]) == 0 {
				return false
			}
		}
		return true
	})
	lost := 0
	for id, acct := range acked {
		v, err := store.GetVerification(ctx, acct, id)
		if err != nil {
			lost++
			t.Errorf("acknowledged create %s lost: %v", id, err)
			continue
		}
		if _, done := completed.Load(id); done && v.Status != verifier.StatusCompleted {
			t.Errorf("acknowledged completion %s reads %s", id, v.Status)
		}
	}
	dup := 0
	for id, deliveries := range delivered() {
		if len(deliveries) > 1 {
			dup++
			t.Errorf("verification %s completed into %d deliveries; want one", id, len(deliveries))
		}
	}

	// Answers during the faults.
	counts, bad := rec.summary(killedAt)
	for _, b := range bad {
		t.Error(b)
	}
	readyMu.Lock()
	sawOutage, recovered := false, false
	for _, p := range readyLog {
		if p.at.After(pgDown) && p.at.Before(pgUp) && p.code == http.StatusServiceUnavailable {
			sawOutage = true
		}
		if p.at.After(pgUp) && p.at.Before(redisDown) && p.code == http.StatusOK {
			recovered = true
		}
	}
	readyMu.Unlock()
	if !sawOutage {
		t.Error("/readyz never answered 503 while PostgreSQL was down")
	}
	if !recovered {
		t.Error("/readyz did not answer 200 again after PostgreSQL came back")
	}
	summary := fmt.Sprintf("faults under load: %d requests sent, %d succeeded, %d refused (503 with Retry-After: %d, 502 from the balancer at the kill: %d, 429: %d), %d lost (acknowledged creates %d, completions %d, webhooks delivered for all, duplicate completions %d); PostgreSQL down %s, first success %s after it came back; Redis down %s",
		counts.sent, counts.ok, counts.refused(), counts.s503, counts.s502, counts.s429, lost, len(acked), len(want), dup,
		pgUp.Sub(pgDown).Round(100*time.Millisecond), pgRecovered.Round(10*time.Millisecond), redisUp.Sub(redisDown).Round(100*time.Millisecond))
	t.Log(summary)
	fmt.Fprintln(os.Stderr, summary)
	if lost != 0 || dup != 0 {
		t.Errorf("lost %d, duplicated %d; want 0 and 0", lost, dup)
	}
	if counts.ok == 0 || counts.s503 == 0 {
		t.Errorf("%d successes and %d 503s: the load should have run through the outage and met it", counts.ok, counts.s503)
	}
}

// complete moves a verification to started then completed through the
// store, as the flow's submit does; a retry after an answer that was lost
// (the commit landed, the reply did not) finds it completed and is done.
func complete(ctx context.Context, store *sqlstore.DB, account, id string) error {
	for _, st := range []verifier.Status{verifier.StatusStarted, verifier.StatusCompleted} {
		_, err := store.UpdateVerification(ctx, account, id, func(v *verifier.Verification) error {
			if v.Status == st || v.Status == verifier.StatusCompleted {
				return errAlready
			}
			v.Status = st
			if st == verifier.StatusCompleted {
				v.CompletedAt = time.Now()
				v.Result = json.RawMessage(fmt.Sprintf(`{"request_id":%q,"status":"completed"}`, id))
			}
			return nil
		})
		if err != nil && !errors.Is(err, errAlready) {
			return err
		}
	}
	return nil
}

var errAlready = errors.New("already there")

type readyProbe struct {
	at   time.Time
	code int
}

func getStatus(url string) int {
	cl := http.Client{Timeout: 5 * time.Second}
	resp, err := cl.Get(url)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// loadRecord keeps every request's outcome.
type loadRecord struct {
	mu      sync.Mutex
	results []result
	ack     map[string]string // verification → account, acknowledged creates
	kill    time.Time
}

type result struct {
	at, end    time.Time
	what       string
	code       int
	retryAfter string
	err        error
}

// patience is how long the load's client waits for an answer: longer is a hang.
const patience = 10 * time.Second

func (r *loadRecord) do(base, method, path, token string, body, out any) int {
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res := result{at: time.Now(), what: method + " " + strings.SplitN(path, "?", 2)[0]}
	cl := http.Client{Timeout: patience}
	resp, err := cl.Do(req)
	res.end = time.Now()
	if err != nil {
		res.err = err
	} else {
		res.code, res.retryAfter = resp.StatusCode, resp.Header.Get("Retry-After")
		b := readAll(resp.Body)
		if out != nil && resp.StatusCode < 300 {
			_ = json.Unmarshal(b, out)
		}
	}
	r.mu.Lock()
	r.results = append(r.results, res)
	r.mu.Unlock()
	return res.code
}

func (r *loadRecord) acked(id, account string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ack == nil {
		r.ack = map[string]string{}
	}
	r.ack[id] = account
}

func (r *loadRecord) ackedIDs() map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]string{}
	for k, v := range r.ack {
		out[k] = v
	}
	return out
}

func (r *loadRecord) markKill(at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kill = at
}

// firstSuccessAfter waits for the first request started after t that
// succeeded, and says how long after t it was.
func (r *loadRecord) firstSuccessAfter(t time.Time, limit time.Duration) time.Duration {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		r.mu.Lock()
		for _, res := range r.results {
			if !res.at.Before(t) && res.code >= 200 && res.code < 300 {
				r.mu.Unlock()
				return res.end.Sub(t)
			}
		}
		r.mu.Unlock()
	}
	return limit
}

type loadCounts struct{ sent, ok, s503, s502, s429 int }

func (c loadCounts) refused() int { return c.s503 + c.s502 + c.s429 }

// summary counts the answers and lists the ones a client must never get:
// a 500 (or any status not accounted for), a 503 without Retry-After, a 502
// outside the moment of the kill, no answer within patience.
func (r *loadRecord) summary(killedAt time.Time) (loadCounts, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var c loadCounts
	var bad []string
	for _, res := range r.results {
		c.sent++
		switch {
		case res.err != nil:
			bad = append(bad, fmt.Sprintf("%s at %s: no answer within %s (%v)", res.what, res.at.Format("15:04:05.000"), patience, res.err))
		case res.code >= 200 && res.code < 300:
			c.ok++
		case res.code == http.StatusServiceUnavailable:
			c.s503++
			if res.retryAfter == "" {
				bad = append(bad, fmt.Sprintf("%s at %s: 503 without Retry-After", res.what, res.at.Format("15:04:05.000")))
			}
		case res.code == http.StatusBadGateway && !res.end.Before(killedAt) && res.at.Before(killedAt.Add(time.Second)):
			c.s502++
		case res.code == http.StatusTooManyRequests:
			c.s429++
		default:
			bad = append(bad, fmt.Sprintf("%s at %s: status %d", res.what, res.at.Format("15:04:05.000"), res.code))
		}
	}
	sort.Strings(bad)
	if len(bad) > 20 {
		bad = append(bad[:20], fmt.Sprintf("… and %d more", len(bad)-20))
	}
	return c, bad
}
