package e2ee

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Payload members that carry the scheme.
const (
	memberEncryption    = "encryption"
	memberEncryptionKey = "encryption_key"
)

// Header is what ReadHeader finds in a payload: the `encryption` object and
// the `encryption_key` object decoded for its mode (exactly one is set).
type Header struct {
	Encryption Encryption
	Custom     *CustomKeyInfo
	Passphrase *PassphraseKeyInfo
}

// ReadHeader decodes and checks `encryption` and `encryption_key` of a
// result payload (the webhook body or GET's `result`). A payload without
// `encryption` gives ErrNotEncrypted.
func ReadHeader(payload []byte) (Header, error) {
	obj, err := parseObject(payload)
	if err != nil {
		return Header{}, fmt.Errorf("read encryption header: %w", err)
	}
	rawEnc, ok := obj[memberEncryption]
	if !ok {
		return Header{}, fmt.Errorf("read encryption header: %w", ErrNotEncrypted)
	}
	// The version decides the shape, so it is checked before the rest.
	var v struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(rawEnc, &v); err != nil {
		return Header{}, fmt.Errorf("read encryption header: encryption: %w: %v", ErrMalformed, err)
	}
	if v.Version != Version {
		return Header{}, fmt.Errorf("read encryption header: version %d: %w", v.Version, ErrUnsupportedVersion)
	}
	var h Header
	if err := strictDecode(rawEnc, &h.Encryption); err != nil {
		return Header{}, fmt.Errorf("read encryption header: encryption: %w", err)
	}
	rawKey, ok := obj[memberEncryptionKey]
	if !ok {
		return Header{}, fmt.Errorf("read encryption header: encryption_key missing: %w", ErrMalformed)
	}
	switch h.Encryption.Mode {
	case ModeCustom:
		h.Custom = new(CustomKeyInfo)
		err = strictDecode(rawKey, h.Custom)
	case ModePassphrase:
		h.Passphrase = new(PassphraseKeyInfo)
		err = strictDecode(rawKey, h.Passphrase)
	default:
		return Header{}, fmt.Errorf("read encryption header: mode %q: %w", h.Encryption.Mode, ErrUnsupportedAlgorithm)
	}
	if err != nil {
		return Header{}, fmt.Errorf("read encryption header: encryption_key: %w", err)
	}
	return h, nil
}

// SealPayload replaces every protected member present in a plaintext result
// payload by its SealedMember and adds `encryption` and `encryption_key`.
func (s *Session) SealPayload(payload []byte) ([]byte, error) {
	obj, err := rewriteMembers(payload, func(member string, v json.RawMessage) (json.RawMessage, error) {
		env, err := s.SealMember(member, v)
		if err != nil {
			return nil, err
		}
		return json.Marshal(env)
	})
	if err != nil {
		return nil, fmt.Errorf("seal payload: %w", err)
	}
	if _, dup := obj[memberEncryption]; dup {
		return nil, fmt.Errorf("seal payload: already has %s: %w", memberEncryption, ErrMalformed)
	}
	if obj[memberEncryption], err = json.Marshal(s.Encryption); err != nil {
		return nil, fmt.Errorf("seal payload: %w", err)
	}
	if obj[memberEncryptionKey], err = json.Marshal(s.EncryptionKey); err != nil {
		return nil, fmt.Errorf("seal payload: %w", err)
	}
	return json.Marshal(obj)
}

// OpenPayload replaces every sealed member by its plaintext JSON value and
// drops `encryption` (it describes ciphertext no longer there); the
// `encryption_key` object stays to show which key the data was sealed for.
func (s *Session) OpenPayload(payload []byte) ([]byte, error) {
	obj, err := rewriteMembers(payload, func(member string, v json.RawMessage) (json.RawMessage, error) {
		env, err := ParseSealedMember(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", member, err)
		}
		pt, err := s.OpenMember(member, env)
		if err != nil {
			return nil, err
		}
		if !json.Valid(pt) {
			return nil, fmt.Errorf("%s: plaintext is not JSON: %w", member, ErrMalformed)
		}
		return pt, nil
	})
	if err != nil {
		return nil, fmt.Errorf("open payload: %w", err)
	}
	delete(obj, memberEncryption)
	return json.Marshal(obj)
}

// ApplySharedPlaceholder puts SharedPlaceholder in place of every protected
// member present: what API and webhook show for legacy ModeShared data.
func ApplySharedPlaceholder(payload []byte) ([]byte, error) {
	placeholder, err := json.Marshal(SharedPlaceholder)
	if err != nil {
		return nil, fmt.Errorf("shared placeholder: %w", err)
	}
	obj, err := rewriteMembers(payload, func(string, json.RawMessage) (json.RawMessage, error) {
		return placeholder, nil
	})
	if err != nil {
		return nil, fmt.Errorf("shared placeholder: %w", err)
	}
	return json.Marshal(obj)
}

// rewriteMembers parses a payload and replaces the value of each protected
// member present (a dotted name is a member of a nested object) by fn's.
func rewriteMembers(payload []byte, fn func(member string, v json.RawMessage) (json.RawMessage, error)) (map[string]json.RawMessage, error) {
	top, err := parseObject(payload)
	if err != nil {
		return nil, err
	}
	for _, member := range Members {
		parent, child, nested := strings.Cut(member, ".")
		if !nested {
			if v, ok := top[member]; ok {
				if top[member], err = fn(member, v); err != nil {
					return nil, err
				}
			}
			continue
		}
		rawParent, ok := top[parent]
		if !ok {
			continue
		}
		inner, err := parseObject(rawParent)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", parent, err)
		}
		v, ok := inner[child]
		if !ok {
			continue
		}
		if inner[child], err = fn(member, v); err != nil {
			return nil, err
		}
		if top[parent], err = json.Marshal(inner); err != nil {
			return nil, err
		}
	}
	return top, nil
}

func parseObject(raw []byte) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("not a JSON object: %w", ErrMalformed)
	}
	return obj, nil
}

// strictDecode decodes a scheme object, refusing unknown members: a field
// this version does not know may change the meaning of the rest.
func strictDecode(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return nil
}
