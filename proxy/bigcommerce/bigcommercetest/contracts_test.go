package bigcommercetest

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/idgate/idgate/internal/testkit"
)

func write(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSwagger2IsConverted: a Swagger 2 document (as the .oas2 name
// promises) is converted to OpenAPI 3 and validates responses.
func TestSwagger2IsConverted(t *testing.T) {
	doc, err := loadDocument(write(t, "orders.v2.oas2.yml", `
swagger: '2.0'
info: {title: Orders, version: ''}
host: api.bigcommerce.com
basePath: /stores/{store_hash}/v2
produces: [application/json]
paths:
  /orders/{order_id}:
    get:
      operationId: getOrder
      parameters:
        - {name: order_id, in: path, required: true, type: integer}
      responses:
        '200':
          description: order
          schema:
            type: object
            properties:
              id: {type: integer}
`))
	if err != nil {
		t.Fatal(err)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", "http://double/orders/12", nil)
	route, params, err := router.FindRoute(req)
	if err != nil || route.Operation.OperationID != "getOrder" || params["order_id"] != "12" {
		t.Fatalf("route %v %v %v", route, params, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route}
	for body, valid := range map[string]bool{`{"id": 12}`: true, `{"id": "twelve"}`: false} {
		out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: 200, Header: http.Header{"Content-Type": {"application/json"}}}
		out.SetBodyBytes([]byte(body))
		if err := openapi3filter.ValidateResponse(context.Background(), out); (err == nil) != valid {
			t.Errorf("%s: validation error %v, want valid=%v", body, err, valid)
		}
	}
}

// TestStaleErratumFailsLoudly: once a document is fixed, its erratum must
// be removed rather than re-applied blindly.
func TestStaleErratumFailsLoudly(t *testing.T) {
	_, err := loadDocument(write(t, "webhooks.v3.yml", `
openapi: 3.0.3
info: {title: Webhooks, version: '1'}
paths:
  /hooks:
    get:
      responses:
        '200':
          description: hooks
          content:
            application/json:
              schema:
                type: object
                properties:
                  data: {type: array, items: {type: object}}
`))
	if err == nil || !strings.Contains(err.Error(), "no longer needed") {
		t.Fatalf("err = %v, want the stale erratum reported", err)
	}
}

// TestErrataApplyToTheSharedDocuments pins what the errata change: the
// patched operations accept the platform's real answers, and the shared
// schemas they came from are untouched.
func TestErrataApplyToTheSharedDocuments(t *testing.T) {
	dir := testkit.Data(t, "contracts", "bigcommerce")
	carts, err := loadDocument(filepath.Join(dir, "carts.v3.yml"))
	if err != nil {
		t.Fatal(err)
	}
	list, err := responseDataSchema(carts, "/carts/{cart_id}/metafields", "GET", 200)
	if err != nil || !list.Value.Type.Is("array") {
		t.Fatalf("cart metafield list data: %v, %v", list, err)
	}
	shared := carts.Components.Schemas["MetafieldResponse"].Value.Properties["data"].Value
	if shared.Type.Is("array") {
		t.Fatal("the erratum leaked into the shared MetafieldResponse schema")
	}
	hooks, err := loadDocument(filepath.Join(dir, "webhooks.v3.yml"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := responseDataSchema(hooks, "/hooks", "GET", 200)
	if err != nil || data.Value.MinItems != 0 {
		t.Fatalf("hooks list data: %v, %v", data, err)
	}
}
