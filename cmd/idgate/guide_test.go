package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
)

// asCLI, when set, makes the test binary be the idgate command: the guide's
// var/idgate is a script that runs this binary with it, so the guide's CLI
// lines run the code under test without a second build.
const asCLI = "IDGATE_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(asCLI) == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// guideBlock is one ```sh block of a document, with the line it starts on.
type guideBlock struct {
	line int
	info string
	text string
}

// shBlocks returns the fenced blocks whose info string starts with "sh", in
// order of appearance, indented ones (inside list items) included.
func shBlocks(doc string) []guideBlock {
	var blocks []guideBlock
	var cur *guideBlock
	var indent string
	for i, line := range strings.Split(doc, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if cur == nil {
			if info, ok := strings.CutPrefix(trimmed, "```"); ok && strings.HasPrefix(info, "sh") {
				cur = &guideBlock{line: i + 1, info: strings.TrimSpace(info)}
				indent = line[:len(line)-len(trimmed)]
			}
			continue
		}
		if trimmed == "```" {
			blocks = append(blocks, *cur)
			cur = nil
			continue
		}
		cur.text += strings.TrimPrefix(line, indent) + "\n"
	}
	return blocks
}

// TestAPIGuideRuns runs docs/api.md as a newcomer would: every ```sh block,
// in order, in one bash, from a directory laid out as `make run` leaves the
// clone (var/idgate, var/demo-tls.crt and .key, ./var/idgate.db; and a
// logo.png of the newcomer's), against a
// real `serve --dev` started with make run's webhook settings (loopback
// allowed, the demo certificate trusted). A block marked "sh no-test" must
// say why beside it and is skipped. curl runs with --fail-with-body and bash
// with -euo pipefail, so an HTTP error or a failed command anywhere fails
// the test, naming the block. The guide's webhook walk must end with the
// local receiver printing a signed delivery.
func TestAPIGuideRuns(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "jq", "openssl", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is needed to run docs/api.md (scripts/deps.sh installs it): %v", tool, err)
			}
			t.Skipf("SKIPPING: %s is not installed (scripts/deps.sh installs it)", tool)
		}
	}
	raw, err := os.ReadFile(filepath.Join(testkit.RepoRoot(t), "docs", "api.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := shBlocks(string(raw))
	var script strings.Builder
	script.WriteString("set -euo pipefail\n" +
		"curl() { command curl --fail-with-body --max-time 10 \"$@\"; }\n" +
		"trap 'jobs -p | xargs -r kill 2>/dev/null || true' EXIT\n")
	ran := 0
	for _, b := range blocks {
		if b.info != "sh" {
			if !strings.HasPrefix(b.info, "sh no-test") {
				t.Errorf("docs/api.md:%d: info string %q: want sh, or sh no-test with the reason beside the block", b.line, b.info)
			}
			continue
		}
		ran++
		script.WriteString("echo; echo '>>> docs/api.md:" + strconv.Itoa(b.line) + "' >&2\n" + b.text)
	}
	if ran < 5 {
		t.Fatalf("docs/api.md has %d runnable sh blocks; the walk has more", ran)
	}

	dir := inTempDir(t)
	if err := os.MkdirAll("var", 0o755); err != nil {
		t.Fatal(err)
	}
	writeDemoCert(t, filepath.Join(dir, "var"))
	// The newcomer's own logo, which the branding block uploads.
	logo := image.NewRGBA(image.Rect(0, 0, 120, 40))
	draw.Draw(logo, logo.Bounds(), image.NewUniform(color.RGBA{0x19, 0x47, 0xc2, 0xff}), image.Point{}, draw.Src)
	var logoPNG bytes.Buffer
	if err := png.Encode(&logoPNG, logo); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "logo.png"), logoPNG.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cli := "#!/bin/sh\n" + asCLI + "=1 exec '" + self + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "var", "idgate"), []byte(cli), 0o755); err != nil {
		t.Fatal(err)
	}
	// make run's verifier settings for local webhooks (scripts/run.sh).
	t.Setenv("IDGATE_WEBHOOK_CA_FILE", filepath.Join(dir, "var", "demo-tls.crt"))
	t.Setenv("IDGATE_WEBHOOK_ALLOW_LOOPBACK", "true")
	t.Setenv("IDGATE_DEV_CLIENT_IP", "")
	base, _, _ := startServe(t)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "IDGATE_URL="+base)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// The receiver runs in the background: on a timeout, end bash's whole
	// process group, not bash alone, so nothing keeps the output open.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err = cmd.Run()
	t.Logf("%d blocks ran in %v", ran, time.Since(start).Round(time.Millisecond))
	if err != nil {
		marks := regexp.MustCompile(`>>> (docs/api\.md:\d+)`).FindAllStringSubmatch(out.String(), -1)
		at := "before the first block"
		if len(marks) > 0 {
			at = "in the block at " + marks[len(marks)-1][1]
		}
		t.Fatalf("the guide failed %s: %v\n%s", at, err, out.String())
	}
	if !regexp.MustCompile(`(?m)^webhook .*Idgate-Signature: t=\d+,v1=[0-9a-f]{64}`).MatchString(out.String()) ||
		!strings.Contains(out.String(), `"livemode":false`) {
		t.Fatalf("the guide's receiver printed no signed test delivery:\n%s", out.String())
	}
}

// writeDemoCert writes demo-tls.crt and demo-tls.key into dir as
// scripts/run.sh makes them: self-signed, P-256, naming IP 127.0.0.1 only.
func writeDemoCert(t *testing.T, dir string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, BasicConstraintsValid: true, IsCA: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "demo-tls.crt"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "demo-tls.key"), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8}), 0o600); err != nil {
		t.Fatal(err)
	}
}
