package parts

import (
	"time"

	"github.com/idgate/idgate/verifier"
)

// TokenKey signs the API's tokens in tests (HS256; tests that forge tokens
// sign with it under other headers and claims).
var TokenKey = verifier.SigningKey{ID: "test-1", Secret: []byte("0123456789abcdef0123456789abcdef")}

// Tokens is the API token configuration of tests: serve's issuer and
// audience, an hour's life, TokenKey.
func Tokens() verifier.TokenConfig {
	return verifier.TokenConfig{Issuer: "idgate", Audience: "idgate-api", TTL: time.Hour, Keys: []verifier.SigningKey{TokenKey}}
}
