// Command proxy measures the storefront proxy's status endpoint (GET
// /proxy/v1/stores/{hash}/status over loopback HTTP, CORS checked, cache
// warm) with the Redis cache and with the in-process cache, side by side
// with a bare Redis GET loop of the same workers: throughput, p99 latency
// and the ratios. It also prints the widget bundle's gzipped size. About
// five seconds.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/idgate/idgate/internal/cache"
	"github.com/idgate/idgate/internal/cache/memory"
	rediscache "github.com/idgate/idgate/internal/cache/redis"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	proxyhttp "github.com/idgate/idgate/proxy/http"
	"github.com/idgate/idgate/proxy/proxytest"
	"github.com/idgate/idgate/widget"
)

const (
	workers  = 16
	carts    = 256
	duration = 1500 * time.Millisecond
	hash     = "benchstore1"
	origin   = "https://shop.example"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/proxy:", err)
		os.Exit(1)
	}
}

// result is one measured loop.
type result struct {
	ops float64
	p99 time.Duration
}

func run() error {
	addr := os.Getenv("IDGATE_TEST_REDIS_ADDR")
	if addr == "" {
		addr = "127.0.0.1:6379"
	}
	client := goredis.NewClient(&goredis.Options{Addr: addr, PoolSize: workers})
	defer client.Close()
	ctx := context.Background()
	if err := client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis at %s: %w", addr, err)
	}
	prefix := "bench:proxy:" + randomHex(8) + ":"
	defer cleanup(client, prefix)

	ids := make([]string, carts)
	for i := range ids {
		ids[i] = uuidLike()
	}
	bare, err := measure(func(i int) error {
		return client.Get(ctx, prefix+"bare:"+ids[i%carts]).Err()
	}, func() error {
		for _, id := range ids {
			if err := client.Set(ctx, prefix+"bare:"+id, `{"found":false}`, time.Minute).Err(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("bare redis: %w", err)
	}
	viaRedis, err := statusLoop(rediscache.New(client, prefix, nil), ids)
	if err != nil {
		return fmt.Errorf("status with redis cache: %w", err)
	}
	viaMemory, err := statusLoop(memory.New(nil), ids)
	if err != nil {
		return fmt.Errorf("status with in-process cache: %w", err)
	}
	b, err := widget.Get()
	if err != nil {
		return err
	}
	fmt.Printf("proxy status endpoint, warm cache, %d workers, %d carts, %s each:\n", workers, carts, duration)
	fmt.Printf("  bare Redis GET loop         %9.0f ops/s  p99 %s\n", bare.ops, bare.p99)
	fmt.Printf("  status via HTTP, Redis      %9.0f req/s  p99 %s  (%.2fx the bare GET throughput)\n", viaRedis.ops, viaRedis.p99, viaRedis.ops/bare.ops)
	fmt.Printf("  status via HTTP, in-process %9.0f req/s  p99 %s  (%.2fx the bare GET throughput)\n", viaMemory.ops, viaMemory.p99, viaMemory.ops/bare.ops)
	fmt.Printf("widget bundle: %d bytes minified, %d bytes gzipped (budget 12288)\n", len(b.JS), len(b.Gzip))
	return nil
}

// outcomes is a Platform that knows no outcome: with a warm cache it is
// asked once per cart, during warm-up.
type outcomes struct{}

func (outcomes) LoadOutcome(context.Context, bigcommerce.Resource) (bigcommerce.Outcome, error) {
	return bigcommerce.Outcome{}, bigcommerce.ErrNoOutcome
}

func (outcomes) SaveOutcome(context.Context, bigcommerce.Resource, bigcommerce.Outcome) error {
	return errReadOnly
}

func (outcomes) GetOrder(context.Context, int64) (bigcommerce.OrderSummary, error) {
	return bigcommerce.OrderSummary{}, errReadOnly
}

func (outcomes) SetOrderStatus(context.Context, int64, int) error { return errReadOnly }
func (outcomes) ShippingAddresses(context.Context, int64) ([]bigcommerce.ShipTo, error) {
	return nil, errReadOnly
}
func (outcomes) HeldOrders(context.Context, string) ([]bigcommerce.OrderSummary, error) {
	return nil, errReadOnly
}
func (outcomes) GetCart(context.Context, string) (bigcommerce.CartSummary, error) {
	return bigcommerce.CartSummary{}, errReadOnly
}

var errReadOnly = errors.New("read-only benchmark platform")

// statusLoop serves the proxy with c on loopback and polls status for
// every cart as many widgets would.
func statusLoop(c cache.Cache, ids []string) (result, error) {
	sealer := seal.Ephemeral()
	st := &proxy.Store{
		Hash: hash, AccessToken: "t", AppClientID: "c", AppClientSecret: "s", IntegrationKey: "k",
		WebhookSecret: "w", WebhookHeaderValue: "h", AllowedOrigins: []string{origin},
	}
	if err := st.Normalize(); err != nil {
		return result{}, err
	}
	svc := &proxy.Service{
		Stores: proxytest.Stores{hash: st}, Sealer: sealer, Cache: c, CacheTTL: time.Hour,
		NewPlatform: func(*proxy.Store) (proxy.Platform, error) { return outcomes{}, nil },
	}
	app, err := proxyhttp.New(svc, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return result{}, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return result{}, err
	}
	go func() { _ = app.Listener(ln) }()
	defer app.Shutdown()
	base := "http://" + ln.Addr().String() + "/proxy/v1/stores/" + hash + "/status?cart_id="
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	// Close our keep-alive connections before the server shuts down, so it
	// has no half-read connection to answer.
	defer hc.CloseIdleConnections()
	get := func(i int) error {
		req, err := http.NewRequest(http.MethodGet, base+ids[i%len(ids)], nil)
		if err != nil {
			return err
		}
		req.Header.Set("Origin", origin)
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}
	return measure(get, func() error {
		for i := range ids {
			if err := get(i); err != nil {
				return err
			}
		}
		return nil
	})
}

// measure runs warm, then op from every worker for duration, and reports
// throughput and the 99th percentile latency over all calls.
func measure(op func(i int) error, warm func() error) (result, error) {
	if err := warm(); err != nil {
		return result{}, fmt.Errorf("warm up: %w", err)
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		all      []time.Duration
		failed   atomic.Value
		deadline = time.Now().Add(duration)
	)
	start := time.Now()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, 1<<14)
			for i := w; time.Now().Before(deadline); i += workers {
				t0 := time.Now()
				if err := op(i); err != nil {
					failed.Store(err)
					return
				}
				lat = append(lat, time.Since(t0))
			}
			mu.Lock()
			all = append(all, lat...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err, ok := failed.Load().(error); ok {
		return result{}, err
	}
	if len(all) == 0 {
		return result{}, errors.New("no calls completed")
	}
	slices.Sort(all)
	return result{ops: float64(len(all)) / elapsed.Seconds(), p99: all[len(all)*99/100].Round(time.Microsecond)}, nil
}

func cleanup(client *goredis.Client, prefix string) {
	ctx := context.Background()
	iter := client.Scan(ctx, 0, prefix+"*", 500).Iterator()
	for iter.Next(ctx) {
		client.Del(ctx, iter.Val())
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// uuidLike is a random version-4 UUID in its canonical form.
func uuidLike() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
