package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/idgate/idgate/verifier/e2ee"
)

func init() {
	register(command{
		Name:    "keys fingerprint",
		Summary: "print the fingerprints of a PEM RSA public key (custom encryption key): PUB.pem|-",
		Run:     runKeysFingerprint,
	})
	register(command{
		Name:    "keys passphrase create",
		Summary: "derive a passphrase key locally and print the public part to upload: --name N",
		Run:     runKeysPassphraseCreate,
	})
}

// keyFingerprints is the output of `keys fingerprint`, named as in a
// result's encryption_key.
type keyFingerprints struct {
	Bits              int    `json:"bits"`
	FingerprintSSH    string `json:"fingerprint_ssh"`
	FingerprintSHA256 string `json:"fingerprint_sha256"`
}

func runKeysFingerprint(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: idgate keys fingerprint PUB.pem|-")
		return errors.New("one public key file expected")
	}
	pemBytes, err := readE2EEInput(args[0], stdin, maxPassphraseFile)
	if err != nil {
		return err
	}
	pub, err := e2ee.ParseRSAPublicKey(pemBytes)
	if err != nil {
		return err
	}
	info, err := e2ee.NewCustomKeyInfo(pub, "-")
	if err != nil {
		return err
	}
	return printKeyJSON(stdout, keyFingerprints{pub.N.BitLen(), info.FingerprintSSH, info.FingerprintSHA256})
}

// runKeysPassphraseCreate derives the key on this machine so the passphrase
// never leaves it, and prints the public part (name, public key, Argon2id
// salt and costs). The API that stores it is not built yet; this output is
// the body it will take.
func runKeysPassphraseCreate(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("keys passphrase create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("name", "", "label of the key (required)")
	passFile := fs.String("passphrase-file", "", "file holding the passphrase; prompted for (twice) when absent")
	memory := fs.Uint("memory-kib", e2ee.DefaultMemoryKiB, "Argon2id memory in KiB")
	iterations := fs.Uint("iterations", e2ee.DefaultIterations, "Argon2id passes")
	parallelism := fs.Uint("parallelism", e2ee.DefaultParallelism, "Argon2id lanes")
	upload := fs.String("upload", "", "verifier base URL: POST the public part to /passphrase-keys with the bearer token in $IDGATE_TOKEN and print the stored key (with its id)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *name == "" || fs.NArg() != 0 {
		fs.Usage()
		return errors.New("--name is required and no arguments are taken")
	}
	// The token comes from the environment, never a flag: flags end up in
	// shell history and ps output.
	token := os.Getenv("IDGATE_TOKEN")
	if *upload != "" && token == "" {
		return errors.New("--upload needs an access token in IDGATE_TOKEN (from POST /auth)")
	}
	if *memory > e2ee.MaxMemoryKiB || *iterations > e2ee.MaxIterations || *parallelism > e2ee.MaxParallelism {
		return fmt.Errorf("Argon2id costs above m=%d KiB t=%d p=%d", e2ee.MaxMemoryKiB, e2ee.MaxIterations, e2ee.MaxParallelism)
	}
	params, err := e2ee.NewKDFParams(uint32(*memory), uint32(*iterations), uint8(*parallelism))
	if err != nil {
		return err
	}
	if err := params.CheckStrength(); err != nil {
		return err
	}
	pass, err := passphraseInput(*passFile, true)
	if err != nil {
		return err
	}
	key, _, err := e2ee.NewPassphraseKey(*name, []byte(pass), params)
	if err != nil {
		return err
	}
	if *upload == "" {
		return printKeyJSON(stdout, key)
	}
	stored, err := uploadPassphraseKey(ctx, *upload, token, key)
	if err != nil {
		return err
	}
	return printKeyJSON(stdout, stored)
}

// uploadPassphraseKey sends only the public part (the passphrase and the
// private key never leave this machine) and returns what the server stored.
func uploadPassphraseKey(ctx context.Context, baseURL, token string, key e2ee.PassphraseKey) (json.RawMessage, error) {
	body, err := json.Marshal(key)
	if err != nil {
		return nil, fmt.Errorf("upload passphrase key: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(baseURL, "/")+"/passphrase-keys", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("upload passphrase key: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("upload passphrase key: %w", err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("upload passphrase key: %w", err)
	}
	if resp.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("upload passphrase key: %s: %s", resp.Status, out)
	}
	return out, nil
}

func printKeyJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("format output: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
