package ipdb_test

import (
	"net/netip"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/ipintel/ipdb"
)

// BenchmarkOpen is the start-up cost: sha256 of every file, the ASN and ZIP
// tables parsed, the MMDB files mapped. It reports the heap the tables keep.
func BenchmarkOpen(b *testing.B) {
	dir := filepath.Dir(testkit.Data(b, "data", "dbip-city"))
	var before, after runtime.MemStats
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		db, err := ipdb.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "heap-MB")
		db.Close()
	}
}

// BenchmarkLocate is one lookup (city MMDB + ASN binary search).
func BenchmarkLocate(b *testing.B) {
	dir := filepath.Dir(testkit.Data(b, "data", "dbip-city"))
	db, err := ipdb.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ips := []netip.Addr{netip.MustParseAddr("8.8.8.8"), netip.MustParseAddr("99.230.4.1"),
		netip.MustParseAddr("2a00:1450:4001::1"), netip.MustParseAddr("185.220.101.1")}
	i := 0
	for b.Loop() {
		if _, err := db.Locate(ips[i%len(ips)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
