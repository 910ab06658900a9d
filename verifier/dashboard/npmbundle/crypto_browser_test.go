package npmbundle_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	mrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/client"
	"github.com/idgate/idgate/internal/bundle"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/chromium"
	"github.com/idgate/idgate/verifier/dashboard/npmbundle"
	"github.com/idgate/idgate/verifier/e2ee"
)

// The dashboard's crypto module (verifier/dashboard/src/crypto) in real
// headless Chromium against the Go sealer: what client.Decrypt (the code of
// `idgate decrypt`) opens, the page opens to the same bytes, in both modes,
// for results (license_data and the photo) and review images; wrong keys
// and altered data give their own errors; nothing leaves the page.

// cryptoPage serves a blank page with the crypto module as the global
// idgateCrypto and the Argon2 bundle, under the dashboard's CSP.
type cryptoPage struct {
	t   testing.TB
	ctx context.Context
	url string
	rec *chromium.Recorder
}

const pageCSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func newCryptoPage(t testing.TB) *cryptoPage { return newCryptoPageWith(t, true) }

// newCryptoPageWith serves the module without the passphrase module when
// withModule is false: what a binary built without make npm serves.
func newCryptoPageWith(t testing.TB, withModule bool) *cryptoPage {
	t.Helper()
	npmJS, err := npmbundle.Passphrase()
	if err != nil && withModule {
		needBuilt(t, err)
	}
	var define map[string]string
	if withModule {
		define = map[string]string{"IDGATE_PASSPHRASE_URL": `"/assets/` + npmJS.Name + `"`}
	}
	root := testkit.RepoRoot(t)
	b, err := bundle.Build(bundle.Options{
		Sources:    os.DirFS(filepath.Join(root, "verifier", "dashboard")),
		Entry:      "src/crypto/index.ts",
		GlobalName: "idgateCrypto",
		Define:     define,
	})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	serve := func(ctype string, body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Security-Policy", pageCSP)
			w.Header().Set("Content-Type", ctype)
			w.Write(body)
		}
	}
	mux.HandleFunc("GET /{$}", serve("text/html; charset=utf-8", []byte(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>crypto</title><script src="/crypto.js"></script></head><body><main></main></body></html>`)))
	mux.HandleFunc("GET /crypto.js", serve("text/javascript", b.JS))
	if withModule {
		mux.HandleFunc("GET /assets/"+npmJS.Name, serve("text/javascript", npmJS.JS))
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	p := &cryptoPage{t: t, ctx: chromium.New(t), url: srv.URL + "/"}
	p.rec = chromium.Record(t, p.ctx)
	if err := chromedp.Do(p.ctx, chromedp.Navigate(p.url)); err != nil {
		t.Fatal(err)
	}
	return p
}

// needBuilt fails under CI and skips loudly elsewhere when make npm has
// not bundled the npm packages.
func needBuilt(t testing.TB, err error) {
	t.Helper()
	if !errors.Is(err, npmbundle.ErrNotBuilt) || os.Getenv("CI") == "true" {
		t.Fatal(err)
	}
	t.Skipf("SKIPPING browser crypto tests — %v", err)
}

// call runs `idgateCrypto`-using JavaScript (an async function body given
// args) and returns what it returns, JSON-encoded by the page.
func (p *cryptoPage) call(body string, args ...any) (json.RawMessage, error) {
	p.t.Helper()
	if args == nil {
		args = []any{}
	}
	in, err := json.Marshal(args)
	if err != nil {
		p.t.Fatal(err)
	}
	expr := fmt.Sprintf(`(async (...args) => { const C = idgateCrypto; try { return JSON.stringify({ok: await (async () => { %s })()}); }
		catch (e) { return JSON.stringify({error: {code: (e && e.code) || "", message: String(e && e.message !== undefined ? e.message : e), detail: (e && e.detail) || ""}}); } })(...%s)`, body, in)
	out, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluate: %v", err)
	}
	var r struct {
		OK    json.RawMessage `json:"ok"`
		Error *pageError      `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		p.t.Fatalf("page answered %s: %v", out, err)
	}
	if r.Error != nil {
		return nil, r.Error
	}
	return r.OK, nil
}

type pageError struct{ Code, Message, Detail string }

func (e *pageError) Error() string { return e.Code + ": " + e.Message + " (" + e.Detail + ")" }

// openJS opens a result with a key and returns the opened body and the
// photo's bytes (base64) as the page has them.
const openJS = `const [doc, kind, secret] = args;
	const key = kind === "pem" ? await C.keyFromPEM(secret) : C.keyFromPassphrase(secret);
	const o = await C.openResult(doc, key);
	let photo = "";
	if (o.licensePhoto) { let s = ""; for (const b of o.licensePhoto) s += String.fromCharCode(b); photo = btoa(s); }
	return {body: o.body, license_data: o.licenseData, photo};`

type opened struct {
	Body        json.RawMessage `json:"body"`
	LicenseData json.RawMessage `json:"license_data"`
	Photo       string          `json:"photo"`
}

func (p *cryptoPage) open(doc []byte, kind, secret string) (opened, error) {
	p.t.Helper()
	raw, err := p.call(openJS, json.RawMessage(doc), kind, secret)
	if err != nil {
		return opened{}, err
	}
	var o opened
	if err := json.Unmarshal(raw, &o); err != nil {
		p.t.Fatal(err)
	}
	return o, nil
}

// canonical re-encodes JSON with sorted members, so two encodings of the
// same value compare equal byte for byte.
func canonical(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// testJPEG is a real JPEG, so the photo's bytes are checked as an image.
func testJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), 128, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// plainResult is a result payload as verifier.Complete builds it, with
// every protected member.
func plainResult(t *testing.T, photo []byte) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"request_id":   "6f1c3e0a-2b7d-4c1e-9a8f-3d2b1c0e9f7a",
		"verification": map[string]any{"over_18": true, "over_21": false},
		"license_data": map[string]any{"first_names": "JANE", "last_name": "DOE", "dob": "2006-03-01",
			"address_line1": "1 Main St — Apt 2", "height_cm": 170, "real_id": true, "middle_names": nil},
		"phone_verification": map[string]any{"phone_verified": true, "lookup": map[string]any{"phone_number": "+15555550123", "caller_name": "JANE DOE", "carrier_name": "Acme"}},
		"license_photo":      base64.StdEncoding.EncodeToString(photo),
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func seal(t *testing.T, s *e2ee.Session, payload []byte) []byte {
	t.Helper()
	out, err := s.SealPayload(payload)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// reviewDoc is a review image as the flow keeps it for the account's key
// (verifier.SealForAccount): encryption, encryption_key and the image
// sealed under the member named by its kind.
func reviewDoc(t *testing.T, s *e2ee.Session, kind string, img []byte) []byte {
	t.Helper()
	env, err := s.SealMember(kind, img)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := json.Marshal(map[string]any{"encryption": s.Encryption, "encryption_key": s.EncryptionKey, kind: env})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func pemOf(t *testing.T, typ string, der []byte) string {
	t.Helper()
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

// sameAsClient checks the page's opening of sealed against client.Decrypt's.
func sameAsClient(t *testing.T, got opened, sealed []byte, key client.Key, photo []byte) {
	t.Helper()
	want, err := client.Decrypt(sealed, key)
	if err != nil {
		t.Fatal(err)
	}
	if canonical(t, got.Body) != canonical(t, want) {
		t.Errorf("page opened\n%s\nidgate decrypt opened\n%s", canonical(t, got.Body), canonical(t, want))
	}
	var w struct {
		LicenseData json.RawMessage `json:"license_data"`
		Result      *struct {
			LicenseData json.RawMessage `json:"license_data"`
		} `json:"result"`
	}
	json.Unmarshal(want, &w)
	wantLD := w.LicenseData
	if w.Result != nil {
		wantLD = w.Result.LicenseData
	}
	if canonical(t, got.LicenseData) != canonical(t, wantLD) {
		t.Errorf("license_data: page %s, client %s", got.LicenseData, wantLD)
	}
	if gotPhoto, _ := base64.StdEncoding.DecodeString(got.Photo); !bytes.Equal(gotPhoto, photo) {
		t.Errorf("photo: page has %d bytes, sealed %d", len(gotPhoto), len(photo))
	}
}

func TestBrowserOpensCustom(t *testing.T) {
	p := newCryptoPage(t)
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(priv)
	session, err := e2ee.NewCustomSession(&priv.PublicKey, "ops key")
	if err != nil {
		t.Fatal(err)
	}
	photo := testJPEG(t, 320, 200)
	sealed := seal(t, session, plainResult(t, photo))
	ckey, err := client.PrivateKey([]byte(pemOf(t, "PRIVATE KEY", pkcs8)))
	if err != nil {
		t.Fatal(err)
	}

	for name, keyPEM := range map[string]string{
		"pkcs8": pemOf(t, "PRIVATE KEY", pkcs8),
		"pkcs1": "comment before the block\n" + pemOf(t, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(priv)),
	} {
		t.Run(name, func(t *testing.T) {
			got, err := p.open(sealed, "pem", keyPEM)
			if err != nil {
				t.Fatal(err)
			}
			sameAsClient(t, got, sealed, ckey, photo)
		})
	}
	t.Run("GET body", func(t *testing.T) {
		get := []byte(`{"id":"v1","status":"completed","result":` + string(sealed) + `}`)
		got, err := p.open(get, "pem", pemOf(t, "PRIVATE KEY", pkcs8))
		if err != nil {
			t.Fatal(err)
		}
		sameAsClient(t, got, get, ckey, photo)
	})
	t.Run("review image", func(t *testing.T) {
		img := testJPEG(t, 640, 400)
		doc := reviewDoc(t, session, "license_front", img)
		raw, err := p.call(`const [doc, pem] = args; const b = await C.openReviewImage(doc, "license_front", await C.keyFromPEM(pem));
			let s = ""; for (const x of new Uint8Array(await b.arrayBuffer())) s += String.fromCharCode(x); return {type: b.type, bytes: btoa(s)};`,
			json.RawMessage(doc), pemOf(t, "PRIVATE KEY", pkcs8))
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ Type, Bytes string }
		json.Unmarshal(raw, &r)
		if got, _ := base64.StdEncoding.DecodeString(r.Bytes); !bytes.Equal(got, img) || r.Type != "image/jpeg" {
			t.Errorf("review image: %s, %d bytes; sealed %d bytes of JPEG", r.Type, len(got), len(img))
		}
	})

	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	otherDER, _ := x509.MarshalPKCS8PrivateKey(other)
	tampered := bytes.Replace(sealed, []byte(`"ciphertext":"`), []byte(`"ciphertext":"AAAA`), 1)
	for _, c := range []struct {
		name, pem string
		doc       []byte
		code      string
		says      string
	}{
		{"wrong key", pemOf(t, "PRIVATE KEY", otherDER), sealed, "wrong_key", "not the one the data was sealed for (\"ops key\""},
		{"altered ciphertext", pemOf(t, "PRIVATE KEY", pkcs8), tampered, "authentication", "altered"},
		{"public key chosen", pemOf(t, "PUBLIC KEY", mustPKIX(t, &priv.PublicKey)), sealed, "bad_key_file", "This is a public key"},
		{"encrypted PEM", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----\n", sealed, "bad_key_file", "protected by a password"},
		{"not PEM", "hello", sealed, "bad_key_file", "not an unencrypted PEM RSA private key"},
		{"passphrase result", pemOf(t, "PRIVATE KEY", pkcs8), docExample(t, "example-passphrase"), "unsupported_algorithm", "type its passphrase"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := p.open(c.doc, "pem", c.pem)
			var pe *pageError
			if !errors.As(err, &pe) || pe.Code != c.code || !strings.Contains(pe.Message, c.says) {
				t.Errorf("got %v, want %s saying %q", err, c.code, c.says)
			}
		})
	}
	p.onlyAssets(t)
}

func mustPKIX(t *testing.T, pub any) []byte {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func TestBrowserOpensPassphrase(t *testing.T) {
	p := newCryptoPage(t)
	const passphrase = "tröpfchen correct horse 🐎 staple"
	kdf, err := e2ee.DefaultKDFParams() // the real cost: 64 MiB, t=3
	if err != nil {
		t.Fatal(err)
	}
	pkey, _, err := e2ee.NewPassphraseKey("ops laptop", []byte(passphrase), kdf)
	if err != nil {
		t.Fatal(err)
	}
	pkey.ID = "3c5d2a9e-8f14-4b6a-a0d7-5e2c91f4b803"
	session, err := e2ee.NewPassphraseSession(pkey)
	if err != nil {
		t.Fatal(err)
	}
	photo := testJPEG(t, 300, 190)
	sealed := seal(t, session, plainResult(t, photo))

	got, err := p.open(sealed, "passphrase", passphrase)
	if err != nil {
		t.Fatal(err)
	}
	sameAsClient(t, got, sealed, client.Passphrase(passphrase), photo)

	t.Run("review image with the remembered key", func(t *testing.T) {
		img := testJPEG(t, 200, 200)
		doc := reviewDoc(t, session, "selfie", img)
		raw, err := p.call(`const [result, doc, pass] = args; const s = C.sealedFor(result);
			C.remember(s, C.keyFromPassphrase(pass)); await C.openResult(result, C.recall(s));
			const t0 = performance.now(); const b = await C.openReviewImage(doc, "selfie", C.recall(C.sealedFor(doc)));
			let x = ""; for (const c of new Uint8Array(await b.arrayBuffer())) x += String.fromCharCode(c);
			return {sealed: s, type: b.type, bytes: btoa(x), ms: performance.now() - t0};`, json.RawMessage(sealed), json.RawMessage(doc), passphrase)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Sealed      map[string]string
			Type, Bytes string
			MS          float64
		}
		json.Unmarshal(raw, &r)
		if got, _ := base64.StdEncoding.DecodeString(r.Bytes); !bytes.Equal(got, img) || r.Type != "image/jpeg" {
			t.Errorf("review image: %s, %d bytes; sealed %d bytes of JPEG", r.Type, len(got), len(img))
		}
		if r.Sealed["mode"] != "passphrase" || r.Sealed["name"] != "ops laptop" || r.Sealed["keyId"] != pkey.ID {
			t.Errorf("sealedFor = %v", r.Sealed)
		}
		t.Logf("second document with the derived key remembered: %.0f ms", r.MS)
	})

	for _, c := range []struct {
		name, pass string
		doc        []byte
		code, says string
	}{
		{"wrong passphrase", passphrase + " ", sealed, "wrong_passphrase", `does not derive the key "ops laptop"`},
		{"empty passphrase", "", sealed, "wrong_passphrase", "Type the passphrase"},
		{"custom result", passphrase, docExample(t, "example-custom"), "unsupported_algorithm", "choose its private key file"},
		{"newer version", passphrase, bytes.Replace(sealed, []byte(`"version":1`), []byte(`"version":2`), 1), "unsupported_version", "encryption version"},
		{"hostile cost", passphrase, bytes.Replace(sealed, []byte(`"memory_kib":65536`), []byte(`"memory_kib":4194304`), 1), "malformed", "format"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := p.open(c.doc, "passphrase", c.pass)
			var pe *pageError
			if !errors.As(err, &pe) || pe.Code != c.code || !strings.Contains(pe.Message, c.says) {
				t.Errorf("got %v, want %s saying %q", err, c.code, c.says)
			}
		})
	}
	p.onlyAssets(t)
}

// Built without make npm, the page still opens custom results and says
// plainly why a passphrase cannot be used.
func TestBrowserWithoutPassphraseModule(t *testing.T) {
	p := newCryptoPageWith(t, false)
	blocks := docBlocks(t)
	if _, err := p.open([]byte(blocks["example-custom"]), "pem", blocks["example-private-key"]); err != nil {
		t.Errorf("custom without the module: %v", err)
	}
	_, err := p.open([]byte(blocks["example-passphrase"]), "passphrase", "correct horse battery staple")
	var pe *pageError
	if !errors.As(err, &pe) || pe.Code != "argon2_unavailable" || !strings.Contains(pe.Message, "make npm") {
		t.Errorf("passphrase without the module: %v", err)
	}
	_, err = p.call(`return await C.newPassphraseKey("laptop", "correct horse battery staple")`)
	if !errors.As(err, &pe) || pe.Code != "argon2_unavailable" {
		t.Errorf("new key without the module: %v", err)
	}
	p.onlyAssets(t)
}

// The worked examples of docs/encryption.md open in the page: fixed
// vectors (Argon2id of the example passphrase included) independent of the
// Go code under test.
func TestBrowserOpensDocsExamples(t *testing.T) {
	p := newCryptoPage(t)
	blocks := docBlocks(t)
	var plain map[string]json.RawMessage
	if err := json.Unmarshal([]byte(blocks["example-plaintext"]), &plain); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ block, kind, secret string }{
		{"example-custom", "pem", blocks["example-private-key"]},
		{"example-passphrase", "passphrase", "correct horse battery staple"},
	} {
		t.Run(c.block, func(t *testing.T) {
			got, err := p.open([]byte(blocks[c.block]), c.kind, c.secret)
			if err != nil {
				t.Fatal(err)
			}
			if canonical(t, got.LicenseData) != canonical(t, plain["license_data"]) {
				t.Errorf("license_data %s, want %s", got.LicenseData, plain["license_data"])
			}
			var photo string
			json.Unmarshal(plain["license_photo"], &photo)
			if got.Photo != photo {
				t.Errorf("photo %q, want %q", got.Photo, photo)
			}
		})
	}
}

func docBlocks(t *testing.T) map[string]string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(testkit.RepoRoot(t), "docs", "encryption.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	for _, m := range regexp.MustCompile("(?s)```\\w+ (example-[a-z-]+)\n(.*?)\n```").FindAllStringSubmatch(string(doc), -1) {
		blocks[m[1]] = m[2]
	}
	return blocks
}

func docExample(t *testing.T, name string) []byte {
	t.Helper()
	b := docBlocks(t)[name]
	if b == "" {
		t.Fatalf("docs/encryption.md has no %s block", name)
	}
	return []byte(b)
}

// onlyAssets: the page requested its own page and scripts and nothing else,
// so no key, passphrase or plaintext left it.
func (p *cryptoPage) onlyAssets(t *testing.T) {
	t.Helper()
	for _, r := range p.rec.Sent() {
		if r.Method != "GET" || !(r.URL == p.url || strings.HasSuffix(r.URL, "/crypto.js") || strings.HasSuffix(r.URL, "/favicon.ico") || strings.Contains(r.URL, "/assets/passphrase-")) {
			t.Errorf("the page sent %s %s", r.Method, r.URL)
		}
	}
}

// Bad input gets a clear error: mutated sealed documents (members removed,
// retyped, truncated, bytes flipped in base64 and JSON) fed to the page's
// reader either open or fail with one of the module's codes and a
// sentence, never a bare TypeError or a DOMException without a code; and
// the page decides as client.Decrypt does (opens, or the same class of
// error).
func TestBrowserMutatedDocuments(t *testing.T) {
	p := newCryptoPage(t)
	blocks := docBlocks(t)
	codes := map[string]bool{"not_encrypted": true, "wrong_key": true, "wrong_passphrase": true, "authentication": true, "malformed": true,
		"unsupported_version": true, "unsupported_algorithm": true, "weak_key": true, "bad_key_file": true}
	rnd := mrand.New(mrand.NewPCG(13, 1))
	goCode := func(err error) string {
		for code, e := range map[string]error{"not_encrypted": client.ErrNotEncrypted, "wrong_key": client.ErrWrongKey,
			"wrong_passphrase": client.ErrWrongPassphrase, "authentication": client.ErrAuthentication, "malformed": client.ErrMalformed,
			"unsupported_version": client.ErrUnsupportedVersion, "unsupported_algorithm": client.ErrUnsupportedAlgorithm} {
			if errors.Is(err, e) {
				return code
			}
		}
		return err.Error()
	}
	pemKey, err := client.PrivateKey([]byte(blocks["example-private-key"]))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		block, kind, secret string
		key                 client.Key
	}{
		{"example-custom", "pem", blocks["example-private-key"], pemKey},
		{"example-passphrase", "passphrase", "correct horse battery staple", client.Passphrase("correct horse battery staple")},
	} {
		var doc map[string]any
		if err := json.Unmarshal([]byte(blocks[c.block]), &doc); err != nil {
			t.Fatal(err)
		}
		var docs []json.RawMessage
		for i := 0; i < 100; i++ {
			m := mutate(rnd, deepCopy(doc))
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, b)
		}
		raw, err := p.call(`const [docs, kind, secret] = args;
			const key = kind === "pem" ? await C.keyFromPEM(secret) : C.keyFromPassphrase(secret);
			const out = [];
			for (const d of docs) {
				try { await C.openResult(d, key); out.push({ok: true}); }
				catch (e) { out.push({code: (e && e.code) || "", name: (e && e.name) || "", message: C.describe(e)}); }
			}
			return out;`, docs, c.kind, c.secret)
		if err != nil {
			t.Fatal(err)
		}
		var res []struct {
			OK         bool
			Code, Name string
			Message    string
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for i, r := range res {
			switch {
			case r.OK:
				seen["opened"]++
			case !codes[r.Code] || r.Name != "DecryptError" || r.Message == "":
				t.Errorf("%s mutation %d: %s %q: %s\n%s", c.block, i, r.Name, r.Code, r.Message, docs[i])
			default:
				seen[r.Code]++
			}
			_, gerr := client.Decrypt(docs[i], c.key)
			switch {
			case gerr == nil && !r.OK:
				t.Errorf("%s mutation %d: idgate decrypt opens it, the page says %s\n%s", c.block, i, r.Code, docs[i])
			case gerr != nil && (r.OK || goCode(gerr) != r.Code):
				t.Errorf("%s mutation %d: idgate decrypt says %s (%v), the page %q\n%s", c.block, i, goCode(gerr), gerr, r.Code, docs[i])
			}
		}
		t.Logf("%s: %v", c.block, seen)
	}
}

func deepCopy(v map[string]any) map[string]any {
	b, _ := json.Marshal(v)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// mutate changes one random member of a sealed document at any depth:
// removes it, retypes it, truncates or flips a character of a string.
func mutate(rnd *mrand.Rand, doc map[string]any) map[string]any {
	obj := doc
	for {
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		k := keys[rnd.IntN(len(keys))]
		if inner, ok := obj[k].(map[string]any); ok && rnd.IntN(3) > 0 {
			obj = inner
			continue
		}
		switch rnd.IntN(6) {
		case 0:
			delete(obj, k)
		case 1:
			obj[k] = []any{obj[k]}
		case 2:
			obj[k] = rnd.IntN(5)
		case 3:
			obj["extra_"+k] = true
		default:
			if s, ok := obj[k].(string); ok && s != "" {
				b := []byte(s)
				if rnd.IntN(2) == 0 {
					b = b[:rnd.IntN(len(b))]
				} else {
					b[rnd.IntN(len(b))] = "AZaz09+/=_-!{"[rnd.IntN(13)]
				}
				obj[k] = string(b)
			} else {
				obj[k] = "x"
			}
		}
		return doc
	}
}
