package proxy

import (
	"encoding/binary"
	"fmt"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/seal"
)

// Shopper is whom a verification is for: always a cart, and the customer
// when the storefront proved a login (CustomerID 0 for guests).
type Shopper struct {
	CartID     string
	CustomerID int64
}

// refContext binds a reference to its store: a reference minted for one
// store does not open in another's webhook.
func refContext(storeHash string) string { return "external_id/" + storeHash }

// SealRef is the verification's external_id: the shopper, encrypted and
// authenticated under the server key. The verifier echoes it in the
// webhook, so the proxy keeps no record of started verifications, and the
// external_id carries no readable identifier (docs/decisions.md forbids personal
// data there). 16-byte cart UUID + 8-byte customer ID: 73 characters.
func SealRef(s *seal.Sealer, storeHash string, sh Shopper) (string, error) {
	id, err := uuid.Parse(sh.CartID)
	if err != nil {
		return "", fmt.Errorf("seal reference: cart ID: %w", err)
	}
	plain := make([]byte, 24)
	copy(plain, id[:])
	binary.BigEndian.PutUint64(plain[16:], uint64(sh.CustomerID))
	return s.Seal(plain, refContext(storeHash)), nil
}

// OpenRef reverses SealRef for the store whose webhook received it.
func OpenRef(s *seal.Sealer, storeHash, ref string) (Shopper, error) {
	plain, err := s.Open(ref, refContext(storeHash))
	if err != nil {
		return Shopper{}, fmt.Errorf("open reference: %w", err)
	}
	if len(plain) != 24 {
		return Shopper{}, fmt.Errorf("open reference: %w: %d bytes", seal.ErrOpen, len(plain))
	}
	id, _ := uuid.FromBytes(plain[:16]) // 16 bytes always parse
	cust := int64(binary.BigEndian.Uint64(plain[16:]))
	if cust < 0 {
		return Shopper{}, fmt.Errorf("open reference: %w: negative customer", seal.ErrOpen)
	}
	return Shopper{CartID: id.String(), CustomerID: cust}, nil
}
