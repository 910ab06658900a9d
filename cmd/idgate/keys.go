package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

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
func runKeysPassphraseCreate(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("keys passphrase create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("name", "", "label of the key (required)")
	passFile := fs.String("passphrase-file", "", "file holding the passphrase; prompted for (twice) when absent")
	memory := fs.Uint("memory-kib", e2ee.DefaultMemoryKiB, "Argon2id memory in KiB")
	iterations := fs.Uint("iterations", e2ee.DefaultIterations, "Argon2id passes")
	parallelism := fs.Uint("parallelism", e2ee.DefaultParallelism, "Argon2id lanes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *name == "" || fs.NArg() != 0 {
		fs.Usage()
		return errors.New("--name is required and no arguments are taken")
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
	return printKeyJSON(stdout, key)
}

func printKeyJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("format output: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
