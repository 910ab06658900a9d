package sqlstore

import (
	"context"
	"strings"
	"testing"
)

func TestPoolSize(t *testing.T) {
	for url, want := range map[string]int{
		"postgres://u@h:5432/db?sslmode=disable":                   DefaultMaxConns,
		"postgres://u@h:5432/db?sslmode=disable&pool_max_conns=3":  3,
		"postgresql://u@h/db?pool_max_conns=40&search_path=bench1": 40,
	} {
		_, got, err := postgresConfig(url)
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		if got != want {
			t.Errorf("%s: %d connections, want %d", url, got, want)
		}
	}
}

func TestOpenHidesURL(t *testing.T) {
	_, err := Open(context.Background(), "postgres://u:s3cret@[bad")
	if err == nil {
		t.Fatal("Open accepted a malformed URL")
	}
	if got := err.Error(); strings.Contains(got, "s3cret") {
		t.Fatalf("error leaks the password: %s", got)
	}
}
