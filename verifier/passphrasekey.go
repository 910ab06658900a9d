package verifier

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier/e2ee"
)

// PassphraseKey is an account's stored passphrase key: only the public part
// (e2ee.PassphraseKey: name, P-256 point, Argon2id salt and costs). The
// passphrase and the private key never reach the server.
type PassphraseKey struct {
	AccountID string
	Key       e2ee.PassphraseKey // Key.ID is the record's UUID
	CreatedAt time.Time
}

// MaxPassphraseKeys bounds an account's keys (a dashboard lists them all).
const MaxPassphraseKeys = 50

// PassphraseKeys manages the keys an account uploads.
type PassphraseKeys struct {
	Store Store
	Now   func() time.Time
}

// Create checks the uploaded public part (a P-256 point, Argon2id
// parameters within range and at least the new-key floor) and stores it.
func (s PassphraseKeys) Create(ctx context.Context, accountID string, k e2ee.PassphraseKey) (PassphraseKey, error) {
	var fe fieldErrors
	if err := e2ee.ValidateName(k.Name); err != nil {
		fe.add("name", "invalid_value", "1 to %d printable characters", e2ee.MaxNameLen)
	}
	checkNewKDF(&fe, k.KDF)
	if err := (e2ee.PassphraseKey{Name: "x", PublicKey: k.PublicKey, KDF: validKDF}).Validate(); err != nil {
		fe.add("public_key", "invalid_key", "must be an uncompressed P-256 point (65 bytes, base64)")
	}
	if err := fe.err(); err != nil {
		return PassphraseKey{}, err
	}
	have, err := s.Store.ListPassphraseKeys(ctx, accountID)
	if err != nil {
		return PassphraseKey{}, fmt.Errorf("create passphrase key: %w", err)
	}
	if len(have) >= MaxPassphraseKeys {
		return PassphraseKey{}, &ValidationError{Fields: []problem.Detail{{Field: "body", Code: "too_many",
			Message: fmt.Sprintf("an account holds at most %d passphrase keys; delete one first", MaxPassphraseKeys)}}}
	}
	k.ID = uuid.NewString()
	rec := PassphraseKey{AccountID: accountID, Key: k, CreatedAt: s.Now().UTC().Truncate(time.Microsecond)}
	if err := s.Store.CreatePassphraseKey(ctx, rec); err != nil {
		return PassphraseKey{}, fmt.Errorf("create passphrase key: %w", err)
	}
	return rec, nil
}

// checkNewKDF names each KDF member outside the bounds a new key must
// meet, in the OpenAPI document's words: those of e2ee's Validate (what any
// client can be asked to derive) narrowed by CheckStrength (the floor for a
// new key), so a member within them passes both.
func checkNewKDF(fe *fieldErrors, p e2ee.KDFParams) {
	if p.Alg != e2ee.AlgPassphrase {
		fe.add("kdf.alg", "invalid_value", "must be %s", e2ee.AlgPassphrase)
	}
	if len(p.Salt) != e2ee.SaltSize {
		fe.add("kdf.salt", "invalid_value", "must be %d bytes", e2ee.SaltSize)
	}
	for _, m := range []struct {
		field     string
		v, lo, hi uint64
	}{
		{"kdf.memory_kib", uint64(p.MemoryKiB), e2ee.MinNewMemoryKiB, e2ee.MaxMemoryKiB},
		{"kdf.iterations", uint64(p.Iterations), e2ee.MinNewIterations, e2ee.MaxIterations},
		{"kdf.parallelism", uint64(p.Parallelism), 1, e2ee.MaxParallelism},
	} {
		if m.v < m.lo || m.v > m.hi {
			fe.add(m.field, "out_of_range", "must be %d to %d", m.lo, m.hi)
		}
	}
}

// validKDF stands in for the KDF when only the point is being checked, so
// one bad input gives one detail.
var validKDF = e2ee.KDFParams{Alg: e2ee.AlgPassphrase, Salt: make([]byte, e2ee.SaltSize),
	MemoryKiB: e2ee.DefaultMemoryKiB, Iterations: e2ee.DefaultIterations, Parallelism: e2ee.DefaultParallelism}

// lookupPassphraseKey resolves a create request's key ID; a malformed or
// unknown ID, or another account's, is the same validation detail.
func lookupPassphraseKey(ctx context.Context, st Store, accountID, id string) (*e2ee.PassphraseKey, bool, error) {
	if _, err := uuid.Parse(id); err != nil {
		return nil, false, nil
	}
	k, err := st.GetPassphraseKey(ctx, accountID, id)
	if errors.Is(err, ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return &k.Key, true, nil
}
