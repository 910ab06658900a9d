package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/client"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

const serveChildEnv = "IDGATE_TEST_SERVE_CHILD"

// TestServeChild is not a test of its own: TestServeDeliversWebhooks runs
// the test binary again with only this function, as the serve process. A
// process of its own is needed so SSL_CERT_FILE (the receiver's test
// certificate) is the system trust store from the start, as an operator's
// CA bundle would be; the other way to trust it, IDGATE_WEBHOOK_CA_FILE
// (make run's), goes through the same child.
func TestServeChild(t *testing.T) {
	if os.Getenv(serveChildEnv) == "" {
		t.Skip("helper process for TestServeDeliversWebhooks")
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, []string{"serve", "--dev"}, strings.NewReader(""), os.Stdout, os.Stderr))
}

// TestServeDeliversWebhooks is the wiring end to end: serve's worker, woken
// by nothing but its poll, delivers a completion written into the database
// by another process, signed with the secret POST /webhook-secret showed,
// logs it for GET /verification/webhook/deliveries, and drains on SIGTERM;
// the receiver's self-signed certificate trusted through either variable.
func TestServeDeliversWebhooks(t *testing.T) {
	for _, trust := range []string{"SSL_CERT_FILE", "IDGATE_WEBHOOK_CA_FILE"} {
		t.Run(trust, func(t *testing.T) { serveDeliversWebhooks(t, trust) })
	}
}

func serveDeliversWebhooks(t *testing.T, trust string) {
	dir := inTempDir(t)
	const email, pw = "hooks@example.com", "a long enough password"
	if code, _, errOut := runCmd(t, "", "account", "create", "--email", email, "--name", "Webhook Tester", "--password", pw); code != 0 {
		t.Fatalf("account create: %s", errOut)
	}
	rcv := webhooktest.NewReceiver(t, webhooktest.Always(http.StatusNoContent))
	certFile := filepath.Join(dir, "receiver.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rcv.Cert.Raw}), 0o600); err != nil {
		t.Fatal(err)
	}

	child := exec.Command(os.Args[0], "-test.run=^TestServeChild$")
	child.Dir = dir
	child.Env = append(os.Environ(), serveChildEnv+"=1", trust+"="+certFile, "IDGATE_WEBHOOK_ALLOW_LOOPBACK=true")
	var stderr bytes.Buffer
	child.Stderr = &stderr
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	t.Cleanup(func() {
		_ = child.Process.Kill()
		<-exited
	})
	base := ""
	sc := bufio.NewScanner(out)
	for base == "" && sc.Scan() {
		if m := regexp.MustCompile(`listening on (http://\S+)`).FindStringSubmatch(sc.Text()); m != nil {
			base = m[1]
		}
	}
	go func() {
		_, _ = io.Copy(io.Discard, out)
		exited <- child.Wait()
	}()
	if base == "" {
		t.Fatalf("serve never listened: %s", stderr.String())
	}

	code, token := signIn(t, base, email, pw)
	if code != 200 {
		t.Fatalf("sign in: %d", code)
	}
	call := func(method, path string) (int, []byte) {
		req, _ := http.NewRequest(method, base+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, body
	}
	status, body := call("POST", "/webhook-secret")
	var rotated struct {
		Secret string `json:"secret"`
	}
	if err := json.Unmarshal(body, &rotated); status != 201 || err != nil {
		t.Fatalf("POST /webhook-secret: %d %s", status, body)
	}

	// Another process completes a verification in the same database.
	v := completeElsewhere(t, filepath.Join(dir, "var", "idgate.db"), email, rcv.URL)
	rcv.Wait(t, 1, 20*time.Second)
	req := rcv.Requests()[0]
	if !bytes.Equal(req.Body, v.Result) || req.Header.Get("X-Shop") != "42" {
		t.Fatalf("delivered %q with headers %v", req.Body, req.Header)
	}
	if err := client.VerifySignature([]byte(rotated.Secret), req.Header.Get(webhook.HeaderSignature), req.Body, time.Now(), time.Minute); err != nil {
		t.Fatalf("signature: %v", err)
	}
	// The outcome is recorded just after the receiver answered.
	deadline := time.Now().Add(10 * time.Second)
	for {
		status, body = call("GET", "/verification/webhook/deliveries?id="+v.ID)
		if status == 200 && bytes.Contains(body, []byte(`"webhook_status":"delivered"`)) || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if status != 200 || !bytes.Contains(body, []byte(`"webhook_status":"delivered"`)) || !bytes.Contains(body, []byte(`"status_code":204`)) {
		t.Fatalf("delivery log: %d %s", status, body)
	}

	if err := child.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		exited <- err // for the cleanup
		if err != nil {
			t.Fatalf("serve exited with %v: %s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}
	if !strings.Contains(stderr.String(), "loopback receivers") {
		t.Errorf("the loopback switch was not warned about: %s", stderr.String())
	}
}

// TestServeRefusesAnEmptyWebhookCAFile: a CA file that is missing or holds
// no certificate stops serve at start, naming the variable, rather than
// failing every delivery later.
func TestServeRefusesAnEmptyWebhookCAFile(t *testing.T) {
	dir := inTempDir(t)
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{notPEM: "no PEM certificate in", filepath.Join(dir, "absent.pem"): "no such file"} {
		t.Setenv("IDGATE_WEBHOOK_CA_FILE", file)
		code, _, errOut := runCmd(t, "", "serve", "--dev")
		if code == 0 || !strings.Contains(errOut, "IDGATE_WEBHOOK_CA_FILE") || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, stderr %q", file, code, errOut)
		}
	}
}

// completeElsewhere opens the SQLite file as a second process would and
// moves a new verification of the account to completed, which enqueues its
// delivery; serve's worker finds it by polling.
func completeElsewhere(t *testing.T, path, email, url string) verifier.Verification {
	t.Helper()
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := st.GetAccountByEmail(ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	v := verifier.Verification{ID: uuid.NewString(), AccountID: a.ID, TokenHash: []byte(uuid.NewString()),
		Status: verifier.StatusPending, Type: verifier.TypeCore, WebhookURL: url, WebhookHeaders: map[string]string{"X-Shop": "42"},
		LifetimeDays: 14, ExpiresAt: now.Add(14 * 24 * time.Hour), CreatedAt: now, UpdatedAt: now}
	if err := st.CreateVerification(ctx, v, verifier.Allowance{Limit: -1}); err != nil {
		t.Fatal(err)
	}
	for _, status := range []verifier.Status{verifier.StatusStarted, verifier.StatusCompleted} {
		v, err = st.UpdateVerification(ctx, a.ID, v.ID, func(x *verifier.Verification) error {
			x.Status, x.UpdatedAt = status, time.Now()
			if status == verifier.StatusCompleted {
				x.Result = json.RawMessage(fmt.Sprintf(`{"request_id":%q,"verification":{"over_18":true}}`, x.ID))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return v
}

func TestServeRefusesProductionWithoutSecretKey(t *testing.T) {
	inTempDir(t)
	t.Setenv("IDGATE_SECRET_KEY", "")
	t.Setenv("IDGATE_JWT_KEYS", "k1:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
	code, _, errOut := runCmd(t, "", "serve")
	if code == 0 || !strings.Contains(errOut, "IDGATE_SECRET_KEY is required") {
		t.Fatalf("%d %q", code, errOut)
	}
	t.Setenv("IDGATE_SECRET_KEY", "dG9vIHNob3J0")
	code, _, errOut = runCmd(t, "", "serve")
	if code == 0 || !strings.Contains(errOut, "IDGATE_SECRET_KEY") || !strings.Contains(errOut, "want 32") {
		t.Fatalf("%d %q", code, errOut)
	}
}
