package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/idgate/idgate/client"
)

// Input bounds: a result with a license photo is well under a few MiB; a
// passphrase file holds one line.
const (
	maxDecryptInput   = 64 << 20
	maxPassphraseFile = 64 << 10
)

func init() {
	register(command{
		Name:    "decrypt",
		Summary: "decrypt a webhook or GET /verification body: [--key PRIVATE.pem | --passphrase-file F] [FILE|-]",
		Run:     runDecrypt,
	})
}

func runDecrypt(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("decrypt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	keyFile := fs.String("key", "", "PEM RSA private key (custom mode)")
	passFile := fs.String("passphrase-file", "", "file holding the passphrase (passphrase mode); one trailing newline is dropped")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: idgate decrypt [--key PRIVATE.pem | --passphrase-file F] [FILE|-]\n"+
			"Without --key or --passphrase-file the passphrase is prompted for on the terminal.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return errors.New("at most one input file")
	}
	if *keyFile != "" && *passFile != "" {
		return errors.New("give --key or --passphrase-file, not both")
	}
	payload, err := readE2EEInput(fs.Arg(0), stdin, maxDecryptInput)
	if err != nil {
		return err
	}
	key, err := decryptKey(*keyFile, *passFile)
	if err != nil {
		return err
	}
	out, err := client.Decrypt(payload, key)
	if err != nil {
		return err
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, out, "", "  "); err != nil {
		return fmt.Errorf("format output: %w", err)
	}
	pretty.WriteByte('\n')
	_, err = stdout.Write(pretty.Bytes())
	return err
}

func decryptKey(keyFile, passFile string) (client.Key, error) {
	if keyFile != "" {
		pemBytes, err := readE2EEInput(keyFile, nil, maxPassphraseFile)
		if err != nil {
			return client.Key{}, err
		}
		return client.PrivateKey(pemBytes)
	}
	pass, err := passphraseInput(passFile, false)
	if err != nil {
		return client.Key{}, err
	}
	return client.Passphrase(pass), nil
}

// readE2EEInput reads a named file, or stdin for "" and "-", refusing more than
// limit bytes rather than truncating.
func readE2EEInput(name string, stdin io.Reader, limit int64) ([]byte, error) {
	r, label := stdin, "stdin"
	if name != "" && name != "-" {
		label = name
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("read input: %w", err)
		}
		defer f.Close()
		r = f
	}
	if r == nil {
		return nil, errors.New("read input: no file named")
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", label, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("read %s: larger than %d bytes", label, limit)
	}
	return b, nil
}

// passphraseInput reads the passphrase from a file (dropping one trailing
// newline) or prompts for it on the terminal, twice when confirm is set.
func passphraseInput(file string, confirm bool) (string, error) {
	if file != "" {
		b, err := readE2EEInput(file, nil, maxPassphraseFile)
		if err != nil {
			return "", err
		}
		if !bytes.HasSuffix(b, []byte("\r\n")) {
			return string(bytes.TrimSuffix(b, []byte("\n"))), nil
		}
		return string(b[:len(b)-2]), nil
	}
	pass, err := promptPassphrase("Passphrase: ")
	if err != nil {
		return "", err
	}
	if confirm {
		again, err := promptPassphrase("Repeat passphrase: ")
		if err != nil {
			return "", err
		}
		if again != pass {
			return "", errors.New("the passphrases differ")
		}
	}
	return pass, nil
}

// promptPassphrase asks on the controlling terminal without echo, since
// stdin may carry the payload. A variable so tests can stand in for a user.
var promptPassphrase = func(prompt string) (string, error) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return "", fmt.Errorf("no terminal to prompt for the passphrase (use --passphrase-file): %w", err)
	}
	defer tty.Close()
	fmt.Fprint(tty, prompt)
	b, err := term.ReadPassword(int(tty.Fd()))
	fmt.Fprintln(tty)
	if err != nil {
		return "", fmt.Errorf("read passphrase: %w", err)
	}
	return string(b), nil
}
