package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/ipintel"
	"github.com/idgate/idgate/verifier/ipintel/ipdb"
)

// ipDataForTest is the data make ipdata installed (skip without it; fail
// under CI=true).
func ipDataForTest(t *testing.T) string {
	t.Helper()
	return filepath.Dir(testkit.Data(t, "data", "dbip-city"))
}

func TestIPLookupCommand(t *testing.T) {
	dir := ipDataForTest(t)
	var out, errOut bytes.Buffer
	args := []string{"ip", "lookup", "--data", dir, "--state", "PA", "--zip", "19103", "174.198.1.1"}
	if code := run(context.Background(), args, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var got struct {
		IPFound     bool                `json:"ip_found"`
		IsProxy     bool                `json:"is_proxy"`
		Country     string              `json:"country"`
		ASN         uint32              `json:"asn"`
		Location    ipintel.Consistency `json:"location_consistency"`
		Attribution string              `json:"attribution"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if !got.IPFound || got.IsProxy || got.Country != "US" || got.ASN != 6167 ||
		got.Location.Result != ipintel.Consistent || got.Attribution != ipintel.Attribution {
		t.Errorf("Verizon in Pennsylvania against a Philadelphia license: %s", out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"ip", "lookup", "--data", dir, "3.80.1.1"}, nil, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), `"proxy_type": "hosting"`) {
		t.Errorf("AWS: exit %d\n%s", code, out.String())
	}
	for _, bad := range [][]string{{"ip", "lookup", "--data", dir}, {"ip", "lookup", "--data", dir, "not-an-ip"},
		{"ip", "lookup", "--data", t.TempDir(), "8.8.8.8"}} {
		errOut.Reset()
		if code := run(context.Background(), bad, nil, io.Discard, &errOut); code == 0 || errOut.Len() == 0 {
			t.Errorf("%v: exit %d, want an error", bad, code)
		}
	}
}

func TestIPUpdateTor(t *testing.T) {
	fixture, err := os.ReadFile(filepath.Join("..", "..", "verifier", "ipintel", "testdata", "tor-exit-addresses.txt"))
	if err != nil {
		t.Fatal(err)
	}
	body, status := string(fixture), http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	defer srv.Close()
	dir := t.TempDir()
	n, path, err := updateTor(context.Background(), srv.Client(), srv.URL, dir)
	if err != nil || n != 4 {
		t.Fatalf("update: %d %v", n, err)
	}
	list, err := ipdb.LoadTor(dir)
	if err != nil || list.Len() != 4 || path != filepath.Join(dir, ipdb.TorFile) {
		t.Fatalf("installed list: %v %v %s", list, err, path)
	}
	// An error page, a captive portal, a failing server: the good list stays.
	for _, c := range []struct {
		body   string
		status int
	}{{"<html>Sign in to the Wi-Fi</html>", http.StatusOK}, {"", http.StatusOK}, {string(fixture), http.StatusBadGateway}} {
		body, status = c.body, c.status
		if _, _, err := updateTor(context.Background(), srv.Client(), srv.URL, dir); err == nil {
			t.Errorf("status %d body %.20q accepted", c.status, c.body)
		}
		if l, err := ipdb.LoadTor(dir); err != nil || l.Len() != 4 {
			t.Fatalf("the good list was replaced: %v %v", l, err)
		}
	}
	if _, _, err := updateTor(context.Background(), srv.Client(), "file:///etc/passwd", dir); err == nil {
		t.Error("a non-http URL accepted")
	}
}

func TestNewIPIntel(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	// No data: no IP intelligence, not an error.
	ipi, ready, stop, err := newIPIntel(context.Background(), config.Config{IPDataDir: t.TempDir(), Env: config.EnvProduction}, log)
	if err != nil || ipi != nil {
		t.Fatalf("missing data: %v %v", ipi, err)
	}
	stop()
	// ... and /readyz says so, as a degraded check.
	if err := ready.Check(context.Background()); ready.Name != "ip_data" || !ready.Degraded || !errors.Is(err, ipdb.ErrMissing) {
		t.Fatalf("readiness without data: %+v %v", ready, err)
	}
	// The dev stand-in is refused in production.
	if _, _, _, err := newIPIntel(context.Background(), config.Config{IPDataDir: t.TempDir(), DevClientIP: "174.198.1.1", Env: config.EnvProduction}, log); err == nil {
		t.Fatal("IDGATE_DEV_CLIENT_IP accepted in production")
	}
	// Corrupt data stops serve.
	bad := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bad, "dbip-city"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, ipdb.CityV4File), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := newIPIntel(context.Background(), config.Config{IPDataDir: bad, Env: config.EnvProduction}, log); !errors.Is(err, ipdb.ErrMissing) && !errors.Is(err, ipdb.ErrCorrupt) {
		t.Fatalf("corrupt data: %v", err)
	}

	dir := ipDataForTest(t)
	ipi, ready, stop, err = newIPIntel(context.Background(), config.Config{IPDataDir: dir, DevClientIP: "174.198.1.1", Env: config.EnvDev}, log)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	// Installed data answers; its one allowed failure is the pin's age,
	// which grows with the calendar (ipdb's TestReady covers it).
	if err := ready.Check(context.Background()); err != nil && !strings.Contains(err.Error(), "update the pin") {
		t.Fatalf("readiness of the installed data: %v", err)
	}
	a, ok, err := ipi.Connection("127.0.0.1", "::1")
	if err != nil || !ok || a.IP.String() != "174.198.1.1" || !a.Found {
		t.Fatalf("dev stand-in for loopback: %+v %v %v", a, ok, err)
	}
	if a, _, _ = ipi.Connection("", "3.80.1.1"); a.IP.String() != "3.80.1.1" || !a.Proxy {
		t.Fatalf("a public IP is never replaced: %+v", a)
	}
}

// Serving without a Tor exit list is a warning in production and
// information in dev, where make run never installs one: there it says the
// list is optional and how to install it.
func TestNoTorListLevelPerEnv(t *testing.T) {
	// The installed data without any Tor list (entries linked, tor/ left out).
	src := ipDataForTest(t)
	dir := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != filepath.Dir(ipdb.TorFile) {
			if err := os.Symlink(filepath.Join(src, e.Name()), filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		env   string
		level string
		says  []string
	}{
		{config.EnvDev, "INFO", []string{"optional in dev", "idgate ip update-tor"}},
		{config.EnvProduction, "WARN", []string{"no Tor exit list installed", "idgate ip update-tor"}},
	} {
		logs := &testkit.LogBuffer{}
		_, _, stop, err := newIPIntel(context.Background(), config.Config{IPDataDir: dir, Env: c.env}, slog.New(slog.NewJSONHandler(logs, nil)))
		if err != nil {
			t.Fatalf("%s: %v", c.env, err)
		}
		stop()
		var found int
		for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
			var rec struct{ Level, Msg string }
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("%s: log line %q: %v", c.env, line, err)
			}
			if !strings.Contains(rec.Msg, "Tor exit list") {
				continue
			}
			found++
			if rec.Level != c.level {
				t.Errorf("%s: %s %q, want level %s", c.env, rec.Level, rec.Msg, c.level)
			}
			for _, s := range c.says {
				if !strings.Contains(rec.Msg, s) {
					t.Errorf("%s: %q does not say %q", c.env, rec.Msg, s)
				}
			}
		}
		if found != 1 {
			t.Errorf("%s: %d lines about the Tor list, want 1:\n%s", c.env, found, logs.String())
		}
	}
}
