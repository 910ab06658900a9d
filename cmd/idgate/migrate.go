package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/verifier/sqlstore"
)

func init() {
	register(command{
		Name:    "migrate",
		Summary: "apply pending database migrations to IDGATE_DATABASE_URL (serve also does on start)",
		Run:     runMigrate,
	})
}

func runMigrate(ctx context.Context, args []string, _ io.Reader, stdout, _ io.Writer) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected arguments %q", args)
	}
	cfg, err := config.Load(os.Getenv)
	if err != nil {
		return err
	}
	store, err := sqlstore.Open(ctx, cfg.DatabaseURL) // migrates
	if err != nil {
		return err
	}
	defer store.Close()
	v, err := store.SchemaVersion(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	fmt.Fprintf(stdout, "database at schema version %d\n", v)
	return nil
}
