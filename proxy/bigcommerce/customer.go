package bigcommerce

import (
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// ErrCustomerToken is wrapped by every refusal of a Current Customer JWT.
var ErrCustomerToken = errors.New("invalid current customer token")

// maxCustomerTokenLen bounds what we parse: BigCommerce's tokens are a few
// hundred bytes; anything near this is not one of them.
const maxCustomerTokenLen = 8 << 10

// CurrentCustomer is the logged-in shopper the storefront vouched for.
type CurrentCustomer struct {
	ID      int64
	Email   string
	GroupID string // "" or "0" when the customer is in no group
}

// customerClaims are the claims of /customer/current.jwt
// (current_customer.yml): iss "bc/apps", aud = the app's client ID,
// store_hash, operation "current_customer" and the customer object.
type customerClaims struct {
	jwt.RegisteredClaims
	StoreHash string `json:"store_hash"`
	Operation string `json:"operation"`
	Customer  struct {
		ID      flexInt    `json:"id"`
		Email   string     `json:"email"`
		GroupID flexString `json:"group_id"`
	} `json:"customer"`
}

// VerifyCurrentCustomer checks a Current Customer JWT fetched by the
// storefront from /customer/current.jwt?app_client_id={clientID}: HS256
// signed with the app's client secret (no other algorithm, "none"
// included), aud equal to clientID, not expired at now, issued by
// "bc/apps" for operation "current_customer" and for storeHash. Only then
// is the customer ID it carries trusted.
func VerifyCurrentCustomer(token, clientID, clientSecret, storeHash string, now time.Time) (CurrentCustomer, error) {
	if clientID == "" || clientSecret == "" {
		return CurrentCustomer{}, fmt.Errorf("verify current customer: %w: app client ID and secret are required", ErrCustomerToken)
	}
	if len(token) > maxCustomerTokenLen {
		return CurrentCustomer{}, fmt.Errorf("verify current customer: %w: token too long", ErrCustomerToken)
	}
	var claims customerClaims
	if err := parseAppJWT(token, clientID, clientSecret, "bc/apps", now, &claims); err != nil {
		// jwt's messages name the failed check, never the token or secret.
		return CurrentCustomer{}, fmt.Errorf("verify current customer: %w: %v", ErrCustomerToken, err)
	}
	switch {
	case claims.StoreHash != storeHash:
		return CurrentCustomer{}, fmt.Errorf("verify current customer: %w: issued for store %q, not %q", ErrCustomerToken, claims.StoreHash, storeHash)
	case claims.Operation != "current_customer":
		return CurrentCustomer{}, fmt.Errorf("verify current customer: %w: operation %q", ErrCustomerToken, claims.Operation)
	case claims.Customer.ID <= 0:
		return CurrentCustomer{}, fmt.Errorf("verify current customer: %w: no customer id", ErrCustomerToken)
	}
	return CurrentCustomer{
		ID:      int64(claims.Customer.ID),
		Email:   claims.Customer.Email,
		GroupID: string(claims.Customer.GroupID),
	}, nil
}

// CustomerClaims builds the claims BigCommerce puts in a Current Customer
// JWT (group_id is a string there, as in the contract's example). The test double and the local demo storefront sign them; it lives
// here so the shape is defined once, beside the verifier that reads it.
func CustomerClaims(c CurrentCustomer, clientID, storeHash string, issuedAt time.Time, ttl time.Duration) jwt.MapClaims {
	return jwt.MapClaims{
		"customer":       map[string]any{"id": c.ID, "email": c.Email, "group_id": c.GroupID},
		"iss":            "bc/apps",
		"sub":            storeHash,
		"iat":            issuedAt.Unix(),
		"exp":            issuedAt.Add(ttl).Unix(),
		"version":        1,
		"aud":            clientID,
		"application_id": clientID,
		"store_hash":     storeHash,
		"operation":      "current_customer",
	}
}

// parseAppJWT checks token as BigCommerce signs the JWTs it hands an app
// (the current customer, the control panel's signed payload): HS256 with
// the app's client secret and no other algorithm ("none" included), aud
// the app's client ID, iss issuer, an expiry, valid at now; claims
// receives the payload. jwt's errors name the failed check, never the
// token or the secret.
func parseAppJWT(token, clientID, clientSecret, issuer string, now time.Time, claims jwt.Claims) error {
	_, err := jwt.ParseWithClaims(token, claims,
		func(*jwt.Token) (any, error) { return []byte(clientSecret), nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithAudience(clientID),
		jwt.WithIssuer(issuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(func() time.Time { return now }),
	)
	return err
}
