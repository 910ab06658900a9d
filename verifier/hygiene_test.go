package verifier_test

// Storage hygiene (docs/encryption.md): under passphrase and custom encryption no
// plaintext personal data reaches the database (any table, any column,
// including the webhook outbox and its attempt log), the SQLite files, the
// log output or the webhook bodies. Under mode none the same scan must find
// every value, which proves the scan looks in the right places.

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"fmt"
	"github.com/idgate/idgate/internal/testkit"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // database/sql driver "sqlite", for reading the store's file directly

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// storedValue is one value read back from storage: a column of a row (or
// a whole file), as the bytes stored and as its text rendering.
type storedValue struct {
	where string // table.column or file name
	data  []byte
	text  string
}

// needle is one personal value and every form it could be stored in.
type needle struct {
	name  string
	forms [][]byte
}

func (n needle) in(b []byte) bool {
	for _, f := range n.forms {
		if bytes.Contains(b, f) {
			return true
		}
	}
	return false
}

func personalNeedles(photo []byte) []needle {
	var out []needle
	for _, s := range []string{holderFirst, holderLast, holderNumber, holderDOB, holderStreet, holderCity,
		holderPhone, holderCaller, holderCarrier} {
		out = append(out, needle{name: s, forms: [][]byte{[]byte(s)}})
	}
	// Long values are split over database pages, so the raw file scan
	// looks for fragments of the photo too.
	b64 := base64.StdEncoding.EncodeToString(photo)
	return append(out, needle{name: "license photo", forms: [][]byte{photo, []byte(b64),
		photo[100:148], photo[len(photo)/2 : len(photo)/2+48], []byte(b64[100:148]), []byte(b64[len(b64)/2 : len(b64)/2+48])}})
}

// webhookRetryDelay is the documented wait before the second attempt.
const webhookRetryDelay = 5 * time.Second

func TestStorageHygiene(t *testing.T) {
	_, pubPEM, passKey := encryptionKeys(t)
	photo := headshot(t)
	needles := personalNeedles(photo)
	for _, mode := range []string{"passphrase", "custom", "none"} {
		t.Run(mode, func(t *testing.T) {
			onBackends(t, func(t *testing.T, b backend) {
				ctx := context.Background()
				logs := &testkit.LogBuffer{}
				// The first delivery fails, so the worker logs about it.
				f := newFlow(t, b.store, slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
					webhooktest.FailFirst(1, 500))
				opts := verifier.Options{
					RequestedFields:   ptr([]string{"first_names", "last_name", "dob", "document_number", "address_line1", "address_city"}),
					PhoneVerification: ptr(true), IncludeLicensePhoto: ptr(true), EncryptionKeyMode: ptr(mode),
				}
				switch mode {
				case "custom":
					opts.EncryptionKey, opts.EncryptionKeyName = &pubPEM, ptr("hygiene key")
				case "passphrase":
					k, err := verifier.PassphraseKeys{Store: b.store, Now: f.clock.Now}.Create(ctx, f.account, passKey)
					if err != nil {
						t.Fatal(err)
					}
					opts.EncryptionKey = &k.Key.ID
				}
				v := f.start(opts, "hygiene-"+mode)

				// The whole path: manual review (webhook, failing once, then
				// retried), the decision (webhook again), every attempt logged.
				o := goodOutcome(t)
				o.LicensePhoto = photo
				o.FaceMatch = match.Result{Tier: match.PossibleMatch, Confidence: 0.6, Cosine: 0.45}
				o.ReviewRequested = true
				if _, err := verifier.Complete(ctx, b.store, f.clock.Now(), f.account, v.ID, o); err != nil {
					t.Fatal(err)
				}
				f.deliver(1)
				f.clock.Advance(webhookRetryDelay)
				f.deliver(2)
				f.clock.Advance(time.Hour)
				if _, err := f.svc.DecideReview(ctx, f.account, v.ID, true, ""); err != nil {
					t.Fatal(err)
				}
				reqs := f.deliver(3)
				if !bytes.Contains(logs.Bytes(), []byte(v.ID)) {
					t.Fatalf("the failed attempt was not logged: the log scan would prove nothing\n%s", logs.Bytes())
				}

				values := b.dump(t)
				checkDumpCoversTheFlow(t, values, v.ID)
				sources := map[string][]storedValue{"database": values, "log": {{where: "log output", data: logs.Bytes()}}}
				for i, r := range reqs {
					sources["webhook"] = append(sources["webhook"], storedValue{where: fmt.Sprintf("webhook body %d", i+1), data: r.Body})
				}
				for _, n := range needles {
					hits := map[string][]string{}
					for source, vals := range sources {
						for _, val := range vals {
							if n.in(val.data) || n.in([]byte(val.text)) {
								hits[source] = append(hits[source], val.where)
							}
						}
					}
					if mode == "none" {
						// Plaintext mode stores and delivers the data: the scan
						// must see it, or it proves nothing for the other modes.
						if len(hits["database"]) == 0 || len(hits["webhook"]) == 0 {
							t.Errorf("mode none: %s not found by the scan (hits %v)", n.name, hits)
						}
						continue
					}
					for source, where := range hits {
						t.Errorf("%s: %s found in the %s: %s", mode, n.name, source, strings.Join(where, ", "))
					}
				}
			})
		})
	}
}

// checkDumpCoversTheFlow makes sure the dump read the tables that matter:
// the verification's row, its webhook deliveries and their attempt log.
func checkDumpCoversTheFlow(t *testing.T, values []storedValue, id string) {
	t.Helper()
	withID, withRows := map[string]bool{}, map[string]bool{}
	for _, v := range values {
		table, _, _ := strings.Cut(v.where, ".")
		withRows[table] = true
		if bytes.Contains(v.data, []byte(id)) || strings.Contains(v.text, id) {
			withID[table] = true
		}
	}
	for _, table := range []string{"verifications", "webhook_deliveries"} {
		if !withID[table] {
			t.Errorf("the dump holds no %s row of verification %s: the scan does not cover it", table, id)
		}
	}
	if !withRows["webhook_attempts"] {
		t.Error("the dump holds no webhook_attempts row: the scan does not cover the delivery log")
	}
}

// dumpSQLite reads every column of every row of every table through a
// second connection, and every file of the database (main file, WAL and
// shared memory) as raw bytes: free pages and the log could hold what no
// row shows.
func dumpSQLite(t *testing.T, dir string) []storedValue {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "idgate.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tables := queryStrings(t, db, `SELECT name FROM sqlite_master WHERE type = 'table'`)
	var out []storedValue
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + strings.ReplaceAll(table, `"`, `""`) + `"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, val := range vals {
				sv := storedValue{where: table + "." + cols[i]}
				switch x := val.(type) {
				case []byte:
					sv.data, sv.text = x, string(x)
				case string:
					sv.data, sv.text = []byte(x), x
				case nil:
				default:
					sv.text = fmt.Sprint(x)
				}
				out = append(out, sv)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range files {
		raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, storedValue{where: "file " + e.Name(), data: raw})
	}
	return out
}

func queryStrings(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// dumpPostgres reads every column of every row of every table in the
// test's schema twice: the bytes as the server sends them (binary format
// where pgx asks for it: bytea raw, jsonb with its version byte) and each
// column cast to text.
func dumpPostgres(t *testing.T, url string) []storedValue {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tables := pgStrings(t, conn, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
	if len(tables) == 0 {
		t.Fatal("no tables in the test schema")
	}
	var out []storedValue
	for _, table := range tables {
		cols := pgStrings(t, conn, `SELECT column_name FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`, table)
		name := pgx.Identifier{table}.Sanitize()
		rows, err := conn.Query(ctx, `SELECT * FROM `+name)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			for i, raw := range rows.RawValues() {
				out = append(out, storedValue{where: table + "." + string(rows.FieldDescriptions()[i].Name), data: bytes.Clone(raw)})
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		casts := make([]string, len(cols))
		for i, c := range cols {
			casts[i] = pgx.Identifier{c}.Sanitize() + "::text"
		}
		rows, err = conn.Query(ctx, `SELECT `+strings.Join(casts, ", ")+` FROM `+name)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			texts := make([]*string, len(cols))
			ptrs := make([]any, len(cols))
			for i := range texts {
				ptrs[i] = &texts[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, s := range texts {
				if s != nil {
					out = append(out, storedValue{where: table + "." + cols[i], text: *s})
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func pgStrings(t *testing.T, conn *pgx.Conn, q string, args ...any) []string {
	t.Helper()
	rows, err := conn.Query(context.Background(), q, args...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return out
}
