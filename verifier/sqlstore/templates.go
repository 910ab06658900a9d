package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/idgate/idgate/verifier"
)

const templateCols = `id, account_id, name, settings, created_at, updated_at`

var (
	insertTemplateSQL = q(`INSERT INTO templates (` + templateCols + `) VALUES ($1, $2, $3, $4, $5, $6)`)
	getTemplateSQL    = q(`SELECT ` + templateCols + ` FROM templates WHERE id = $1 AND account_id = $2`)
	listTemplatesSQL  = q(`SELECT ` + templateCols + ` FROM templates WHERE account_id = $1 ORDER BY created_at, id`)
	lockTemplateSQL   = q(`SELECT ` + templateCols + ` FROM templates WHERE id = $1 AND account_id = $2 FOR UPDATE`)
	updateTemplateSQL = q(`UPDATE templates SET name = $3, settings = $4, updated_at = $5
		WHERE id = $1 AND account_id = $2 RETURNING ` + templateCols)
	deleteTemplateSQL = q(`DELETE FROM templates WHERE id = $1 AND account_id = $2`)
)

func (db *DB) CreateTemplate(ctx context.Context, t verifier.Template) error {
	if err := validJSON("settings", t.Settings); err != nil {
		return fmt.Errorf("create template: %w", err)
	}
	_, err := db.w.ExecContext(ctx, db.sql(insertTemplateSQL), t.ID, t.AccountID, t.Name, rawJSON(t.Settings),
		ts(t.CreatedAt), ts(t.UpdatedAt))
	if err != nil {
		return fmt.Errorf("create template: %w", mapErr(err))
	}
	return nil
}

func (db *DB) GetTemplate(ctx context.Context, accountID, id string) (verifier.Template, error) {
	t, err := scanTemplate(db.r.QueryRowContext(ctx, db.sql(getTemplateSQL), id, accountID))
	if err != nil {
		return verifier.Template{}, fmt.Errorf("get template %s: %w", id, err)
	}
	return t, nil
}

func (db *DB) ListTemplates(ctx context.Context, accountID string) ([]verifier.Template, error) {
	rows, err := db.r.QueryContext(ctx, db.sql(listTemplatesSQL), accountID)
	if err != nil {
		return nil, fmt.Errorf("list templates: %w", mapErr(err))
	}
	list, err := collect(rows, scanTemplate)
	if err != nil {
		return nil, fmt.Errorf("list templates: %w", err)
	}
	return list, nil
}

func (db *DB) UpdateTemplate(ctx context.Context, accountID, id string, fn func(*verifier.Template) error) (verifier.Template, error) {
	var out verifier.Template
	var fnErr error
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		t, err := scanTemplate(tx.QueryRowContext(ctx, db.sql(lockTemplateSQL), id, accountID))
		if err != nil {
			return err
		}
		created := t.CreatedAt
		if fnErr = fn(&t); fnErr != nil {
			return fnErr
		}
		t.ID, t.AccountID, t.CreatedAt = id, accountID, created
		if err := validJSON("settings", t.Settings); err != nil {
			return err
		}
		out, err = scanTemplate(tx.QueryRowContext(ctx, db.sql(updateTemplateSQL),
			id, accountID, t.Name, rawJSON(t.Settings), ts(t.UpdatedAt)))
		return err
	})
	if fnErr != nil {
		return verifier.Template{}, fnErr
	}
	if err != nil {
		return verifier.Template{}, fmt.Errorf("update template %s: %w", id, err)
	}
	return out, nil
}

func (db *DB) DeleteTemplate(ctx context.Context, accountID, id string) error {
	n, err := rowsAffected(db.w.ExecContext(ctx, db.sql(deleteTemplateSQL), id, accountID))
	if err != nil {
		return fmt.Errorf("delete template %s: %w", id, mapErr(err))
	}
	if n == 0 {
		return fmt.Errorf("delete template %s: %w", id, verifier.ErrNotFound)
	}
	return nil
}

func scanTemplate(row scanner) (verifier.Template, error) {
	var t verifier.Template
	if err := row.Scan(&t.ID, &t.AccountID, &t.Name, (*[]byte)(&t.Settings), scanTime{&t.CreatedAt}, scanTime{&t.UpdatedAt}); err != nil {
		return verifier.Template{}, mapErr(err)
	}
	return t, nil
}

// scanner is a row: *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// collect scans every row with scan and closes rows.
func collect[T any](rows *sql.Rows, scan func(scanner) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, mapErr(err)
	}
	return out, nil
}
