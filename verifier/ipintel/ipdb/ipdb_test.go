package ipdb_test

import (
	"errors"
	"math"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/ipintel"
	"github.com/idgate/idgate/verifier/ipintel/ipdb"
)

var (
	realOnce sync.Once
	realDB   *ipdb.DB
	realErr  error
)

// real opens the data `make ipdata` installed (var/data), once per test
// binary; the tests skip without it (fail under CI=true).
func real(t *testing.T) *ipdb.DB {
	t.Helper()
	dir := filepath.Dir(testkit.Data(t, "data", "dbip-city"))
	realOnce.Do(func() { realDB, realErr = ipdb.Open(dir) })
	if realErr != nil {
		t.Fatalf("open the installed IP data: %v", realErr)
	}
	return realDB
}

func TestLocateRealData(t *testing.T) {
	db := real(t)
	cases := []struct {
		ip                   string
		located              bool
		country, subdivision string
		asn                  uint32
		orgContains          string
	}{
		{"8.8.8.8", true, "US", "California", 15169, "Google"},
		{"1.1.1.1", true, "AU", "", 13335, "Cloudflare"},
		{"2001:4860:4860::8888", true, "", "", 15169, "Google"},
		{"::ffff:8.8.8.8", true, "US", "California", 15169, "Google"},
		{"127.0.0.1", false, "", "", 0, ""},
		{"10.1.2.3", false, "", "", 0, ""},
		{"::1", false, "", "", 0, ""},
	}
	for _, c := range cases {
		rec, err := db.Locate(netip.MustParseAddr(c.ip))
		if err != nil {
			t.Fatalf("%s: %v", c.ip, err)
		}
		if rec.Located != c.located || (c.country != "" && rec.Country != c.country) ||
			(c.subdivision != "" && rec.Subdivision != c.subdivision) || rec.ASN != c.asn ||
			!strings.Contains(rec.ASOrg, c.orgContains) {
			t.Errorf("%s: got %+v, want located %v %s/%s AS%d %q", c.ip, rec, c.located, c.country, c.subdivision, c.asn, c.orgContains)
		}
		if rec.Located && !rec.HasPoint {
			t.Errorf("%s: located without a point: %+v", c.ip, rec)
		}
	}
}

func TestUSZIPRealData(t *testing.T) {
	db := real(t)
	cases := []struct {
		zip, city, state string
		lat, lon         float64
	}{
		{"10001", "New York", "NY", 40.75, -73.99},
		{"90210", "Beverly Hills", "CA", 34.09, -118.41},
		{"60601", "Chicago", "IL", 41.89, -87.62},
	}
	for _, c := range cases {
		city, state, lat, lon, ok := db.USZIP(c.zip)
		if !ok || city != c.city || state != c.state || math.Abs(lat-c.lat) > 0.05 || math.Abs(lon-c.lon) > 0.05 {
			t.Errorf("%s: got %q %q %.3f,%.3f %v; want %s %s %.2f,%.2f", c.zip, city, state, lat, lon, ok, c.city, c.state, c.lat, c.lon)
		}
	}
	if _, _, _, _, ok := db.USZIP("00000"); ok {
		t.Error("00000 is no ZIP code")
	}
}

// TestHostingASNsInRealData: every curated hosting ASN is announced in the
// installed ASN data under the provider the list names, so a typo in the
// table cannot go unnoticed.
func TestHostingASNsInRealData(t *testing.T) {
	dir := filepath.Dir(testkit.Data(t, "data", "dbip-city"))
	orgs := asnOrgs(t, filepath.Join(dir, ipdb.ASNV4File), filepath.Join(dir, ipdb.ASNV6File))
	// The first word of the list's name, as the ASN data spells the
	// organisation (the list may add a brand in parentheses).
	alias := map[string]string{"Microsoft": "Microsoft", "Vultr": "Constant", "OVHcloud": "OVH",
		"Oracle": "Oracle", "Amazon": "Amazon", "Google": "Google", "Tencent": "Tencent",
		"Alibaba": "Alibaba", "Akamai": "Akamai", "Unified": "Unified", "HostPapa": "HostPapa",
		"FranTech": "FranTech", "B2": "B2", "Datacamp": "Datacamp", "IBM": "IBM"}
	for asn, name := range ipintel.HostingASNs {
		org, ok := orgs[asn]
		if !ok {
			t.Errorf("AS%d (%s) is not in the ASN data", asn, name)
			continue
		}
		word := strings.Fields(name)[0]
		if a, ok := alias[word]; ok {
			word = a
		}
		if !strings.Contains(strings.ToLower(org), strings.ToLower(word)) {
			t.Errorf("AS%d: the list says %q, the data says %q", asn, name, org)
		}
	}
}

func asnOrgs(t *testing.T, files ...string) map[uint32]string {
	t.Helper()
	out := map[uint32]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range ipdb.ParseASNForTest(t, string(data)) {
			if _, seen := out[rec.ASN]; !seen {
				out[rec.ASN] = rec.Org
			}
		}
	}
	return out
}

func TestOpenRefusesMissingAndCorruptData(t *testing.T) {
	dir := t.TempDir()
	if _, err := ipdb.Open(dir); !errors.Is(err, ipdb.ErrMissing) || !strings.Contains(err.Error(), "make ipdata") {
		t.Fatalf("empty dir: %v, want ErrMissing naming make ipdata", err)
	}
	// Every listed file present but one altered: refused as corrupt.
	for _, line := range strings.Split(ipdb.Hashes, "\n") {
		f := strings.Fields(line)
		if len(f) != 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		p := filepath.Join(dir, f[1])
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("not the data"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ipdb.Open(dir); !errors.Is(err, ipdb.ErrCorrupt) {
		t.Fatalf("altered files: %v, want ErrCorrupt", err)
	}
}

func TestLoadTor(t *testing.T) {
	dir := t.TempDir()
	l, err := ipdb.LoadTor(dir)
	if err != nil || l != nil {
		t.Fatalf("no list installed: %v %v, want nil, nil", l, err)
	}
	src, err := os.ReadFile(filepath.Join(testkit.RepoRoot(t), "verifier", "ipintel", "testdata", "tor-exit-addresses.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "tor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ipdb.TorFile), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if l, err = ipdb.LoadTor(dir); err != nil || l.Len() == 0 {
		t.Fatalf("fixture list: %v, %v", l, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ipdb.TorFile), []byte("<html>captive portal</html>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ipdb.LoadTor(dir); !errors.Is(err, ipintel.ErrExitList) {
		t.Fatalf("HTML instead of a list: %v, want ErrExitList", err)
	}
}

func TestTorListRefresh(t *testing.T) {
	dir := t.TempDir()
	tl, err := ipdb.OpenTor(dir)
	if err != nil || tl.Len() != 0 {
		t.Fatalf("nothing installed: %v %d", err, tl.Len())
	}
	path := filepath.Join(dir, ipdb.TorFile)
	write := func(text string, age time.Duration) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	write("185.220.101.1\n203.0.113.66\n", 2*time.Hour)
	if err := tl.Refresh(); err != nil || tl.Len() != 2 || !tl.Contains(netip.MustParseAddr("185.220.101.1")) {
		t.Fatalf("first list: %v, %d", err, tl.Len())
	}
	write("198.51.100.7\n", time.Hour)
	if err := tl.Refresh(); err != nil || tl.Len() != 1 || tl.Contains(netip.MustParseAddr("185.220.101.1")) {
		t.Fatalf("replaced list: %v, %d", err, tl.Len())
	}
	if age := time.Since(tl.Updated()); age < 59*time.Minute || age > 61*time.Minute {
		t.Errorf("Updated is %v ago, want the file's time, an hour ago", age)
	}
	write("<html>captive portal</html>\n", 0)
	if err := tl.Refresh(); !errors.Is(err, ipintel.ErrExitList) || tl.Len() != 1 {
		t.Fatalf("a broken file keeps the last list: %v, %d", err, tl.Len())
	}
}

// TestReady: the installed data is ready until the city build is older than
// MaxCityAge; a loaded Tor list older than TorStaleAfter fails it, an absent
// one does not.
func TestReady(t *testing.T) {
	db := real(t)
	built := db.Built()
	if built.Year() < 2020 || built.After(time.Now()) {
		t.Fatalf("Built %v: not read from the metadata", built)
	}
	if err := db.Ready(built.Add(24*time.Hour), nil); err != nil {
		t.Fatalf("fresh data: %v", err)
	}
	if err := db.Ready(built.Add(ipdb.MaxCityAge+time.Hour), nil); err == nil || !strings.Contains(err.Error(), "update the pin") {
		t.Fatalf("stale data: %v", err)
	}
	dir := t.TempDir()
	tl, err := ipdb.OpenTor(dir)
	if err != nil {
		t.Fatal(err)
	}
	now := built.Add(24 * time.Hour)
	if err := db.Ready(now, tl); err != nil {
		t.Fatalf("no Tor list installed: %v", err)
	}
	path := filepath.Join(dir, ipdb.TorFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("185.220.101.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := tl.Refresh(); err != nil {
		t.Fatal(err)
	}
	// The city data's age is its own failure (the pin ages with the
	// calendar); only the Tor list's is looked at here.
	written := tl.Updated()
	if err := db.Ready(written.Add(time.Hour), tl); err != nil && strings.Contains(err.Error(), "update-tor") {
		t.Fatalf("an hour-old Tor list: %v", err)
	}
	if err := db.Ready(written.Add(ipdb.TorStaleAfter+time.Minute), tl); err == nil || !strings.Contains(err.Error(), "update-tor") {
		t.Fatalf("a stale Tor list: %v", err)
	}
}
