package storetest

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
)

// testBranding: the requester's identity round-trips, an
// account made without it reads back empty, and a logo is the account's
// own: written and removed only by PutAccountLogo, never read through
// another account.
func testBranding(t *testing.T, s verifier.Store) {
	ctx := context.Background()
	branded := verifier.Branding{DisplayName: "Acme Wines · Ünïcode", AccentColor: "#1947c2",
		SupportContact: "help@acme.example", PrivacyPolicyURL: "https://acme.example/privacy"}

	t.Run("RoundTripAndUpdate", func(t *testing.T) {
		t.Parallel()
		a := newAccount()
		a.Branding = branded
		want := createAndGet(t, s, a, "created with branding")

		got, err := s.UpdateAccount(ctx, a.ID, func(acct *verifier.Account) error {
			acct.Branding.DisplayName, acct.Branding.AccentColor, acct.Branding.SupportContact = "Acme", "", "https://acme.example/help"
			acct.Branding.Logo = verifier.LogoRef{SHA256: "forged", ContentType: "image/png", Width: 1, Height: 1}
			return nil
		})
		if err != nil {
			t.Fatalf("UpdateAccount: %v", err)
		}
		want.Branding.DisplayName, want.Branding.AccentColor, want.Branding.SupportContact = "Acme", "", "https://acme.example/help"
		equalAccount(t, "UpdateAccount's answer (the logo is not fn's to change)", got, want)
		if got, err = s.GetAccount(ctx, a.ID); err != nil {
			t.Fatalf("GetAccount: %v", err)
		}
		equalAccount(t, "after UpdateAccount", got, want)
	})

	t.Run("OlderAccountHasNone", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		if a.Branding != (verifier.Branding{}) {
			t.Errorf("an account made without branding reads %+v", a.Branding)
		}
		if _, err := s.GetAccountLogo(ctx, a.ID); err == nil {
			t.Error("GetAccountLogo of an account without a logo: no error")
		} else {
			wantErr(t, "GetAccountLogo(none)", err, verifier.ErrNotFound)
		}
	})

	t.Run("Logo", func(t *testing.T) {
		t.Parallel()
		a, other := mustAccount(t, s), mustAccount(t, s)
		logo := verifier.Logo{LogoRef: verifier.LogoRef{SHA256: "ab12", ContentType: "image/png", Width: 120, Height: 40},
			Body: []byte("\x89PNG\r\n\x1a\n\x00 not really, but bytes round-trip as they are \xff\x00")}
		at := base.Add(3 * time.Hour)
		if err := s.PutAccountLogo(ctx, a.ID, &logo, at); err != nil {
			t.Fatalf("PutAccountLogo: %v", err)
		}
		got, err := s.GetAccountLogo(ctx, a.ID)
		if err != nil {
			t.Fatalf("GetAccountLogo: %v", err)
		}
		if got.LogoRef != logo.LogoRef || !bytes.Equal(got.Body, logo.Body) {
			t.Errorf("GetAccountLogo = %+v, want %+v", got, logo)
		}
		acct, err := s.GetAccount(ctx, a.ID)
		if err != nil {
			t.Fatalf("GetAccount: %v", err)
		}
		if acct.Branding.Logo != logo.LogoRef || !sameTime(acct.UpdatedAt, wantTime(at)) {
			t.Errorf("account after PutAccountLogo: logo %+v updated %v; want %+v, %v", acct.Branding.Logo, acct.UpdatedAt, logo.LogoRef, wantTime(at))
		}
		// Tenant isolation: the other account has none, and an unknown
		// or malformed account cannot be given one.
		if _, err := s.GetAccountLogo(ctx, other.ID); err == nil {
			t.Error("another account's GetAccountLogo answered a logo")
		} else {
			wantErr(t, "GetAccountLogo(other)", err, verifier.ErrNotFound)
		}
		wantErr(t, "PutAccountLogo(unknown)", s.PutAccountLogo(ctx, newAccount().ID, &logo, at), verifier.ErrNotFound)
		wantErr(t, "PutAccountLogo(malformed)", s.PutAccountLogo(ctx, "not-a-uuid", &logo, at), verifier.ErrNotFound)

		if err := s.PutAccountLogo(ctx, a.ID, nil, at.Add(time.Minute)); err != nil {
			t.Fatalf("PutAccountLogo(nil): %v", err)
		}
		if _, err := s.GetAccountLogo(ctx, a.ID); err == nil {
			t.Error("GetAccountLogo after removal: no error")
		} else {
			wantErr(t, "GetAccountLogo(removed)", err, verifier.ErrNotFound)
		}
		if acct, err = s.GetAccount(ctx, a.ID); err != nil || acct.Branding.Logo != (verifier.LogoRef{}) {
			t.Errorf("account after removal: logo %+v, err %v", acct.Branding.Logo, err)
		}
	})
}
