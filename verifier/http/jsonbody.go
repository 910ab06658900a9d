package http

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"reflect"
	"strings"
	"unicode"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/internal/strictjson"
)

// requireJSON refuses a non-empty body that is not application/json (an
// optional charset must be utf-8) with 415.
func requireJSON(c *fiber.Ctx) error {
	if len(c.Body()) == 0 {
		return c.Next()
	}
	mt, params, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || mt != fiber.MIMEApplicationJSON {
		return httperr.New(httperr.UnsupportedMediaType, "send the body as application/json")
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return httperr.New(httperr.UnsupportedMediaType, "JSON bodies must be UTF-8")
	}
	return c.Next()
}

// DecodeJSON decodes body into v strictly: one JSON value, no unknown
// fields, member names exactly as the fields' (encoding/json ignores case),
// no duplicate keys, no string that is not valid UTF-8 (see
// strictjson). Syntax errors are MALFORMED_JSON (400); well-formed JSON of
// the wrong shape or breaking those rules is VALIDATION_FAILED (422) naming
// the field.
func DecodeJSON(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return httperr.New(httperr.MalformedJSON, "a JSON body is required")
	}
	if bytes.Equal(bytes.TrimSpace(body), []byte("null")) {
		// encoding/json leaves v as it was for null: the body would read
		// as {} and a create would go through with every default.
		return httperr.Validation(problem.Detail{Field: "body", Code: "wrong_type", Message: "must be a JSON object"})
	}
	if d := strictjson.Check(body); d != nil {
		return httperr.Validation(*d)
	}
	if d := strictjson.CheckNames(body, v); d != nil {
		return httperr.Validation(*d)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(body, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return httperr.New(httperr.MalformedJSON, "unexpected data after the JSON value")
	}
	return nil
}

func decodeError(body []byte, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return httperr.New(httperr.MalformedJSON, "the body is not valid JSON")
	case errors.As(err, &typ):
		field := jsonPath(typ.Field)
		if at := strictjson.FieldAt(body, typ.Offset); strings.HasPrefix(at, field+"[") {
			field = at // the element of an array, not the array
		}
		if field == "" {
			field = "body"
		}
		return httperr.Validation(problem.Detail{Field: field, Code: "wrong_type", Message: "must be " + jsonKind(typ.Type)})
	}
	// encoding/json has no typed error for unknown fields.
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		if name == "" {
			name = "body" // an empty key: name the whole body
		}
		return httperr.Validation(problem.Detail{Field: name, Code: "unknown_field", Message: "is not a field of this request"})
	}
	return httperr.New(httperr.MalformedJSON, "the body is not valid JSON")
}

// jsonPath drops the Go names of embedded structs from encoding/json's
// field path ("Options.lifetime_days" → "lifetime_days"): every JSON member
// of this API is lower-case.
func jsonPath(field string) string {
	parts := strings.Split(field, ".")
	kept := parts[:0]
	for _, p := range parts {
		if p != "" && !unicode.IsUpper(rune(p[0])) {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ".")
}

func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	default:
		return "an object"
	}
}
