package postgres

import "testing"

func TestPoolSize(t *testing.T) {
	for url, want := range map[string]int32{
		"postgres://u@h:5432/db?sslmode=disable":                   DefaultMaxConns,
		"postgres://u@h:5432/db?sslmode=disable&pool_max_conns=3":  3,
		"postgresql://u@h/db?pool_max_conns=40&search_path=bench1": 40,
	} {
		cfg, err := poolConfig(url)
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		if cfg.MaxConns != want {
			t.Errorf("%s: MaxConns %d, want %d", url, cfg.MaxConns, want)
		}
	}
}
