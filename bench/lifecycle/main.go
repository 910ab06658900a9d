// Command lifecycle measures creating and reading verifications through the
// real HTTP API on PostgreSQL, next to raw pgx statements on the same table
// at the same concurrency, and prints requests/s, p50/p99, CPU per request
// and each ratio with its target (for a 2-core machine; docs/testing.md):
//
//   - GET /verification ≥ 0.6× a raw primary-key SELECT of the same rows
//     at concurrency 32, and GET p99 < 5 ms at concurrency 4;
//   - creates under a finite plan (the production path: every real account
//     has an allowance, so every create claims a quota slot) ≥ 0.5× the raw
//     single-row INSERT at concurrency 32;
//   - creates under an unlimited plan (one plain insert) ≥ 0.5× likewise.
//
// A create is an HTTP request, the bearer check (after the first request
// the Authenticator answers from its cache of verified tokens: no JWT
// parse, no account read), validation, a random token, and the store's
// insert (plus, under a finite plan, a slot claimed on one of the quota
// counter's stripes in the same transaction); the raw baseline is only the
// insert, so the ratio is the price of everything around it. A GET is the
// bearer check and one SELECT (with the latest webhook delivery's state).
//
// Each scenario also prints the CPU it cost per request, all in: this
// process (the HTTP client and the server share it) plus the PostgreSQL
// backends serving its pools, and the backends' round trips per request
// (their voluntary context switches). With every party on the same cores,
// CPU per request bounds throughput (cores / CPU per request), so each
// ratio is printed twice: by throughput, and by CPU per request. On a
// shared, loaded machine the first swings with the neighbours: the
// scheduler shares the cores per runnable thread, and a raw SELECT keeps
// 32 backends runnable where the HTTP path keeps this process's few
// threads, so at load 20-40 the raw SELECT got 1.5 cores and the GETs 0.6
// (measured, 2026-11-25). The second does not.
//
// The load generator is fasthttp's client (fiber's own HTTP engine, so no
// new module), not net/http's: the client shares the cores with the server
// and PostgreSQL, so its CPU is charged to every HTTP scenario and to none
// of the raw ones. net/http's client cost about as much as the server's
// whole exchange: /healthz took 32-34 µs of CPU per request with it and
// 16-18 µs with fasthttp's (2026-11-25, idle machine, alternated runs),
// which moved every HTTP ratio by the difference and measured the bench,
// not the service. A load generator in another process (wrk) would be
// cheaper still, but then its CPU is outside both meters.
//
// GET /healthz is the HTTP exchange alone (client and server, the same
// middleware, no bearer check, no database): the floor under every API
// request, and the conc-4 rows of the raw SELECT and of /healthz show what
// the p99 target stands on. Under the GET ratio a "floor" line composes
// /healthz and the raw SELECT (their times per request added): the best
// ratio a GET with a statement of its own could reach on this machine with
// client and server in one process, 0.62-0.68 with fasthttp's client. A
// GET met the target only when the store stopped sending a statement per
// GET: concurrent GETs are read together (sqlstore/getbatch.go), and the
// "PG trips" column shows how many statements a GET costs (0.1 at
// concurrency 32), so the GET goes past that floor.
//
// The row "store.GetVerification (no HTTP)" is the GET's store call alone
// (batched as the GETs are), so the rows show where a GET's CPU goes. On
// 2026-11-28: raw SELECT 54-57 µs (PostgreSQL 33-36), /healthz 25-31, the
// store call 24-27 (PostgreSQL 9), the GET 62-76 (PostgreSQL 12-13);
// before the batching the store call cost 87 and the GET 134-138.
//
// Scenarios compared with each other run interleaved, in rounds (raw
// INSERT, finite, unlimited, raw INSERT, ...: runInRounds), so a baseline
// and ours meet the same table sizes and the same neighbours. Run one after
// the other, the baseline always had the empty table and the first few
// seconds, and the create ratios moved with whatever the machine did
// meanwhile: three alternated runs of each way on 2026-11-28 gave finite
// creates 0.53, 0.48, 0.48 one after the other and 0.59, 0.49, 0.56 in
// rounds (unlimited 0.63, 0.67, 0.58 and 0.71, 0.60, 0.68).
//
// The server's store has -server-pool connections (default 32, the
// concurrency, as the baselines' pool); 0 runs it on sqlstore's default.
//
// -cpuprofile, -blockprofile and -mutexprofile write pprof profiles of the
// whole run (client and server together) for go tool pprof.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/valyala/fasthttp"

	"github.com/idgate/idgate/verifier"
	vhttp "github.com/idgate/idgate/verifier/http"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest"
)

const (
	concurrency = 32
	// getConcurrency is the GET latency target's.
	getConcurrency = 4
	// creates and gets are each scenario's requests: the whole run takes
	// about 16 s. A quarter of them took under 5 s, and the same code's
	// GET ratio then read 0.65-0.76 where longer runs read 0.59-0.62
	// (the raw SELECT settles faster than a short run sees).
	creates = 16000
	// quotaAllowance is the finite plan's allowance per type, far above
	// what the run creates, so none is refused.
	quotaAllowance = 1000000
	gets           = 32000
	warmup         = 200
	// budget bounds the whole run (make bench runs every program).
	budget = 80 * time.Second
)

type result struct {
	perSecond float64
	p50, p99  time.Duration
	// cpu is CPU time per request (this process and its PostgreSQL
	// backends), db the backends' share; 0 when it could not be read.
	cpu, db time.Duration
	// wakeups is the backends' voluntary context switches per request:
	// round trips to PostgreSQL.
	wakeups float64
}

func (r result) String() string {
	cpu, db := "n/a", "n/a"
	if r.cpu > 0 {
		cpu, db = r.cpu.Round(time.Microsecond).String(), r.db.Round(time.Microsecond).String()
	}
	return fmt.Sprintf("%10.0f %10s %10s %10s %10s %8.2f", r.perSecond, r.p50.Round(time.Microsecond), r.p99.Round(time.Microsecond), cpu, db, r.wakeups)
}

func main() {
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the measured scenarios to this file")
	blockProfile := flag.String("blockprofile", "", "write a blocking profile of the run to this file")
	mutexProfile := flag.String("mutexprofile", "", "write a mutex contention profile of the run to this file")
	serverPool := flag.Int("server-pool", concurrency, "pool_max_conns of the server's store (0: the server's own default)")
	only := flag.String("only", "", "run only the scenarios whose names match this regular expression (for profiling one of them)")
	flag.BoolVar(&keepSchema, "keep", false, "leave the bench's schema in place (for EXPLAIN afterwards) and print its name")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench/lifecycle:", err)
			os.Exit(1)
		}
		// Started at the first measured scenario, so set-up and the
		// creates -only skips but the GETs need are left out.
		startProfile = func() {
			if err := pprof.StartCPUProfile(f); err != nil {
				fmt.Fprintln(os.Stderr, "bench/lifecycle:", err)
				os.Exit(1)
			}
			startProfile = func() {}
		}
		defer pprof.StopCPUProfile()
	}
	if *blockProfile != "" {
		runtime.SetBlockProfileRate(int(10 * time.Microsecond))
		defer writeProfile("block", *blockProfile)
	}
	if *mutexProfile != "" {
		runtime.SetMutexProfileFraction(5)
		defer writeProfile("mutex", *mutexProfile)
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	filter, err := regexp.Compile(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/lifecycle: -only:", err)
		os.Exit(2)
	}
	if err := run(ctx, *serverPool, filter); err != nil {
		fmt.Fprintln(os.Stderr, "bench/lifecycle:", err)
		os.Exit(1)
	}
}

func writeProfile(name, path string) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup(name).WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench/lifecycle: %s profile: %v\n", name, err)
	}
}

func run(ctx context.Context, serverPool int, only *regexp.Regexp) error {
	dsn, drop, err := schema(ctx)
	if err != nil {
		fmt.Printf("bench/lifecycle: PostgreSQL unavailable, skipped (%v)\n", err)
		return nil
	}
	defer drop()
	storeDSN := dsn
	if serverPool > 0 {
		storeDSN += fmt.Sprintf("&pool_max_conns=%d", serverPool)
	}
	store, err := sqlstore.Open(ctx, storeDSN) // migrates
	if err != nil {
		return err
	}
	defer store.Close()
	api, err := serve(store, verifier.UnlimitedPlan)
	if err != nil {
		return err
	}
	defer api.Close()
	base := api.URL
	// The same API with a finite allowance, so every create takes the
	// quota path: claim a slot, insert.
	quotaAPI, err := serve(store, verifier.Plan{verifier.TypeCore: quotaAllowance, verifier.TypeBasic: quotaAllowance, verifier.TypeFull: quotaAllowance})
	if err != nil {
		return err
	}
	defer quotaAPI.Close()
	quotaBase := quotaAPI.URL
	acct, bearer, err := benchAccount(ctx, store, api, "bench@example.com")
	if err != nil {
		return err
	}
	_, quotaBearer, err := benchAccount(ctx, store, api, "bench-quota@example.com")
	if err != nil {
		return err
	}

	// The baselines' pool has a connection per worker: pgx at its best.
	pool, err := pgxpool.New(ctx, dsn+fmt.Sprintf("&pool_max_conns=%d", concurrency))
	if err != nil {
		return err
	}
	defer pool.Close()

	client := newClient(base)
	quotaClient := newClient(quotaBase)
	body := []byte(`{"external_id":"order-10423","requested_fields":["first_names","last_name"],"encryption_key_mode":"none","webhook_url":"https://shop.example.com/hooks","message":"Please verify your ID"}`)
	var ids []string
	var idsMu sync.Mutex
	// creator makes the create op; keep collects the IDs GET then reads.
	creator := func(client *fasthttp.HostClient, bearer string, keep bool) func(context.Context) error {
		return func(ctx context.Context) error {
			req := fasthttp.AcquireRequest()
			defer fasthttp.ReleaseRequest(req)
			req.Header.SetMethod("POST")
			req.SetRequestURI("http://" + client.Addr + "/verification")
			req.Header.SetContentType("application/json")
			req.Header.Set("Authorization", bearer)
			req.SetBodyRaw(body)
			var v struct{ ID string }
			if err := call(client, req, http.StatusCreated, &v); err != nil {
				return err
			}
			if !keep {
				return nil
			}
			idsMu.Lock()
			ids = append(ids, v.ID)
			idsMu.Unlock()
			return nil
		}
	}
	create, createQuota := creator(client, bearer, true), creator(quotaClient, quotaBearer, false)
	var next atomic.Int64
	get := func(ctx context.Context) error {
		id := ids[int(next.Add(1))%len(ids)]
		req := fasthttp.AcquireRequest()
		defer fasthttp.ReleaseRequest(req)
		req.SetRequestURI("http://" + client.Addr + "/verification?id=" + id)
		req.Header.Set("Authorization", bearer)
		return call(client, req, http.StatusOK, nil)
	}
	// healthz is the HTTP exchange alone, through the same middleware (no
	// bearer check, no database): the floor under every API request.
	healthz := func(ctx context.Context) error {
		req := fasthttp.AcquireRequest()
		defer fasthttp.ReleaseRequest(req)
		req.SetRequestURI("http://" + client.Addr + "/healthz")
		return call(client, req, http.StatusOK, nil)
	}
	// storeGet is the GET's store call alone, no HTTP: where a GET's cost
	// goes between the exchange, the store and PostgreSQL.
	var nextStore atomic.Int64
	storeGet := func(ctx context.Context) error {
		_, err := store.GetVerification(ctx, acct.ID, ids[int(nextStore.Add(1))%len(ids)])
		return err
	}
	raw := func(ctx context.Context) error { return rawInsert(ctx, pool, acct.ID) }
	var nextRaw atomic.Int64
	rawGet := func(ctx context.Context) error {
		return rawSelect(ctx, pool, ids[int(nextRaw.Add(1))%len(ids)])
	}

	pools := "the server's default pool"
	if serverPool > 0 {
		pools = fmt.Sprintf("server pool_max_conns %d", serverPool)
	}
	fmt.Printf("verification lifecycle on PostgreSQL, concurrency %d, %s, baselines' pool %d, GOMAXPROCS=%d (quotas unlimited unless said, rate limits off)\n",
		concurrency, pools, concurrency, runtime.GOMAXPROCS(0))
	meter := newCPUMeter(dsn)
	fmt.Printf("%-34s %8s %10s %10s %10s %10s %10s %8s\n", "scenario", "requests", "req/s", "p50", "p99", "CPU/req", "of it PG", "PG trips")
	// Each group's scenarios run interleaved (runInRounds).
	scenarios := [][]scenario{{
		{"raw INSERT (pgx, baseline)", creates, concurrency, raw},
		{"POST /verification (finite plan)", creates, concurrency, createQuota},
		{"POST /verification (unlimited)", creates, concurrency, create},
	}, {
		{"raw SELECT by id (pgx, baseline)", gets, concurrency, rawGet},
		{"GET /healthz (HTTP alone, no DB)", gets, concurrency, healthz},
		{"store.GetVerification (no HTTP)", gets, concurrency, storeGet},
		{"GET /verification?id=", gets, concurrency, get},
	}, {
		// Few at a time: the latency of a read without queueing behind 31
		// others for the machine's cores.
		{"GET /verification?id= (conc 4)", gets / 2, getConcurrency, get},
		// What the p99 target stands on: the same concurrency with no HTTP,
		// and with HTTP but no database (on a loaded machine both carry the
		// scheduler's waits, which no change to a handler removes).
		{"raw SELECT by id (conc 4)", gets / 2, getConcurrency, rawGet},
		{"GET /healthz (conc 4)", gets / 2, getConcurrency, healthz},
	}}
	results := map[string]result{}
	for i, group := range scenarios {
		group = slices.DeleteFunc(slices.Clone(group), func(s scenario) bool { return !only.MatchString(s.name) })
		if i > 0 && len(group) > 0 && len(ids) == 0 { // the GETs read what the unlimited creates made
			if _, _, err := measure(ctx, creates, concurrency, create); err != nil {
				return fmt.Errorf("POST /verification (unlimited): %w", err)
			}
		}
		if err := runInRounds(ctx, group, meter, results); err != nil {
			return err
		}
	}
	// Each ratio of throughputs, and beside it the same ratio by CPU per
	// request (the baseline's over ours): on a shared, loaded machine the
	// throughputs swing with the neighbours, while the CPU a request costs
	// does not, and with every party on the same cores it is what bounds
	// the throughput ratio.
	ratio := func(label, ours, base string, target float64) {
		o, b := results[ours], results[base]
		if o.perSecond == 0 || b.perSecond == 0 {
			return
		}
		byCPU := "n/a"
		if o.cpu > 0 && b.cpu > 0 {
			byCPU = fmt.Sprintf("%.2f", float64(b.cpu)/float64(o.cpu))
		}
		fmt.Printf("%-46s %.2f (target ≥ %.2f; by CPU per request %s)\n", label+":", o.perSecond/b.perSecond, target, byCPU)
	}
	ratio(fmt.Sprintf("GET / raw SELECT at concurrency %d", concurrency), "GET /verification?id=", "raw SELECT by id (pgx, baseline)", 0.6)
	getFloor(results["GET /healthz (HTTP alone, no DB)"], results["raw SELECT by id (pgx, baseline)"], results["GET /verification?id="])
	if r, ok := results["GET /verification?id= (conc 4)"]; ok {
		floor := ""
		if raw, ok := results["raw SELECT by id (conc 4)"]; ok {
			floor += fmt.Sprintf("; raw SELECT's p99 %s", raw.p99.Round(time.Microsecond))
		}
		if h, ok := results["GET /healthz (conc 4)"]; ok {
			floor += fmt.Sprintf(", /healthz's %s", h.p99.Round(time.Microsecond))
		}
		fmt.Printf("%-46s %s (target < %s; p50 %s%s)\n", fmt.Sprintf("GET p99 at concurrency %d:", getConcurrency),
			r.p99.Round(time.Microsecond), getTarget, r.p50.Round(time.Microsecond), floor)
	}
	ratio(fmt.Sprintf("create (finite plan) / raw INSERT at conc. %d", concurrency), "POST /verification (finite plan)", "raw INSERT (pgx, baseline)", 0.5)
	ratio(fmt.Sprintf("create (unlimited) / raw INSERT at conc. %d", concurrency), "POST /verification (unlimited)", "raw INSERT (pgx, baseline)", 0.5)
	return nil
}

// getFloor prints the GET ratio's floor on this machine: a GET that did
// nothing but /healthz's HTTP exchange (the bench's client and the server
// in one process) and then the raw SELECT. Their times per request add up,
// by throughput (1/rate) and by CPU, so the floor is the raw SELECT's share
// of the sum: what the GET ratio would be if each GET sent a statement of
// its own and the verifier's own work (the bearer check, its query's extra
// column, scanning the row, encoding the response) cost nothing. Under it,
// the GET's rate as a share of that floor's: above 1 when GETs share
// statements (sqlstore/getbatch.go).
func getFloor(healthz, raw, get result) {
	if healthz.perSecond == 0 || raw.perSecond == 0 {
		return
	}
	byCPU := "n/a"
	if healthz.cpu > 0 && raw.cpu > 0 {
		byCPU = fmt.Sprintf("%.2f", float64(raw.cpu)/float64(healthz.cpu+raw.cpu))
	}
	fmt.Printf("%-46s %.2f (by CPU per request %s)\n", "  floor (/healthz + raw SELECT composed):",
		healthz.perSecond/(healthz.perSecond+raw.perSecond), byCPU)
	if get.perSecond == 0 {
		return
	}
	// The GET against that floor: the share of the best attainable rate
	// it reaches, all its own work (bearer check, query, scan, JSON,
	// access log) included.
	floorRate := 1 / (1/healthz.perSecond + 1/raw.perSecond)
	byCPU = "n/a"
	if healthz.cpu > 0 && raw.cpu > 0 && get.cpu > 0 {
		byCPU = fmt.Sprintf("%.2f", float64(healthz.cpu+raw.cpu)/float64(get.cpu))
	}
	fmt.Printf("%-46s %.2f (by CPU per request %s)\n", "  GET / that floor:", get.perSecond/floorRate, byCPU)
}

// startProfile starts -cpuprofile's profile (once; nothing without it).
var startProfile = func() {}

// keepSchema is -keep: the schema is left for inspection.
var keepSchema bool

// getTarget is the GET p99 bound at getConcurrency.
const getTarget = 5 * time.Millisecond

// serve starts the API over store with plan on a loopback port
// (verifiertest.New: the tests' tokens, so an account's bearer from one
// serves on every instance).
func serve(store *sqlstore.DB, plan verifier.Plan) (*verifiertest.Verifier, error) {
	return verifiertest.New(verifiertest.Options{Store: store, Config: vhttp.Config{ReadTimeout: 10 * time.Second,
		PublicURL: "https://verify.example.com", Plan: plan}})
}

// benchAccount stores an account and returns it with a bearer header.
func benchAccount(ctx context.Context, store *sqlstore.DB, v *verifiertest.Verifier, email string) (verifier.Account, string, error) {
	acct, err := verifier.NewAccount(email, "benchmark password", time.Now())
	if err != nil {
		return verifier.Account{}, "", err
	}
	if err := store.CreateAccount(ctx, acct); err != nil {
		return verifier.Account{}, "", err
	}
	tok, err := v.Auth.Issue(acct.ID)
	if err != nil {
		return verifier.Account{}, "", err
	}
	return acct, "Bearer " + tok.Token, nil
}

// newClient is the load generator's connections to base, one per worker.
func newClient(base string) *fasthttp.HostClient {
	return &fasthttp.HostClient{Addr: strings.TrimPrefix(base, "http://"), MaxConns: concurrency,
		ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second}
}

// call sends req and checks the status, decoding the body into out if given.
func call(client *fasthttp.HostClient, req *fasthttp.Request, want int, out any) error {
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseResponse(resp)
	if err := client.Do(req, resp); err != nil {
		return err
	}
	b := resp.Body()
	if resp.StatusCode() != want {
		return fmt.Errorf("status %d: %s", resp.StatusCode(), b)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// rawInsert is the baseline: one verification row as the store writes it,
// with the same columns, and nothing else.
func rawInsert(ctx context.Context, pool *pgxpool.Pool, accountID string) error {
	tok := make([]byte, 32)
	_, _ = rand.Read(tok)
	now := time.Now().UTC()
	_, err := pool.Exec(ctx, `INSERT INTO verifications (id, account_id, token_hash, status, type, options, external_id,
		webhook_url, webhook_headers, message, lifetime_days, expires_at, created_at, updated_at)
		VALUES ($1, $2, $3, 'pending', 'basic', $4, 'order-10423', 'https://shop.example.com/hooks', '{}', 'Please verify your ID', 14, $5, $6, $6)`,
		uuid.NewString(), accountID, tok, `{"requested_fields":["first_names","last_name"],"encryption_key_mode":"none"}`,
		now.AddDate(0, 0, 14), now)
	return err
}

// rawSelect is the GET baseline: the row by its primary key, every column,
// read off the wire undecoded.
func rawSelect(ctx context.Context, pool *pgxpool.Pool, id string) error {
	rows, err := pool.Query(ctx, `SELECT * FROM verifications WHERE id = $1`, id)
	if err != nil {
		return err
	}
	n := 0
	for rows.Next() {
		_ = rows.RawValues()
		n++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n != 1 {
		return fmt.Errorf("raw select %s: %d rows", id, n)
	}
	return nil
}

// scenario is one measured operation: n requests from conc workers.
type scenario struct {
	name    string
	n, conc int
	op      func(context.Context) error
}

// rounds is how many turns each scenario of a group takes.
const rounds = 4

// runInRounds warms each scenario up, then runs the group's scenarios in
// turn, rounds times, each time n/rounds requests, and prints each one's
// sums: requests per second over its own time, percentiles over all its
// latencies, CPU per request over all its rounds.
func runInRounds(ctx context.Context, group []scenario, meter cpuMeter, results map[string]result) error {
	type sums struct {
		lat            []time.Duration
		elapsed        time.Duration
		cpu, db        time.Duration
		wakeups        float64
		measured, cpuN int
	}
	acc := make([]sums, len(group))
	for _, s := range group {
		startProfile()
		if _, _, err := measure(ctx, warmup, s.conc, s.op); err != nil {
			return fmt.Errorf("%s warm-up: %w", s.name, err)
		}
	}
	for range rounds {
		for i, s := range group {
			n := s.n / rounds
			before := meter.read(ctx)
			lat, elapsed, err := measure(ctx, n, s.conc, s.op)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			a := &acc[i]
			a.lat, a.elapsed, a.measured = append(a.lat, lat...), a.elapsed+elapsed, a.measured+n
			if cpu, db, w := meter.perRequest(ctx, before, n); cpu > 0 {
				a.cpu, a.db, a.wakeups, a.cpuN = a.cpu+cpu*time.Duration(n), a.db+db*time.Duration(n), a.wakeups+w*float64(n), a.cpuN+n
			}
		}
	}
	for i, s := range group {
		a := acc[i]
		slices.Sort(a.lat)
		pct := func(p float64) time.Duration { return a.lat[int(p*float64(len(a.lat)-1))] }
		r := result{perSecond: float64(a.measured) / a.elapsed.Seconds(), p50: pct(0.50), p99: pct(0.99)}
		if a.cpuN == a.measured { // every round metered, or no figure
			r.cpu, r.db, r.wakeups = a.cpu/time.Duration(a.cpuN), a.db/time.Duration(a.cpuN), a.wakeups/float64(a.cpuN)
		}
		results[s.name] = r
		fmt.Printf("%-34s %8d %s\n", s.name, a.measured, r)
	}
	return nil
}

// measure runs op n times from conc workers and returns each call's
// latency and the time they all took.
func measure(ctx context.Context, n, conc int, op func(context.Context) error) ([]time.Duration, time.Duration, error) {
	lat := make([]time.Duration, n)
	var idx atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(idx.Add(1)) - 1
				if i >= n || failed.Load() != nil {
					return
				}
				t := time.Now()
				if err := op(ctx); err != nil {
					failed.CompareAndSwap(nil, &err)
					return
				}
				lat[i] = time.Since(t)
			}
		}()
	}
	wg.Wait()
	if p := failed.Load(); p != nil {
		return nil, 0, *p
	}
	return lat, time.Since(start), nil
}

// schema makes a schema of its own on the local server (dropped at the
// end) and returns a DSN for it (its query to be extended with &).
func schema(ctx context.Context) (string, func(), error) {
	base := os.Getenv("IDGATE_TEST_DATABASE_URL")
	if base == "" {
		base = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	admin, err := pgx.Connect(cctx, base)
	if err != nil {
		return "", nil, err
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "bench_lifecycle_" + hex.EncodeToString(b)
	if _, err := admin.Exec(cctx, "CREATE SCHEMA "+name); err != nil {
		admin.Close(ctx)
		return "", nil, err
	}
	drop := func() {
		if keepSchema {
			fmt.Println("schema kept:", name)
			admin.Close(context.Background())
			return
		}
		_, _ = admin.Exec(context.Background(), "DROP SCHEMA "+name+" CASCADE")
		admin.Close(context.Background())
	}
	u, err := url.Parse(base)
	if err != nil {
		drop()
		return "", nil, errors.New("bad IDGATE_TEST_DATABASE_URL")
	}
	q := u.Query()
	q.Set("search_path", name)
	q.Set("application_name", appName)
	u.RawQuery = q.Encode()
	return u.String(), drop, nil
}
