package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/storage/jsoncol"
)

const templateCols = `id, account_id, name, settings, created_at, updated_at`

func (s *Store) CreateTemplate(ctx context.Context, t verifier.Template) error {
	if err := jsoncol.Valid("settings", t.Settings); err != nil {
		return fmt.Errorf("create template: %w", err)
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO templates (`+templateCols+`) VALUES ($1, $2, $3, $4, $5, $6)`,
		t.ID, t.AccountID, t.Name, jsoncol.Raw(t.Settings), ts(t.CreatedAt), ts(t.UpdatedAt))
	if err != nil {
		return fmt.Errorf("create template: %w", mapErr(err))
	}
	return nil
}

func (s *Store) GetTemplate(ctx context.Context, accountID, id string) (verifier.Template, error) {
	t, err := scanTemplate(s.pool.QueryRow(ctx, `SELECT `+templateCols+` FROM templates WHERE id = $1 AND account_id = $2`, id, accountID))
	if err != nil {
		return verifier.Template{}, fmt.Errorf("get template %s: %w", id, err)
	}
	return t, nil
}

func (s *Store) ListTemplates(ctx context.Context, accountID string) ([]verifier.Template, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+templateCols+` FROM templates WHERE account_id = $1 ORDER BY created_at, id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("list templates: %w", mapErr(err))
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (verifier.Template, error) { return scanTemplate(r) })
	if err != nil {
		return nil, fmt.Errorf("list templates: %w", mapErr(err))
	}
	return list, nil
}

func (s *Store) UpdateTemplate(ctx context.Context, accountID, id string, fn func(*verifier.Template) error) (verifier.Template, error) {
	var out verifier.Template
	var fnErr error
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		t, err := scanTemplate(tx.QueryRow(ctx, `SELECT `+templateCols+` FROM templates WHERE id = $1 AND account_id = $2 FOR UPDATE`, id, accountID))
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
		out, err = scanTemplate(tx.QueryRow(ctx, `UPDATE templates SET name = $3, settings = $4, updated_at = $5
			WHERE id = $1 AND account_id = $2 RETURNING `+templateCols,
			id, accountID, t.Name, jsoncol.Raw(t.Settings), ts(t.UpdatedAt)))
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

func (s *Store) DeleteTemplate(ctx context.Context, accountID, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM templates WHERE id = $1 AND account_id = $2`, id, accountID)
	if err != nil {
		return fmt.Errorf("delete template %s: %w", id, mapErr(err))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("delete template %s: %w", id, verifier.ErrNotFound)
	}
	return nil
}

func scanTemplate(row pgx.Row) (verifier.Template, error) {
	var t verifier.Template
	if err := row.Scan(&t.ID, &t.AccountID, &t.Name, &t.Settings, &t.CreatedAt, &t.UpdatedAt); err != nil {
		return verifier.Template{}, mapErr(err)
	}
	t.CreatedAt, t.UpdatedAt = ts(t.CreatedAt), ts(t.UpdatedAt)
	return t, nil
}
