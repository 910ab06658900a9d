package systemtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// TestTwoInstances runs two verifiers behind a round-robin balancer on one
// PostgreSQL schema and one Redis database, and the storefront proxy
// (`idgate store serve`) creating through the balancer, and checks what
// must hold across them: creates and GETs served by both, the quota exact,
// the rate limit shared, each expiry done once, and each webhook answered
// once per attempt
// with the instance delivering it killed (kill -9) mid-attempt and the other
// taking the delivery over when the lease runs out (webhook.DefaultLease,
// 30 s: the longest step).
func TestTwoInstances(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts two verifier processes (about a minute)")
	}
	ctx := context.Background()
	rc := newReceiver(t)
	c := newCluster(t, "IDGATE_PLAN=core=30,basic=30,full=30", "IDGATE_SWEEP_INTERVAL=200ms", "SSL_CERT_FILE="+rc.certFile)
	a, b := c.start(t, "a"), c.start(t, "b")
	rc.pids = []int{a.cmd.Process.Pid, b.cmd.Process.Pid}
	lb := newBalancer(t, a, b)
	store, err := sqlstore.Open(ctx, c.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	quotaAcct, quotaTok := signUp(t, store, lb.url, "quota@example.com")
	hookAcct, hookTok := signUp(t, store, lb.url, "hooks@example.com")

	t.Run("QuotaExactAcrossInstances", func(t *testing.T) {
		const tries, allowance = 40, 30
		codes := make([]int, tries)
		ids := make([]string, tries)
		var wg sync.WaitGroup
		for i := range tries {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var v struct{ ID string }
				codes[i] = call(t, lb.url, "POST", "/verification", quotaTok, map[string]any{}, &v)
				ids[i] = v.ID
			}()
		}
		wg.Wait()
		created, refused := 0, 0
		for i, code := range codes {
			switch code {
			case http.StatusCreated:
				created++
				if got := call(t, lb.url, "GET", "/verification?id="+ids[i], quotaTok, nil, nil); got != http.StatusOK {
					t.Errorf("GET %s through the balancer: %d", ids[i], got)
				}
			case http.StatusPaymentRequired:
				refused++
			default:
				t.Errorf("create: status %d", code)
			}
		}
		if created != allowance || refused != tries-allowance {
			t.Errorf("%d created, %d refused (402) of %d concurrent creates on two instances; want %d and %d", created, refused, tries, allowance, tries-allowance)
		}
		served := lb.served()
		if served["a"] < 20 || served["b"] < 20 {
			t.Errorf("requests per instance %v: the balancer should have spread them", served)
		}
		t.Logf("requests per instance: %v", served)
	})

	t.Run("RateLimitSharedInRedis", func(t *testing.T) {
		// POST /auth allows 5 a minute; alone, each instance would see 3 of 6.
		limited := 0
		for range 6 {
			code := call(t, lb.url, "POST", "/auth", "", map[string]string{"email": "nobody@example.com", "password": "wrong password!"}, nil)
			if code == http.StatusTooManyRequests {
				limited++
			} else if code != http.StatusUnauthorized {
				t.Fatalf("POST /auth with a wrong password: %d", code)
			}
		}
		if limited == 0 {
			t.Error("6 sign-in attempts over two instances within a minute, none refused with 429: the limit is not shared")
		}
	})

	t.Run("SweeperExpiresOnce", func(t *testing.T) {
		const due = 6
		now := time.Now().UTC()
		var ids []string
		for range due {
			v := verifier.Verification{ID: uuid.NewString(), AccountID: quotaAcct.ID, TokenHash: []byte(uuid.NewString()),
				Status: verifier.StatusPending, Type: verifier.TypeBasic, LifetimeDays: 1, WebhookHeaders: map[string]string{},
				CreatedAt: now.Add(-25 * time.Hour), UpdatedAt: now.Add(-25 * time.Hour), ExpiresAt: now.Add(-time.Hour)}
			if err := store.CreateVerification(ctx, v, verifier.Allowance{Limit: -1}); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, v.ID)
		}
		waitFor(t, 10*time.Second, "the due links to expire", func() bool {
			for _, id := range ids {
				v, err := store.GetVerification(ctx, quotaAcct.ID, id)
				if err != nil || v.Status != verifier.StatusExpired {
					return false
				}
			}
			return true
		})
		time.Sleep(time.Second) // more sweeps on both
		total := 0
		for _, in := range []*instance{a, b} {
			n := loggedCount(in, "expired verifications")
			t.Logf("instance %s expired %d", in.name, n)
			total += n
		}
		if total != due {
			t.Errorf("the instances' sweepers expired %d in all; want %d, each once", total, due)
		}
	})

	var secret struct {
		Secret string `json:"secret"`
	}
	if code := call(t, lb.url, "POST", "/webhook-secret", hookTok, map[string]any{}, &secret); code != http.StatusCreated || secret.Secret == "" {
		t.Fatalf("POST /webhook-secret: %d %+v", code, secret)
	}

	t.Run("StorefrontProxyThroughTheBalancer", func(t *testing.T) {
		const origin = "https://shop.example.com"
		var key struct {
			Key string `json:"key"`
		}
		if code := call(t, lb.url, "POST", "/integration-key", hookTok, map[string]any{"allowed_domains": []string{"shop.example.com"}}, &key); code != http.StatusCreated {
			t.Fatalf("POST /integration-key: %d", code)
		}
		proxyURL := startProxy(t, lb.url, c.redisURL, key.Key, secret.Secret, origin)
		before := lb.served()
		for range 4 {
			code, id := startThroughProxy(t, proxyURL, origin, uuid.NewString())
			if code != http.StatusCreated {
				t.Fatalf("start through the proxy: %d", code)
			}
			if got := call(t, lb.url, "GET", "/verification?id="+id, hookTok, nil, nil); got != http.StatusOK {
				t.Errorf("the proxy's verification %s read through the balancer: %d", id, got)
			}
		}
		after := lb.served()
		if after["a"] == before["a"] || after["b"] == before["b"] {
			t.Errorf("the proxy's creates and the reads reached %v then %v: both instances should serve them", before, after)
		}
	})

	t.Run("WebhooksOncePerAttemptThroughKill", func(t *testing.T) {
		const n = 6
		var ids []string
		for range n {
			var v struct{ ID string }
			if code := call(t, lb.url, "POST", "/verification", hookTok, map[string]any{"webhook_url": rc.url}, &v); code != http.StatusCreated {
				t.Fatalf("create with a webhook: %d", code)
			}
			ids = append(ids, v.ID)
		}
		complete := func(id string) {
			for _, st := range []verifier.Status{verifier.StatusStarted, verifier.StatusCompleted} {
				_, err := store.UpdateVerification(ctx, hookAcct.ID, id, func(v *verifier.Verification) error {
					v.Status = st
					if st == verifier.StatusCompleted {
						v.CompletedAt = time.Now()
						v.Result = json.RawMessage(fmt.Sprintf(`{"id":%q,"status":"completed"}`, id))
					}
					return nil
				})
				if err != nil {
					t.Fatalf("→ %s: %v", st, err)
				}
			}
		}
		answered := func() map[string]int {
			out := map[string]int{}
			for _, h := range rc.snapshot() {
				if h.answered {
					out[h.delivery]++
				}
			}
			return out
		}
		// Five completions, delivered by whichever instance claims them.
		for _, id := range ids[:n-1] {
			complete(id)
		}
		waitFor(t, 20*time.Second, "five webhooks", func() bool { return len(answered()) == n-1 })

		// The sixth is held by the receiver; its sender is killed mid-attempt.
		rc.armHold()
		complete(ids[n-1])
		var held hit
		select {
		case held = <-rc.held:
		case <-time.After(20 * time.Second):
			t.Fatal("the sixth webhook never arrived")
		}
		victim, survivor := a, b
		if held.pid == b.cmd.Process.Pid {
			victim, survivor = b, a
		} else if held.pid != a.cmd.Process.Pid {
			t.Fatalf("cannot tell which instance sent the held webhook (%s)", held.remote)
		}
		victim.kill(t)
		t.Logf("killed %s mid-delivery of %s; %s takes the lease over", victim.name, held.delivery, survivor.name)
		waitFor(t, 60*time.Second, "the survivor to deliver the held webhook", func() bool { return answered()[held.delivery] == 1 })

		hits := rc.snapshot()
		perAttempt := map[string]int{}
		for _, h := range hits {
			if h.answered {
				perAttempt[fmt.Sprintf("%s#%d", h.delivery, h.attempt)]++
			}
		}
		for key, k := range perAttempt {
			if k != 1 {
				t.Errorf("delivery attempt %s answered %d times", key, k)
			}
		}
		if got := len(answered()); got != n {
			t.Errorf("%d deliveries answered; want %d", got, n)
		}
		var redo []hit
		for _, h := range hits {
			if h.delivery == held.delivery {
				redo = append(redo, h)
			}
		}
		if len(redo) != 2 || redo[0].answered || !redo[1].answered || redo[0].attempt != redo[1].attempt ||
			redo[1].pid != survivor.cmd.Process.Pid {
			t.Errorf("held delivery's requests %+v; want the killed instance's unanswered one, then the same attempt from %s (pid %d)", redo, survivor.name, survivor.cmd.Process.Pid)
		}
		senders := map[int]int{}
		for _, h := range hits {
			senders[h.pid]++
		}
		t.Logf("webhook requests per sending pid: %v (a=%d, b=%d)", senders, a.cmd.Process.Pid, b.cmd.Process.Pid)

		// The balancer drops the dead instance; the survivor serves alone.
		for _, id := range ids {
			if code := call(t, lb.url, "GET", "/verification?id="+id, hookTok, nil, nil); code != http.StatusOK {
				t.Errorf("GET after the kill: %d", code)
			}
		}
	})
}

// signUp creates an account in the store and signs it in through base,
// returning the account and its access token.
func signUp(t *testing.T, store *sqlstore.DB, base, email string) (verifier.Account, string) {
	t.Helper()
	acct, err := verifier.NewAccount(email, "correct horse battery", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := store.CreateAccount(context.Background(), acct); err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if code := call(t, base, "POST", "/auth", "", map[string]string{"email": email, "password": "correct horse battery"}, &tok); code != http.StatusOK {
		t.Fatalf("POST /auth: %d", code)
	}
	return acct, tok.AccessToken
}

// call sends a JSON request and decodes a JSON answer into out (if given).
func call(t *testing.T, base, method, path, token string, body, out any) int {
	t.Helper()
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
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", method, path, err)
		return 0
	}
	b := readAll(resp.Body)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Errorf("%s %s: %v (%s)", method, path, err, b)
		}
	}
	return resp.StatusCode
}

// waitFor polls cond until it holds or the time is up.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(limit); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// loggedCount sums the count of an instance's JSON log lines with msg.
func loggedCount(in *instance, msg string) int {
	total := 0
	for _, line := range strings.Split(in.log.String(), "\n") {
		var rec struct {
			Msg   string `json:"msg"`
			Count int    `json:"count"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == msg {
			total += rec.Count
		}
	}
	return total
}
