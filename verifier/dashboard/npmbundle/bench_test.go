package npmbundle_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/e2ee"
)

// BenchmarkPassphraseKey derives a new passphrase key at the default cost
// (Argon2id 64 MiB, t=3, p=1, then HKDF and P-256) in Chromium (hash-wasm's
// WebAssembly, @noble/curves, WebCrypto) and in Go (x/crypto/argon2,
// crypto/ecdh), side by side in one loop, and reports both and their ratio.
// The browser figure is performance.now() around the page's call.
func BenchmarkPassphraseKey(b *testing.B) {
	p := newCryptoPage(b)
	const pass = "correct horse battery staple"
	var browser, gol time.Duration
	for i := 0; i < b.N; i++ {
		raw, err := p.call(`const t0 = performance.now(); await C.newPassphraseKey("bench", args[0]); return performance.now() - t0;`, pass)
		if err != nil {
			b.Fatal(err)
		}
		var ms float64
		if err := json.Unmarshal(raw, &ms); err != nil {
			b.Fatal(err)
		}
		browser += time.Duration(ms * float64(time.Millisecond))
		kdf, err := e2ee.DefaultKDFParams()
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if _, _, err := e2ee.NewPassphraseKey("bench", []byte(pass), kdf); err != nil {
			b.Fatal(err)
		}
		gol += time.Since(start)
	}
	n := float64(b.N)
	b.ReportMetric(float64(browser.Milliseconds())/n, "browser-ms/key")
	b.ReportMetric(float64(gol.Milliseconds())/n, "go-ms/key")
	b.ReportMetric(float64(browser)/float64(gol), "browser/go")
}
