// Package loopback runs the real verifier for the end-user pages'
// benchmarks (bench/pages, bench/licenseguide): SQLite, the in-process
// limiter, the flow's session API on a loopback port, one account signed
// in, and a JSON POST helper.
package loopback

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"time"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/flow"
	vhttp "github.com/idgate/idgate/verifier/http"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest"
)

// Verifier is a running verifier with one account signed in.
type Verifier struct {
	Base   string // e.g. http://127.0.0.1:40123
	Bearer string // "Bearer …", the account's
	close  func()
}

// Start opens a SQLite store in dir and runs the verifier on it (Serve)
// with one account signed in (Account). Close stops both.
func Start(ctx context.Context, dir string, eng *engines.Engines) (*Verifier, error) {
	store, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(dir, "idgate.db"))
	if err != nil {
		return nil, err
	}
	base, stop, err := Serve(store, eng)
	if err != nil {
		store.Close()
		return nil, err
	}
	v := &Verifier{Base: base, close: func() { stop(); store.Close() }}
	if v.Bearer, err = Account(ctx, store, base); err != nil {
		v.Close()
		return nil, err
	}
	return v, nil
}

// Close stops the server and closes the store.
func (v *Verifier) Close() { v.close() }

// Serve runs the verifier (verifiertest.New) with the end-user flow on
// loopback and returns its base URL. eng may be nil when no step is judged
// (the first screen calls no engine). The server reads requests as
// `idgate serve` does on its defaults (IDGATE_READ_TIMEOUT, IDGATE_BODY_LIMIT,
// IDGATE_IDLE_TIMEOUT), so that an upload the throttled network makes slow
// meets the bounds a phone's would.
func Serve(store *sqlstore.DB, eng *engines.Engines) (string, func(), error) {
	fl := &flow.Flow{}
	if eng != nil { // a nil *Engines in the interface would not be nil
		fl.Engines = eng
	}
	def, err := config.Load(func(string) string { return "" })
	if err != nil {
		return "", nil, err
	}
	v, err := verifiertest.New(verifiertest.Options{Store: store, Flow: fl,
		Config: vhttp.Config{ReadTimeout: def.ReadTimeout, BodyLimit: def.BodyLimit, IdleTimeout: def.IdleTimeout}})
	if err != nil {
		return "", nil, err
	}
	return v.URL, v.Close, nil
}

// Account creates an account and signs in; it returns the Authorization
// header's value.
func Account(ctx context.Context, store *sqlstore.DB, base string) (string, error) {
	const email, pw = "bench@example.com", "a long enough password"
	a, err := verifier.NewAccount(email, pw, time.Now())
	if err != nil {
		return "", err
	}
	if err := store.CreateAccount(ctx, a); err != nil {
		return "", err
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := Post(base+"/auth", "", "application/json", []byte(`{"email":"`+email+`","password":"`+pw+`"}`), &tok); err != nil {
		return "", err
	}
	return "Bearer " + tok.AccessToken, nil
}

// Post sends body as ctype (with the bearer, when not empty), fails on a
// status other than 2xx and decodes a JSON answer into out (unless nil).
func Post(url, bearer, ctype string, body []byte, out any) error {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", ctype)
	if bearer != "" {
		req.Header.Set("Authorization", bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("POST %s: %d %s", url, resp.StatusCode, raw)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}
