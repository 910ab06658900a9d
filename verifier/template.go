package verifier

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/problem"
)

// Rules are a template's Request Rules. They are stored and returned for
// the dashboard to apply; the API does not enforce them (spec, rule 2).
type Rules struct {
	RequireExternalID    bool `json:"require_external_id"`
	RequireMessageChange bool `json:"require_message_change"`
}

// TemplateSettings are Template.Settings: the default options (every
// create field except template_id and external_id, which is never
// inherited) and the Request Rules.
type TemplateSettings struct {
	Options
	Rules Rules `json:"rules"`
}

// ParseTemplateSettings decodes Template.Settings.
func ParseTemplateSettings(raw json.RawMessage) (TemplateSettings, error) {
	var ts TemplateSettings
	if len(raw) == 0 {
		return ts, nil
	}
	if err := json.Unmarshal(raw, &ts); err != nil {
		return TemplateSettings{}, fmt.Errorf("parse template settings: %w", err)
	}
	return ts, nil
}

// TemplateRequest is the body of POST /templates and PUT /templates/{id}.
type TemplateRequest struct {
	Name string `json:"name"`
	TemplateSettings
}

// MaxTemplates bounds an account's templates.
const MaxTemplates = 200

// check validates a template the way a create request is validated, except
// that the encryption mode may be left to each request.
func (s *Verifications) checkTemplate(ctx context.Context, accountID string, r TemplateRequest) (json.RawMessage, error) {
	var fe fieldErrors
	if n := utf8.RuneCountInString(r.Name); n < 1 || n > MaxTemplateNameLen || !utf8.ValidString(r.Name) {
		fe.add("name", "out_of_range", "1 to %d characters", MaxTemplateNameLen)
	} else if !controlFree(r.Name, false) {
		fe.add("name", "control_character", "must not contain control characters")
	}
	if _, err := s.resolve(ctx, &fe, accountID, r.Options, false); err != nil {
		return nil, err
	}
	if err := fe.err(); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(r.TemplateSettings)
	if err != nil {
		return nil, err
	}
	return raw, nil
}

// CreateTemplate validates and stores a template.
func (s *Verifications) CreateTemplate(ctx context.Context, accountID string, r TemplateRequest) (Template, error) {
	raw, err := s.checkTemplate(ctx, accountID, r)
	if err != nil {
		return Template{}, err
	}
	have, err := s.Store.ListTemplates(ctx, accountID)
	if err != nil {
		return Template{}, fmt.Errorf("create template: %w", err)
	}
	if len(have) >= MaxTemplates {
		return Template{}, &ValidationError{Fields: []problem.Detail{{Field: "body", Code: "too_many",
			Message: fmt.Sprintf("an account holds at most %d templates; delete one first", MaxTemplates)}}}
	}
	now := s.Now().UTC().Truncate(time.Microsecond)
	t := Template{ID: uuid.NewString(), AccountID: accountID, Name: r.Name, Settings: raw, CreatedAt: now, UpdatedAt: now}
	if err := s.Store.CreateTemplate(ctx, t); err != nil {
		return Template{}, fmt.Errorf("create template: %w", err)
	}
	return t, nil
}

// ReplaceTemplate replaces a template's name, options and rules. Existing
// verifications keep the values copied when they were created.
func (s *Verifications) ReplaceTemplate(ctx context.Context, accountID, id string, r TemplateRequest) (Template, error) {
	raw, err := s.checkTemplate(ctx, accountID, r)
	if err != nil {
		return Template{}, err
	}
	t, err := s.Store.UpdateTemplate(ctx, accountID, id, func(t *Template) error {
		t.Name, t.Settings, t.UpdatedAt = r.Name, raw, s.Now().UTC().Truncate(time.Microsecond)
		return nil
	})
	if err != nil {
		return Template{}, fmt.Errorf("replace template: %w", err)
	}
	return t, nil
}
