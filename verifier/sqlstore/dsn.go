package sqlstore

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ErrUnsupportedDSN is returned for an empty DSN or an unknown scheme.
var ErrUnsupportedDSN = errors.New("unsupported database URL")

// dbKind names the kind of store a DSN selects.
type dbKind string

const (
	kindPostgres dbKind = "postgres"
	kindSQLite   dbKind = "sqlite"
)

var otherScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// parseDSN tells which database dsn selects and the location to hand it: the URL
// for PostgreSQL, the file path for SQLite.
func parseDSN(dsn string) (dbKind, string, error) {
	switch {
	case dsn == "":
		return "", "", fmt.Errorf("%w: empty", ErrUnsupportedDSN)
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return kindPostgres, dsn, nil
	case strings.HasPrefix(dsn, "sqlite:"):
		path := strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "//")
		if path == "" {
			return "", "", fmt.Errorf("%w: sqlite: without a path", ErrUnsupportedDSN)
		}
		return kindSQLite, path, nil
	case otherScheme.MatchString(dsn):
		scheme, _, _ := strings.Cut(dsn, "://")
		return "", "", fmt.Errorf("%w: scheme %q (want postgres://, postgresql://, sqlite: or a file path)", ErrUnsupportedDSN, scheme)
	}
	return kindSQLite, dsn, nil
}
