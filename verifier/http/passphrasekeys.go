package http

import (
	"encoding/base64"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/e2ee"
)

// kdfJSON is e2ee.KDFParams with the salt as a string, so bad base64 is a
// validation detail rather than a JSON syntax error, and the costs as
// int64, so a negative or oversized cost reaches the domain's range check
// (in the document's bounds) instead of failing to decode as wrong_type.
type kdfJSON struct {
	Alg         string `json:"alg"`
	Salt        string `json:"salt"`
	MemoryKiB   int64  `json:"memory_kib"`
	Iterations  int64  `json:"iterations"`
	Parallelism int64  `json:"parallelism"`
}

// costOf narrows a cost to its field's type; one outside that type is
// outside the domain's bounds too, and stays outside once clamped.
func costOf[T uint8 | uint32](v int64) T {
	return T(min(max(v, 0), int64(^T(0))))
}

// passphraseKeyRequest is what `idgate keys passphrase create` prints: the
// public part only. Binary members are standard base64.
type passphraseKeyRequest struct {
	Name      string  `json:"name"`
	PublicKey string  `json:"public_key"`
	KDF       kdfJSON `json:"kdf"`
}

type passphraseKeyResponse struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	PublicKey string    `json:"public_key"`
	KDF       kdfJSON   `json:"kdf"`
	CreatedAt time.Time `json:"created_at"`
}

func toPassphraseKeyResponse(k verifier.PassphraseKey) passphraseKeyResponse {
	b64 := base64.StdEncoding.EncodeToString
	return passphraseKeyResponse{ID: k.Key.ID, Name: k.Key.Name, PublicKey: b64(k.Key.PublicKey), CreatedAt: k.CreatedAt,
		KDF: kdfJSON{Alg: k.Key.KDF.Alg, Salt: b64(k.Key.KDF.Salt), MemoryKiB: int64(k.Key.KDF.MemoryKiB),
			Iterations: int64(k.Key.KDF.Iterations), Parallelism: int64(k.Key.KDF.Parallelism)}}
}

// postPassphraseKey is POST /passphrase-keys: store the public part of a key
// derived on the holder's machine; its id is then the encryption_key of
// verifications with encryption_key_mode passphrase.
func (s *Server) postPassphraseKey(c *fiber.Ctx) error {
	var req passphraseKeyRequest
	if err := DecodeJSON(c.Body(), &req); err != nil {
		return err
	}
	var details []problem.Detail
	pub, err := base64.StdEncoding.DecodeString(req.PublicKey)
	if err != nil {
		details = append(details, problem.Detail{Field: "public_key", Code: "invalid_base64", Message: "must be standard base64"})
	}
	salt, err := base64.StdEncoding.DecodeString(req.KDF.Salt)
	if err != nil {
		details = append(details, problem.Detail{Field: "kdf.salt", Code: "invalid_base64", Message: "must be standard base64"})
	}
	if len(details) > 0 {
		return httperr.Validation(details...)
	}
	a, _ := Account(c)
	k, err := s.passphraseKeys.Create(c.UserContext(), a.ID, e2ee.PassphraseKey{Name: req.Name, PublicKey: pub,
		KDF: e2ee.KDFParams{Alg: req.KDF.Alg, Salt: salt, MemoryKiB: costOf[uint32](req.KDF.MemoryKiB),
			Iterations: costOf[uint32](req.KDF.Iterations), Parallelism: costOf[uint8](req.KDF.Parallelism)}})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toPassphraseKeyResponse(k))
}

func (s *Server) listPassphraseKeys(c *fiber.Ctx) error {
	a, _ := Account(c)
	ks, err := s.passphraseKeys.Store.ListPassphraseKeys(c.UserContext(), a.ID)
	if err != nil {
		return err
	}
	out := struct {
		Items []passphraseKeyResponse `json:"items"`
	}{Items: make([]passphraseKeyResponse, len(ks))}
	for i, k := range ks {
		out.Items[i] = toPassphraseKeyResponse(k)
	}
	return c.JSON(out)
}

func (s *Server) getPassphraseKey(c *fiber.Ctx) error {
	a, _ := Account(c)
	k, err := s.passphraseKeys.Store.GetPassphraseKey(c.UserContext(), a.ID, c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(toPassphraseKeyResponse(k))
}

// deletePassphraseKey: verifications already created with the key keep its
// public part (copied at creation) and can still be sealed.
func (s *Server) deletePassphraseKey(c *fiber.Ctx) error {
	a, _ := Account(c)
	if err := s.passphraseKeys.Store.DeletePassphraseKey(c.UserContext(), a.ID, c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
