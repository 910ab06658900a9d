package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
)

func newTemplate(accountID string) verifier.Template {
	return verifier.Template{
		ID:        uuid.NewString(),
		AccountID: accountID,
		Name:      "Age check",
		Settings:  json.RawMessage(`{"webhook_url": "https://hooks.example.com/t",  "rules":{"require_external_id":true}}`),
		CreatedAt: base,
		UpdatedAt: base,
	}
}

func mustTemplate(t *testing.T, s verifier.Store, accountID string) verifier.Template {
	t.Helper()
	tpl := newTemplate(accountID)
	if err := s.CreateTemplate(context.Background(), tpl); err != nil {
		t.Fatalf("CreateTemplate: %v", err)
	}
	tpl.CreatedAt, tpl.UpdatedAt = wantTime(tpl.CreatedAt), wantTime(tpl.UpdatedAt)
	return tpl
}

func equalTemplate(t *testing.T, what string, got, want verifier.Template) {
	t.Helper()
	if got.ID != want.ID || got.AccountID != want.AccountID || got.Name != want.Name ||
		string(got.Settings) != string(want.Settings) || (got.Settings == nil) != (want.Settings == nil) ||
		!sameTime(got.CreatedAt, want.CreatedAt) || !sameTime(got.UpdatedAt, want.UpdatedAt) {
		t.Errorf("%s:\n got %+v (settings %s)\nwant %+v (settings %s)", what, got, got.Settings, want, want.Settings)
	}
}

func testTemplates(t *testing.T, s verifier.Store) {
	ctx := context.Background()

	t.Run("CRUD", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		first := mustTemplate(t, s, a.ID)
		second := newTemplate(a.ID)
		second.Name, second.Settings = "Empty", nil
		second.CreatedAt = base.Add(time.Second)
		if err := s.CreateTemplate(ctx, second); err != nil {
			t.Fatalf("CreateTemplate: %v", err)
		}
		second.CreatedAt, second.UpdatedAt = wantTime(second.CreatedAt), wantTime(second.UpdatedAt)

		got, err := s.GetTemplate(ctx, a.ID, first.ID)
		if err != nil {
			t.Fatalf("GetTemplate: %v", err)
		}
		equalTemplate(t, "GetTemplate", got, first)
		list, err := s.ListTemplates(ctx, a.ID)
		if err != nil || len(list) != 2 {
			t.Fatalf("ListTemplates = %d, %v; want 2", len(list), err)
		}
		equalTemplate(t, "ListTemplates[0]", list[0], first)
		equalTemplate(t, "ListTemplates[1]", list[1], second)

		later := base.Add(time.Hour)
		upd, err := s.UpdateTemplate(ctx, a.ID, first.ID, func(x *verifier.Template) error {
			x.Name, x.Settings, x.UpdatedAt = "Renamed", json.RawMessage(`{"message":"Hi"}`), later
			x.ID, x.AccountID, x.CreatedAt = uuid.NewString(), uuid.NewString(), later // ignored
			return nil
		})
		if err != nil {
			t.Fatalf("UpdateTemplate: %v", err)
		}
		want := first
		want.Name, want.Settings, want.UpdatedAt = "Renamed", json.RawMessage(`{"message":"Hi"}`), wantTime(later)
		equalTemplate(t, "UpdateTemplate result", upd, want)
		_, err = s.UpdateTemplate(ctx, a.ID, first.ID, func(x *verifier.Template) error { x.Name = "no"; return errBoom })
		if err != errBoom {
			t.Fatalf("UpdateTemplate returned %v; want the updater's error as is", err)
		}
		_, err = s.UpdateTemplate(ctx, a.ID, first.ID, func(x *verifier.Template) error { x.Settings = json.RawMessage("{"); return nil })
		wantErr(t, "UpdateTemplate(bad JSON)", err, verifier.ErrInvalid)
		got, err = s.GetTemplate(ctx, a.ID, first.ID)
		if err != nil {
			t.Fatalf("GetTemplate: %v", err)
		}
		equalTemplate(t, "after refused updates", got, want)

		if err := s.DeleteTemplate(ctx, a.ID, first.ID); err != nil {
			t.Fatalf("DeleteTemplate: %v", err)
		}
		_, err = s.GetTemplate(ctx, a.ID, first.ID)
		wantErr(t, "GetTemplate(deleted)", err, verifier.ErrNotFound)
		wantErr(t, "DeleteTemplate(again)", s.DeleteTemplate(ctx, a.ID, first.ID), verifier.ErrNotFound)
		if list, err := s.ListTemplates(ctx, a.ID); err != nil || len(list) != 1 {
			t.Fatalf("ListTemplates after delete = %d, %v; want 1", len(list), err)
		}
	})

	t.Run("Rules", func(t *testing.T) {
		t.Parallel()
		a, b := mustAccount(t, s), mustAccount(t, s)
		tpl := mustTemplate(t, s, a.ID)
		wantErr(t, "CreateTemplate(missing account)", s.CreateTemplate(ctx, newTemplate(uuid.NewString())), verifier.ErrNotFound)
		dup := newTemplate(a.ID)
		dup.ID = tpl.ID
		wantErr(t, "CreateTemplate(duplicate id)", s.CreateTemplate(ctx, dup), verifier.ErrConflict)
		bad := newTemplate(a.ID)
		bad.Settings = json.RawMessage("[1,")
		wantErr(t, "CreateTemplate(bad JSON)", s.CreateTemplate(ctx, bad), verifier.ErrInvalid)

		_, err := s.GetTemplate(ctx, b.ID, tpl.ID)
		wantErr(t, "GetTemplate(other account)", err, verifier.ErrNotFound)
		_, err = s.GetTemplate(ctx, a.ID, "nope")
		wantErr(t, "GetTemplate(malformed id)", err, verifier.ErrNotFound)
		_, err = s.UpdateTemplate(ctx, b.ID, tpl.ID, func(*verifier.Template) error { return nil })
		wantErr(t, "UpdateTemplate(other account)", err, verifier.ErrNotFound)
		wantErr(t, "DeleteTemplate(other account)", s.DeleteTemplate(ctx, b.ID, tpl.ID), verifier.ErrNotFound)
		if list, err := s.ListTemplates(ctx, b.ID); err != nil || len(list) != 0 {
			t.Errorf("ListTemplates(other account) = %d, %v; want none", len(list), err)
		}
	})

	t.Run("DeletingKeepsVerifications", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		tpl := mustTemplate(t, s, a.ID)
		v := newVerification(a.ID)
		v.TemplateID = tpl.ID
		want := mustVerification(t, s, v)
		got, err := s.GetVerification(ctx, a.ID, v.ID)
		if err != nil || got.TemplateID != tpl.ID {
			t.Fatalf("GetVerification = %q, %v; want template %s", got.TemplateID, err, tpl.ID)
		}
		if err := s.DeleteTemplate(ctx, a.ID, tpl.ID); err != nil {
			t.Fatalf("DeleteTemplate: %v", err)
		}
		got, err = s.GetVerification(ctx, a.ID, v.ID)
		if err != nil {
			t.Fatalf("GetVerification after template delete: %v", err)
		}
		want.TemplateID = ""
		equalVerification(t, "verification of a deleted template", got, want)
	})
}
