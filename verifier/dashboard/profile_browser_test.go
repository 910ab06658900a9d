package dashboard_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/client"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/dashboard/npmbundle"
	"github.com/idgate/idgate/verifier/e2ee"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/license"
)

type integrationKey struct {
	Prefix           string   `json:"prefix"`
	AllowedDomains   []string `json:"allowed_domains"`
	RateLimitPerHour int      `json:"rate_limit_per_hour"`
}

// The Profile page in Chromium on the real server: the integration key is
// shown once (copy button, gone when the page is left), the allowlist and
// rate limit are saved, a passphrase key is created in the browser (the
// same key Go derives from the passphrase; nothing secret is sent) and a
// result the domain seals to it opens in the Requests page, the webhook
// secret rotates (shown once), usage matches GET /quota, and the key is
// deleted; an account without a display name is asked for one and gives
// it. axe-core checks each state; screenshots go to
// var/screenshots/dashboard/.
func TestProfilePage(t *testing.T) {
	if _, err := npmbundle.Passphrase(); err != nil {
		// Passphrase keys need the npm module (make npm).
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skipf("SKIPPING the Profile page test — %v", err)
	}
	s := startServer(t)
	tb := s.open(t)
	tb.goTo("#/profile")
	tb.WaitText("This account has no integration key.")
	tb.WaitText("No passphrase keys yet.")
	tb.WaitText("Usage this month")
	tb.WaitText("Your links' pages name no one")
	tb.Shoot("profile-empty")

	// An account without a display name is asked for one.
	tb.Run(chromedp.SendKeys(`#branding-form input[name="display_name"]`, "Acme Wines"),
		chromedp.Click(`#branding-form button[type="submit"]`))
	tb.WaitText("Saved.")
	var me struct {
		Branding struct {
			DisplayName *string `json:"display_name"`
		} `json:"branding"`
	}
	s.call("GET", "/me", "", 200, &me)
	if me.Branding.DisplayName == nil || *me.Branding.DisplayName != "Acme Wines" || eval[bool](tb, `!!document.getElementById("brand-missing")`) {
		t.Fatalf("after saving the name: %+v, the page still asks: %v", me.Branding.DisplayName, eval[bool](tb, `!!document.getElementById("brand-missing")`))
	}

	// Integration key: generated, shown once with a copy button.
	eval[bool](tb, `(() => { const w = navigator.clipboard.writeText.bind(navigator.clipboard);
		navigator.clipboard.writeText = (v) => { window.copied = v; return w(v); }; return true; })()`)
	tb.grantClipboard()
	tb.Run(chromedp.Click(`//button[text()="Generate a key"]`))
	tb.WaitText("this is the only time the key is shown")
	key := eval[string](tb, `document.querySelector(".secret-once input").value`)
	var ik integrationKey
	s.call("GET", "/integration-key", "", 200, &ik)
	if !strings.HasPrefix(key, "idgk_") || len(key) != 48 || !strings.HasPrefix(key, ik.Prefix) {
		t.Fatalf("page shows %q; the server's key has prefix %q", key, ik.Prefix)
	}
	tb.Run(chromedp.Click(`//button[text()="Copy"]`))
	tb.WaitText("Copied to the clipboard.")
	if got := eval[string](tb, `window.copied || ""`); got != key {
		t.Errorf("Copy wrote %q, want the key", got)
	}
	if got := eval[string](tb, `navigator.clipboard.readText()`); got != key {
		t.Errorf("the clipboard holds %q, want the key", got)
	}
	tb.Shoot("profile-key-shown-once")

	// Allowlist and rate limit: a bad entry is refused with the server's
	// reason, good ones are saved.
	tb.Run(chromedp.SetValue(`textarea[name=allowed_domains]`, "https://shop.example.com/cart"))
	tb.Run(chromedp.Click(`//button[text()="Save"]`))
	tb.Wait(`document.querySelector("form[aria-labelledby=ik-settings-h] [role=alert]") !== null`)
	if msg := eval[string](tb, `document.querySelector("form[aria-labelledby=ik-settings-h] [role=alert]").innerText`); !strings.Contains(msg, "allowed_domains") {
		t.Errorf("a bad allowlist entry says %q", msg)
	}
	tb.Run(chromedp.SetValue(`textarea[name=allowed_domains]`, "*.example.com\nshop.example.org:8443\n"),
		chromedp.SetValue(`input[name=rate_limit_per_hour]`, "120"))
	tb.Run(chromedp.Click(`//button[text()="Save"]`))
	tb.WaitText("Saved: 2 allowed domains, 120 per hour.")
	s.call("GET", "/integration-key", "", 200, &ik)
	if strings.Join(ik.AllowedDomains, " ") != "*.example.com shop.example.org:8443" || ik.RateLimitPerHour != 120 {
		t.Errorf("server has %+v", ik)
	}
	if !strings.Contains(tb.Text(), "every subdomain at any depth") {
		t.Error("the wildcard rule is not explained")
	}

	// Leaving the page and coming back: the key is gone for good.
	tb.goTo("#/requests")
	tb.WaitText("Requests")
	tb.goTo("#/profile")
	tb.WaitText("Allowed domains and rate limit")
	if strings.Contains(tb.Text(), key) || eval[bool](tb, `document.querySelector(".secret-once") !== null`) {
		t.Error("the integration key is shown again after leaving the page")
	}

	// A passphrase key created in the browser.
	const passphrase = "plover quartz lantern 7 ferry"
	tb.Run(chromedp.SendKeys(`input[name=name]`, "compliance laptop"),
		chromedp.SendKeys(`input[name=passphrase]`, passphrase), chromedp.SendKeys(`input[name=passphrase_again]`, passphrase))
	tb.Run(chromedp.Click(`//button[text()="Create key"]`))
	tb.WaitText("Created “compliance laptop”.")
	var keys struct {
		Items []struct {
			ID        string `json:"id"`
			Name      string `json:"name"`
			PublicKey []byte `json:"public_key"`
			KDF       struct {
				Salt        []byte `json:"salt"`
				MemoryKiB   uint32 `json:"memory_kib"`
				Iterations  uint32 `json:"iterations"`
				Parallelism uint8  `json:"parallelism"`
			} `json:"kdf"`
		} `json:"items"`
	}
	s.call("GET", "/passphrase-keys", "", 200, &keys)
	if len(keys.Items) != 1 {
		t.Fatalf("%d passphrase keys, want 1", len(keys.Items))
	}
	pk := keys.Items[0]
	kdf := e2ee.KDFParams{Alg: e2ee.AlgPassphrase, Salt: pk.KDF.Salt, MemoryKiB: pk.KDF.MemoryKiB, Iterations: pk.KDF.Iterations, Parallelism: pk.KDF.Parallelism}
	priv, err := e2ee.DerivePrivateKey([]byte(passphrase), kdf)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(priv.PublicKey().Bytes(), pk.PublicKey) || kdf.CheckStrength() != nil {
		t.Fatalf("the browser uploaded a key Go does not derive from the passphrase (or below the floor): %+v", pk)
	}
	tb.WaitText(pk.ID)
	tb.Shoot("profile-passphrase-key")

	// A result the domain seals to that key opens in the Requests page.
	id := s.completeSealed(t, `"encryption_key_mode":"passphrase","encryption_key":"`+pk.ID+`"`)
	tb.goTo("#/requests/" + id)
	tb.WaitText("Encrypted to your key.")
	tb.Run(chromedp.SendKeys(`.sealed input[type=password]`, passphrase+"x"), chromedp.Click(`.sealed button[type=submit]`))
	tb.WaitText(`does not derive the key "compliance laptop"`)
	tb.Run(chromedp.SendKeys(`.sealed input[type=password]`, passphrase), chromedp.Click(`.sealed button[type=submit]`))
	tb.WaitText("Opened in this page.")
	s.sameAsDecrypt(tb, id, client.Passphrase(passphrase))
	tb.Shoot("requests-opened-passphrase")
	tb.neverSent(passphrase, base64.StdEncoding.EncodeToString(priv.Bytes()))

	// The webhook signing secret, rotated and shown once.
	tb.goTo("#/profile")
	tb.WaitText("Webhook signing secret")
	tb.Run(chromedp.Click(`//button[text()="Rotate the secret"]`), chromedp.Click(`//button[text()="Rotate"]`))
	tb.WaitText("this is the only time the secret is shown")
	if sec := eval[string](tb, `document.querySelector(".secret-once input").value`); !strings.HasPrefix(sec, "whsec_") {
		t.Errorf("the rotated secret reads %q", sec)
	}

	// Usage this month is GET /quota's.
	var q struct {
		Allowances map[string]struct {
			Limit *int `json:"limit"`
			Used  int  `json:"used"`
		} `json:"allowances"`
	}
	s.call("GET", "/quota", "", 200, &q)
	for typ, l := range q.Allowances {
		row := eval[string](tb, `(document.querySelector(".usage-line[data-type=`+typ+`]") || {innerText: ""}).innerText`)
		if l.Limit == nil || !strings.Contains(row, strconv.Itoa(l.Used)+" of "+strconv.Itoa(*l.Limit)+" used") {
			t.Errorf("usage row for %s reads %q; /quota says %d of %v", typ, row, l.Used, l.Limit)
		}
	}
	tb.Shoot("profile-secret-rotated")

	// Deleting the passphrase key.
	tb.Run(chromedp.Click(`button[aria-label="Delete compliance laptop"]`), chromedp.Click(`//button[text()="Delete the key"]`))
	tb.WaitText("Deleted “compliance laptop”.")
	tb.WaitText("No passphrase keys yet.")
	s.call("GET", "/passphrase-keys", "", 200, &keys)
	if len(keys.Items) != 0 {
		t.Errorf("%d passphrase keys after deleting", len(keys.Items))
	}
	tb.neverSent(passphrase)
}

// completeSealed creates a verification with the given encryption members,
// opens its link, takes it to started and completes it through the domain
// (verifier.Complete builds and seals the result), returning its id.
func (s *server) completeSealed(t *testing.T, encryption string) string {
	t.Helper()
	var v struct {
		ID  string `json:"id"`
		URL string `json:"url"`
	}
	s.call("POST", "/verification", `{"external_id":"dash-1","requested_fields":["first_names","last_name","dob","document_number","address_city"],`+
		`"include_license_photo":true,`+encryption+`}`, 201, &v)
	path := v.URL[strings.Index(v.URL, "/v/"):]
	s.call("GET", path, "", 200, nil)
	// Opening the page starts nothing; the end user's first step does.
	if _, err := s.store.UpdateVerification(context.Background(), s.acct.ID, v.ID, func(x *verifier.Verification) error {
		x.Status, x.StartedAt, x.UpdatedAt = verifier.StatusStarted, time.Now(), time.Now()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	l, err := license.ParseAAMVA(license.Encode(license.License{
		DocumentType: "DL", IssuingJurisdiction: "OR", Country: "USA", FirstNames: "JANE ÅSA", LastName: "DOE-SMITH", Sex: license.SexFemale,
		DOB: license.Date{Year: 1987, Month: 6, Day: 5}, IssueDate: license.Date{Year: 2022, Month: 3, Day: 1}, ExpiryDate: license.Date{Year: 2030, Month: 6, Day: 5},
		Address:        license.Address{Line1: "12 ELM ST", City: "LAKE OSWEGO", Jurisdiction: "OR", PostalCode: "97035"},
		DocumentNumber: "X1234567", EyeColor: "GRN", Height: license.Measure{Value: 66, Unit: "in"},
	}, 10))
	if err != nil {
		t.Fatal(err)
	}
	_, err = verifier.Complete(context.Background(), s.store, time.Now(), s.acct.ID, v.ID, verifier.Outcome{
		License:   l,
		Document:  verifier.DocumentEvidence{CardFound: true, ProportionsOK: true, FacePresent: true, BarcodeValid: true},
		FaceMatch: match.Result{Distance: 0.31, Cosine: 0.91, Tier: match.DefiniteMatch, Confidence: 0.93},
		Live:      true, LicensePhoto: portrait(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	return v.ID
}

// portrait is a JPEG standing in for the cropped license headshot.
func portrait(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 120, 150))
	for y := 0; y < 150; y++ {
		for x := 0; x < 120; x++ {
			img.Set(x, y, color.RGBA{uint8(80 + x), uint8(60 + y), 140, 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sameAsDecrypt checks that what the page shows after opening is what
// client.Decrypt (the code of `idgate decrypt`) opens from GET
// /verification: every license_data value, and the photo's bytes.
func (s *server) sameAsDecrypt(tb *ptab, id string, key client.Key) {
	t := tb.T
	t.Helper()
	var raw json.RawMessage
	s.call("GET", "/verification?id="+id, "", 200, &raw)
	opened, err := client.Decrypt(raw, key)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Result struct {
			LicenseData  map[string]any `json:"license_data"`
			LicensePhoto string         `json:"license_photo"`
		} `json:"result"`
	}
	if err := json.Unmarshal(opened, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Result.LicenseData) != 5 || got.Result.LicensePhoto == "" {
		t.Fatalf("idgate decrypt opened %s", opened)
	}
	tb.Wait(`document.querySelector(".personal img.portrait") !== null`)
	text := eval[string](tb, `document.querySelector(".personal").innerText`)
	for k, v := range got.Result.LicenseData {
		label := strings.ReplaceAll(k, "_", " ")
		want := jsonText(v)
		if !strings.Contains(text, label) || !strings.Contains(text, want) {
			t.Errorf("the page lacks %s = %s; it shows:\n%s", label, want, text)
		}
	}
	src := eval[string](tb, `document.querySelector(".personal img.portrait").src`)
	if src != "data:image/jpeg;base64,"+got.Result.LicensePhoto {
		t.Errorf("the photo the page shows (%d characters) is not the one idgate decrypt opens (%d)", len(src), len(got.Result.LicensePhoto))
	}
	if !eval[bool](tb, `document.querySelector(".personal img.portrait").naturalWidth > 0`) {
		t.Error("the photo does not decode in the page")
	}
}

func jsonText(v any) string {
	if s, ok := v.(string); ok {
		return strings.ReplaceAll(s, "_", " ")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// A custom-mode result in the Requests page opens with the private key
// file the user chooses (after a wrong key is refused by name), to what
// idgate decrypt opens; the key file's contents are never sent.
func TestRequestsOpenCustomResult(t *testing.T) {
	testkit.TakesTurns(t, 2)
	s := startServer(t)
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pubDER, _ := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	pubPEM, _ := json.Marshal(string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})))
	id := s.completeSealed(t, `"encryption_key_mode":"custom","encryption_key":`+string(pubPEM))

	dir := t.TempDir()
	write := func(name string, k *rsa.PrivateKey) string {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}), 0o600); err != nil {
			t.Fatal(err)
		}
		return file
	}
	right, wrong := write("ops.pem", priv), write("other.pem", other)

	tb := s.open(t)
	tb.goTo("#/requests/" + id)
	tb.WaitText("Choose its private key file to open it here.")
	tb.Shoot("requests-sealed-custom")
	tb.Run(chromedp.SetUploadFiles(`.sealed input[type=file]`, []string{wrong}), chromedp.Click(`.sealed button[type=submit]`))
	tb.WaitText("This private key is not the one the data was sealed for")
	tb.Run(chromedp.SetUploadFiles(`.sealed input[type=file]`, []string{right}), chromedp.Click(`.sealed button[type=submit]`))
	tb.WaitText("Opened in this page.")
	key, err := client.PrivateKey(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(priv)}))
	if err != nil {
		t.Fatal(err)
	}
	s.sameAsDecrypt(tb, id, key)
	der := x509.MarshalPKCS1PrivateKey(priv)
	tb.neverSent(base64.StdEncoding.EncodeToString(der)[100:160], string(der[64:96]))

	// Back on the page later in the session, the remembered key opens it
	// without asking.
	tb.goTo("#/requests")
	tb.WaitText("dash-1")
	tb.goTo("#/requests/" + id)
	tb.WaitText("Opened in this page.")
	tb.Wait(`document.querySelector(".personal img.portrait") !== null`)
}
