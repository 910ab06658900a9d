package flow

import (
	"context"
	"fmt"

	"github.com/idgate/idgate/verifier"
)

// reviewContext binds a server-sealed review image to its verification
// and kind.
func reviewContext(verificationID string, kind ReviewImage) string {
	return "flow-review:" + verificationID + ":" + string(kind)
}

// keepForReview stores an image manual review needs (the license front,
// the selfie), sealed: for the account holder's own key under custom and
// passphrase encryption, so only they can open it; under the server key
// otherwise. The plaintext is never written anywhere.
func (f *Flow) keepForReview(ctx context.Context, v verifier.Verification, kind ReviewImage, img []byte) error {
	sealed, ok, err := verifier.SealForAccount(ctx, f.Verifications, v, string(kind), img)
	if err != nil {
		return fmt.Errorf("keep %s for review: %w", kind, err)
	}
	if !ok {
		if sealed, err = f.Sealer.Seal(img, reviewContext(v.ID, kind)); err != nil {
			return fmt.Errorf("keep %s for review: %w", kind, err)
		}
	}
	if err := f.Store.PutReviewImage(ctx, v.AccountID, v.ID, kind, sealed, f.now()); err != nil {
		return fmt.Errorf("keep %s for review: %w", kind, err)
	}
	return nil
}

// OpenReviewImage opens a review image sealed under the server key (the
// none and shared modes); images sealed for the account's key are opened
// by the account holder with e2ee instead.
func (f *Flow) OpenReviewImage(verificationID string, kind ReviewImage, sealed []byte) ([]byte, error) {
	img, err := f.Sealer.Open(sealed, reviewContext(verificationID, kind))
	if err != nil {
		return nil, fmt.Errorf("open %s review image: %w", kind, err)
	}
	return img, nil
}
