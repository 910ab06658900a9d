// Command auth measures the verifier's sign-in and its cheapest authenticated
// request end to end over loopback HTTP: POST /auth and GET /me, each a fixed number
// of requests at a fixed concurrency, printing requests/s and p50/p99
// latency. The server runs in-process on SQLite in a temp dir with the
// sign-in rate limit off (it would otherwise allow 5 a minute).
//
// POST /auth is dominated by argon2id by design (19 MiB, 2 passes per
// attempt): its throughput is bounded by memory bandwidth and cores, and is
// what makes password guessing expensive. GET /me shows the cost of the
// HTTP stack, JWT verification and one indexed account read.
package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/idgate/idgate/verifier"
	vhttp "github.com/idgate/idgate/verifier/http"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest"
)

const (
	email    = "bench@example.com"
	password = "benchmark password"
)

type scenario struct {
	name        string
	requests    int
	concurrency int
	status      int // every answer must have it
	newRequest  func(base string) *http.Request
}

// result is one scenario's figures.
type result struct {
	perSecond float64
	p50, p99  time.Duration
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/auth:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "idgate-bench-auth")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	store, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(dir, "idgate.db"))
	if err != nil {
		return err
	}
	defer store.Close()
	acct, err := verifier.NewAccount(email, password, time.Now())
	if err != nil {
		return err
	}
	if err := store.CreateAccount(ctx, acct); err != nil {
		return err
	}
	v, err := verifiertest.New(verifiertest.Options{Store: store, Config: vhttp.Config{ReadTimeout: 10 * time.Second}})
	if err != nil {
		return err
	}
	defer v.Close()
	base := v.URL

	tok, err := v.Auth.Issue(acct.ID)
	if err != nil {
		return err
	}
	signIn := func(email, pw string) func(string) *http.Request {
		body := []byte(fmt.Sprintf(`{"email":%q,"password":%q}`, email, pw))
		return func(base string) *http.Request {
			r, _ := http.NewRequest("POST", base+"/auth", bytes.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			return r
		}
	}
	scenarios := []scenario{
		{"POST /auth", 200, 4, 200, signIn(email, password)},
		{"GET /me", 20000, 16, 200, func(base string) *http.Request {
			r, _ := http.NewRequest("GET", base+"/me", nil)
			r.Header.Set("Authorization", "Bearer "+tok.Token)
			return r
		}},
		// Failed sign-ins, one at a time: an unknown e-mail must cost what a
		// wrong password costs, or timing would reveal which accounts exist.
		{"401 wrong password", 60, 1, 401, signIn(email, "wrong password")},
		{"401 unknown e-mail", 60, 1, 401, signIn("nobody@example.com", "wrong password")},
	}
	fmt.Printf("verifier auth over loopback HTTP, SQLite, GOMAXPROCS=%d\n", runtime.GOMAXPROCS(0))
	fmt.Printf("%-20s %8s %5s %10s %10s %10s\n", "scenario", "requests", "conc", "req/s", "p50", "p99")
	results := map[string]result{}
	for _, s := range scenarios {
		r, err := measure(base, s)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		results[s.name] = r
		fmt.Printf("%-20s %8d %5d %10.1f %10s %10s\n", s.name, s.requests, s.concurrency, r.perSecond, r.p50.Round(time.Microsecond), r.p99.Round(time.Microsecond))
	}
	fmt.Printf("unknown e-mail / wrong password p50 ratio: %.2f (1.00 = indistinguishable)\n",
		float64(results["401 unknown e-mail"].p50)/float64(results["401 wrong password"].p50))
	fmt.Println("POST /auth is bounded by argon2id (19 MiB, t=2, p=1 per attempt) by design.")
	return nil
}

func measure(base string, s scenario) (result, error) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: s.concurrency}}
	defer client.CloseIdleConnections()
	latencies := make([]time.Duration, s.requests)
	next := make(chan int)
	errs := make(chan error, s.concurrency)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < s.concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				t := time.Now()
				resp, err := client.Do(s.newRequest(base))
				if err != nil {
					errs <- err
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != s.status {
					errs <- fmt.Errorf("status %d", resp.StatusCode)
					return
				}
				latencies[i] = time.Since(t)
			}
		}()
	}
	var failed error
feed:
	for i := 0; i < s.requests; i++ {
		select {
		case next <- i:
		case failed = <-errs:
			break feed
		}
	}
	close(next)
	wg.Wait()
	if failed != nil {
		return result{}, failed
	}
	select {
	case err := <-errs:
		return result{}, err
	default:
	}
	elapsed := time.Since(start)
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	return result{float64(s.requests) / elapsed.Seconds(), pct(0.50), pct(0.99)}, nil
}
