package testkit

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisAddr is the local server every session and CI has.
const DefaultRedisAddr = "127.0.0.1:6379"

// Redis returns a client to the real server and a key prefix unique to this
// test; keys under the prefix are deleted when the test ends. IDGATE_TEST_REDIS_ADDR
// overrides the address.
func Redis(t testing.TB) (*redis.Client, string) {
	t.Helper()
	addr := os.Getenv("IDGATE_TEST_REDIS_ADDR")
	if addr == "" {
		addr = DefaultRedisAddr
	}
	client := redis.NewClient(&redis.Options{Addr: addr})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := client.Ping(ctx).Err(); err != nil {
		_ = client.Close()
		unavailable(t, "Redis", err)
	}
	prefix := "test:" + randomHex(8) + ":"
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		iter := client.Scan(ctx, 0, prefix+"*", 100).Iterator()
		for iter.Next(ctx) {
			client.Del(ctx, iter.Val())
		}
		_ = client.Close()
	})
	return client, prefix
}
