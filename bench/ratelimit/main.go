// Command ratelimit measures Limiter.Allow throughput of the in-process and
// the Redis backend side by side, with the same workers, keys and limit, and
// prints ops/s for each and their ratio. It runs about three seconds.
package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/internal/ratelimit/memory"
	"github.com/idgate/idgate/internal/ratelimit/redis"
)

const (
	workers  = 16
	keys     = 1000
	duration = 1500 * time.Millisecond
)

// A limit generous enough that most calls are allowed and write, the
// costlier path.
var limit = ratelimit.Limit{Rate: 1_000_000, Period: time.Hour}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/ratelimit:", err)
		os.Exit(1)
	}
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
	prefix := "bench:ratelimit:" + randomHex() + ":"
	defer cleanup(client, prefix)

	mem, err := throughput(memory.New(nil))
	if err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	red, err := throughput(redis.New(client, prefix, nil))
	if err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	fmt.Printf("Allow, %d workers, %d keys, %s each\n", workers, keys, duration)
	fmt.Printf("  memory  %12.0f ops/s\n", mem)
	fmt.Printf("  redis   %12.0f ops/s  (%s)\n", red, addr)
	fmt.Printf("  ratio memory/redis  %.1fx\n", mem/red)
	return nil
}

// throughput runs workers calling Allow for duration and returns ops/s.
func throughput(l ratelimit.Limiter) (float64, error) {
	var (
		ops      atomic.Int64
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	deadline := time.Now().Add(duration)
	start := time.Now()
	for w := range workers {
		wg.Go(func() {
			ctx := context.Background()
			for i := w; time.Now().Before(deadline); i += workers {
				if _, err := l.Allow(ctx, "k:"+strconv.Itoa(i%keys), limit); err != nil {
					mu.Lock()
					firstErr = cmp.Or(firstErr, err)
					mu.Unlock()
					return
				}
				ops.Add(1)
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return 0, firstErr
	}
	return float64(ops.Load()) / time.Since(start).Seconds(), nil
}

func cleanup(client *goredis.Client, prefix string) {
	ctx := context.Background()
	iter := client.Scan(ctx, 0, prefix+"*", 500).Iterator()
	for iter.Next(ctx) {
		client.Del(ctx, iter.Val())
	}
}

func randomHex() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
