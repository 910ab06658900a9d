// Package openapi embeds the verifier's OpenAPI 3 document (served at
// GET /openapi.json) and checks real responses against it, so the document
// cannot drift from the handlers: the HTTP tests pass every response they
// receive through a Validator.
package openapi

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

//go:embed openapi.json
var document []byte

// Document is the document as served.
func Document() []byte { return document }

// Load parses and validates the document.
func Load() (*openapi3.T, error) {
	doc, err := openapi3.NewLoader().LoadFromData(document)
	if err != nil {
		return nil, fmt.Errorf("load openapi: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("validate openapi: %w", err)
	}
	return doc, nil
}
