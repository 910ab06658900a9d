package bigcommerce

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// ErrSignedPayload is wrapped by every refusal of a signed_payload_jwt.
var ErrSignedPayload = errors.New("invalid signed payload")

// maxSignedPayloadLen bounds what we parse: the platform's payloads are well
// under 1 KB.
const maxSignedPayloadLen = 8 << 10

// maxPayloadIDLen bounds the jti we record (the platform's are UUIDs).
const maxPayloadIDLen = 128

// AppUser is a control panel user named by a signed payload: the user who
// loaded, uninstalled or was removed, or the store owner.
type AppUser struct {
	ID     int64  `json:"id"`
	Email  string `json:"email"`
	Locale string `json:"locale,omitempty"`
}

// SignedPayload is what a load, uninstall or remove_user callback vouches
// for, once verified.
type SignedPayload struct {
	StoreHash string
	User      AppUser
	Owner     AppUser
	// URL is the deep link the control panel asked for ("/" from the Apps
	// menu).
	URL string
	// ID (the jti) names this payload; with Expires it lets a caller take
	// a payload once (a load callback's: the URL carrying it can leak).
	ID      string
	Expires time.Time
}

// payloadClaims are the claims of signed_payload_jwt (BigCommerce's
// "Single-Click App Callback Handlers": aud = the app's client ID, iss
// "bc", exp 24 hours after nbf, sub "stores/{hash}", user, owner, url).
type payloadClaims struct {
	jwt.RegisteredClaims
	User  AppUser `json:"user"`
	Owner AppUser `json:"owner"`
	URL   string  `json:"url"`
}

// VerifySignedPayload checks the signed_payload_jwt of a load, uninstall or
// remove_user callback: HS256 signed with the app's client secret (no other
// algorithm), aud equal to the app's client ID, issued by "bc", inside its
// nbf-exp window at now, and for a store ("stores/{hash}" with a valid hash)
// and a user, with a jti. Which store the caller may act on is the caller's check.
func VerifySignedPayload(token, clientID string, clientSecret Secret, now time.Time) (SignedPayload, error) {
	if clientID == "" || clientSecret == "" {
		return SignedPayload{}, fmt.Errorf("verify signed payload: %w: app client ID and secret are required", ErrSignedPayload)
	}
	if token == "" || len(token) > maxSignedPayloadLen {
		return SignedPayload{}, fmt.Errorf("verify signed payload: %w: missing or too long", ErrSignedPayload)
	}
	var claims payloadClaims
	if err := parseAppJWT(token, clientID, string(clientSecret), "bc", now, &claims); err != nil {
		// jwt's messages name the failed check, never the token or secret.
		return SignedPayload{}, fmt.Errorf("verify signed payload: %w: %v", ErrSignedPayload, err)
	}
	hash, err := StoreHashFromContext(claims.Subject)
	if err != nil {
		return SignedPayload{}, fmt.Errorf("verify signed payload: %w: sub: %v", ErrSignedPayload, err)
	}
	if claims.User.ID <= 0 {
		return SignedPayload{}, fmt.Errorf("verify signed payload: %w: no user id", ErrSignedPayload)
	}
	if claims.ID == "" || len(claims.ID) > maxPayloadIDLen {
		// The guides list jti among the claims; without it a load could
		// not be taken once.
		return SignedPayload{}, fmt.Errorf("verify signed payload: %w: no jti", ErrSignedPayload)
	}
	return SignedPayload{StoreHash: hash, User: claims.User, Owner: claims.Owner, URL: claims.URL,
		ID: claims.ID, Expires: claims.ExpiresAt.Time}, nil
}

// StoreHashFromContext reads "stores/{hash}", the form the platform names a
// store in in the auth callback's context and a signed payload's sub.
func StoreHashFromContext(context string) (string, error) {
	hash, ok := strings.CutPrefix(context, "stores/")
	if !ok {
		return "", fmt.Errorf("%q: want stores/{store_hash}", context)
	}
	if err := ValidateStoreHash(hash); err != nil {
		return "", err
	}
	return hash, nil
}

// SignedPayloadClaims builds the claims the platform puts in a
// signed_payload_jwt (the documented example's members). The test double
// signs them; it lives here so the shape is defined once, beside the
// verifier that reads it.
func SignedPayloadClaims(clientID, storeHash string, user, owner AppUser, issuedAt time.Time, jti string) jwt.MapClaims {
	return jwt.MapClaims{
		"aud": clientID, "iss": "bc", "iat": issuedAt.Unix(), "nbf": issuedAt.Unix(),
		"exp": issuedAt.Add(24 * time.Hour).Unix(), "jti": jti, "sub": "stores/" + storeHash,
		"user": user, "owner": map[string]any{"id": owner.ID, "email": owner.Email}, "url": "/", "channel_id": nil,
	}
}
