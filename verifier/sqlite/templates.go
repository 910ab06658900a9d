package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/storage/jsoncol"
)

const templateCols = `id, account_id, name, settings, created_at, updated_at`

func (s *Store) CreateTemplate(ctx context.Context, t verifier.Template) error {
	if err := jsoncol.Valid("settings", t.Settings); err != nil {
		return fmt.Errorf("create template: %w", err)
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO templates (`+templateCols+`) VALUES ($1, $2, $3, $4, $5, $6)`,
		t.ID, t.AccountID, t.Name, jsoncol.Raw(t.Settings), toDB(t.CreatedAt), toDB(t.UpdatedAt))
	if err != nil {
		return fmt.Errorf("create template: %w", mapErr(err))
	}
	return nil
}

func (s *Store) GetTemplate(ctx context.Context, accountID, id string) (verifier.Template, error) {
	t, err := scanTemplate(s.r.QueryRowContext(ctx, `SELECT `+templateCols+` FROM templates WHERE id = $1 AND account_id = $2`, id, accountID))
	if err != nil {
		return verifier.Template{}, fmt.Errorf("get template %s: %w", id, err)
	}
	return t, nil
}

func (s *Store) ListTemplates(ctx context.Context, accountID string) ([]verifier.Template, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+templateCols+` FROM templates WHERE account_id = $1 ORDER BY created_at, id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("list templates: %w", err)
	}
	defer rows.Close()
	var ts []verifier.Template
	for rows.Next() {
		t, err := scanTemplate(rows)
		if err != nil {
			return nil, fmt.Errorf("list templates: %w", err)
		}
		ts = append(ts, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list templates: %w", err)
	}
	return ts, nil
}

func (s *Store) UpdateTemplate(ctx context.Context, accountID, id string, fn func(*verifier.Template) error) (verifier.Template, error) {
	var out verifier.Template
	var fnErr error
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := scanTemplate(tx.QueryRowContext(ctx, `SELECT `+templateCols+` FROM templates WHERE id = $1 AND account_id = $2`, id, accountID))
		if err != nil {
			return err
		}
		created := t.CreatedAt
		if fnErr = fn(&t); fnErr != nil {
			return fnErr
		}
		t.ID, t.AccountID, t.CreatedAt = id, accountID, created
		if err := jsoncol.Valid("settings", t.Settings); err != nil {
			return err
		}
		out, err = scanTemplate(tx.QueryRowContext(ctx, `UPDATE templates SET name = $3, settings = $4, updated_at = $5
			WHERE id = $1 AND account_id = $2 RETURNING `+templateCols,
			id, accountID, t.Name, jsoncol.Raw(t.Settings), toDB(t.UpdatedAt)))
		return mapErr(err)
	})
	if fnErr != nil {
		return verifier.Template{}, fnErr
	}
	if err != nil {
		return verifier.Template{}, fmt.Errorf("update template %s: %w", id, err)
	}
	return out, nil
}

func (s *Store) DeleteTemplate(ctx context.Context, accountID, id string) error {
	res, err := s.w.ExecContext(ctx, `DELETE FROM templates WHERE id = $1 AND account_id = $2`, id, accountID)
	if err != nil {
		return fmt.Errorf("delete template %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("delete template %s: %w", id, err)
	} else if n == 0 {
		return fmt.Errorf("delete template %s: %w", id, verifier.ErrNotFound)
	}
	return nil
}

func scanTemplate(row scanner) (verifier.Template, error) {
	var t verifier.Template
	var settings sql.NullString
	var created, updated int64
	if err := row.Scan(&t.ID, &t.AccountID, &t.Name, &settings, &created, &updated); err != nil {
		return verifier.Template{}, notFound(err)
	}
	t.Settings = rawOrNil(settings)
	t.CreatedAt, t.UpdatedAt = fromDB(created), fromDB(updated)
	return t, nil
}
