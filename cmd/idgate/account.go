package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/internal/password"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
)

func init() {
	register(command{
		Name:    "account create",
		Summary: "create an account: --email E --name N (--password P | --password-stdin), in IDGATE_DATABASE_URL",
		Run:     runAccountCreate,
	})
}

func runAccountCreate(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("account create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	email := fs.String("email", "", "the account's e-mail (sign-in name)")
	name := fs.String("name", "", `the display name its links' pages show people ("Acme Wines asks you to verify your identity")`)
	pw := fs.String("password", "", "the password (visible to other local users in the process list; prefer --password-stdin)")
	fromStdin := fs.Bool("password-stdin", false, "read the password from the first line of standard input")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *email == "" || strings.TrimSpace(*name) == "" || (*pw == "") == !*fromStdin {
		fs.Usage()
		return errors.New("give --email, --name and exactly one of --password or --password-stdin")
	}
	if *fromStdin {
		line, err := bufio.NewReader(io.LimitReader(stdin, password.MaxLength+2)).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("read password: %w", err)
		}
		*pw = strings.TrimRight(line, "\r\n")
	}
	a, err := verifier.NewAccount(*email, *pw, time.Now())
	if err != nil {
		return err
	}
	if err := a.Branding.Apply(verifier.BrandingPatch{DisplayName: name}); err != nil {
		return err
	}
	cfg, err := config.Load(os.Getenv)
	if err != nil {
		return err
	}
	store, err := sqlstore.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := store.CreateAccount(ctx, a); err != nil {
		if errors.Is(err, verifier.ErrConflict) {
			return fmt.Errorf("an account with e-mail %s already exists", a.Email)
		}
		return err
	}
	fmt.Fprintf(stdout, "created account %s (%s, shown as %q)\n", a.ID, a.Email, a.Branding.DisplayName)
	return nil
}
