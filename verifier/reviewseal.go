package verifier

import (
	"context"
	"encoding/json"
	"fmt"
)

// SealForAccount seals data (an image kept for manual review) so that only
// the account holder can open it, when the verification's encryption mode
// is custom or passphrase: the answer is a JSON document with the same
// `encryption` and `encryption_key` members as a sealed result and the data
// as a sealed member named member, opened with e2ee.ReadHeader, an Opener
// and Session.OpenMember, like a result. ok is false in the none and shared
// modes, where the caller seals under the server key instead.
func SealForAccount(ctx context.Context, keys Store, v Verification, member string, data []byte) (doc []byte, ok bool, err error) {
	s, err := ParseSettings(v.Options)
	if err != nil {
		return nil, false, fmt.Errorf("seal for account: %w", err)
	}
	if !s.EncryptionKeyMode.Sealed() {
		return nil, false, nil
	}
	session, err := sealingSession(ctx, keys, v.AccountID, s)
	if err != nil {
		return nil, false, fmt.Errorf("seal for account: %w", err)
	}
	env, err := session.SealMember(member, data)
	if err != nil {
		return nil, false, fmt.Errorf("seal for account: %w", err)
	}
	doc, err = json.Marshal(map[string]any{
		"encryption":     session.Encryption,
		"encryption_key": session.EncryptionKey,
		member:           env,
	})
	if err != nil {
		return nil, false, fmt.Errorf("seal for account: %w", err)
	}
	return doc, true, nil
}
