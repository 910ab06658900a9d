package bigcommercetest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/oasdiff/yaml"
)

// documents are the vendor documents the double serves, by API version (the
// path segment after /stores/{store_hash}/). Each is routed on its own: the
// versions share paths such as /orders/{order_id}.
var documents = map[string][]string{
	"v3": {"carts.v3.yml", "customers.v3.yml", "orders.v3.yml", "scripts.v3.yml", "webhooks.v3.yml"},
	"v2": {"orders.v2.oas2.yml"},
}

// contracts are the loaded, validated, routable documents.
type contracts struct {
	routers map[string][]routers.Router // by API version
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*contracts{} // by directory; loading takes ~1 s and the result is read-only
)

// loadContracts loads (once per directory) the BigCommerce documents in dir.
func loadContracts(dir string) (*contracts, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if c, ok := cache[dir]; ok {
		return c, nil
	}
	c := &contracts{routers: map[string][]routers.Router{}}
	for version, files := range documents {
		for _, name := range files {
			doc, err := loadDocument(filepath.Join(dir, name))
			if err != nil {
				return nil, fmt.Errorf("load contract %s: %w", name, err)
			}
			r, err := gorillamux.NewRouter(doc)
			if err != nil {
				return nil, fmt.Errorf("route contract %s: %w", name, err)
			}
			c.routers[version] = append(c.routers[version], r)
		}
	}
	cache[dir] = c
	return c, nil
}

// loadDocument reads an OpenAPI 3 document, or a Swagger 2 one converted to
// OpenAPI 3 (the file named .oas2 is in fact OpenAPI 3.0.0 today; if it is
// ever swapped for the Swagger original, it still loads). It then applies the
// in-memory patches and validates.
func loadDocument(path string) (*openapi3.T, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var head struct {
		Swagger string `json:"swagger"`
	}
	if _, err := yaml.Unmarshal(data, &head, yaml.DecodeOpts{}); err != nil {
		return nil, fmt.Errorf("read version: %w", err)
	}
	var doc *openapi3.T
	if head.Swagger != "" {
		var doc2 openapi2.T
		if _, err := yaml.Unmarshal(data, &doc2, yaml.DecodeOpts{}); err != nil {
			return nil, fmt.Errorf("parse swagger 2: %w", err)
		}
		if doc, err = openapi2conv.ToV3(&doc2); err != nil {
			return nil, fmt.Errorf("convert swagger 2: %w", err)
		}
	} else {
		loader := openapi3.NewLoader()
		if doc, err = loader.LoadFromData(data); err != nil {
			return nil, err
		}
	}
	// Documented quirks of these documents when loaded: empty required
	// info members, and servers that pin api.bigcommerce.com, which the
	// router would match against the double's host.
	if doc.Info != nil && doc.Info.Version == "" {
		doc.Info.Version = "unversioned"
	}
	if doc.Info != nil && doc.Info.License != nil && doc.Info.License.Name == "" {
		doc.Info.License.Name = "unnamed"
	}
	doc.Servers = nil
	if err := applyErrata(filepath.Base(path), doc); err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("validate: %w", err)
	}
	return doc, nil
}

// errata fix, in memory, the few places where a document contradicts both
// the platform's behaviour and its sibling documents. Each one checks that
// the text it corrects is still there, so an updated document that fixed
// (or moved) it fails loudly instead of being silently re-patched.
var errata = map[string][]func(*openapi3.T) error{
	// getCartMetafields answers MetafieldResponse, whose data is ONE
	// metafield: a list endpoint that could never return two. Customers and
	// orders document the same endpoint as an array, which is what the
	// platform returns.
	"carts.v3.yml": {func(doc *openapi3.T) error {
		data, err := responseDataSchema(doc, "/carts/{cart_id}/metafields", "GET", 200)
		if err != nil {
			return err
		}
		if data.Value.Type.Is("array") {
			return errors.New("carts erratum no longer needed: getCartMetafields data is an array")
		}
		*data = openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{"array"}, Items: openapi3.NewSchemaRef(data.Ref, data.Value)}}
		return nil
	}},
	// deleteScript's 204 declares a JSON body (NoContent), but a 204 has
	// no body (RFC 9110 §15.3.5), so no answer could match it.
	"scripts.v3.yml": {func(doc *openapi3.T) error {
		op := doc.Paths.Find("/content/scripts/{uuid}")
		if op == nil || op.Delete == nil || op.Delete.Responses.Status(204) == nil {
			return errors.New("DELETE /content/scripts/{uuid} 204 not in document")
		}
		resp := op.Delete.Responses.Status(204).Value
		if len(resp.Content) == 0 {
			return errors.New("scripts erratum no longer needed: deleteScript's 204 declares no body")
		}
		copied := *resp
		copied.Content = nil
		op.Delete.Responses.Set("204", &openapi3.ResponseRef{Value: &copied})
		return nil
	}},
	// getWebhooks requires minItems: 1 on data, so a store without hooks
	// (every store, before we register ours) would have no valid answer.
	"webhooks.v3.yml": {func(doc *openapi3.T) error {
		data, err := responseDataSchema(doc, "/hooks", "GET", 200)
		if err != nil {
			return err
		}
		if data.Value.MinItems != 1 {
			return errors.New("webhooks erratum no longer needed: getWebhooks data has no minItems 1")
		}
		data.Value.MinItems = 0
		return nil
	}},
}

func applyErrata(name string, doc *openapi3.T) error {
	for _, fix := range errata[name] {
		if err := fix(doc); err != nil {
			return fmt.Errorf("erratum: %w", err)
		}
	}
	return nil
}

// responseDataSchema is the schema of `data` in an operation's JSON response.
func responseDataSchema(doc *openapi3.T, path, method string, status int) (*openapi3.SchemaRef, error) {
	op := doc.Paths.Find(path)
	if op == nil || op.GetOperation(method) == nil {
		return nil, fmt.Errorf("%s %s not in document", method, path)
	}
	resp := op.GetOperation(method).Responses.Status(status)
	if resp == nil || resp.Value == nil || resp.Value.Content.Get("application/json") == nil {
		return nil, fmt.Errorf("%s %s has no JSON %d response", method, path, status)
	}
	schema := resp.Value.Content.Get("application/json").Schema
	if schema == nil || schema.Value == nil || schema.Value.Properties["data"] == nil {
		return nil, fmt.Errorf("%s %s %d response has no data member", method, path, status)
	}
	// The response schema may be shared through a $ref; copy it so the
	// patch touches this operation only.
	copied := *schema.Value
	copied.Properties = make(openapi3.Schemas, len(schema.Value.Properties))
	for k, v := range schema.Value.Properties {
		copied.Properties[k] = v
	}
	data := *copied.Properties["data"]
	if data.Value == nil {
		return nil, fmt.Errorf("%s %s data schema unresolved", method, path)
	}
	dataValue := *data.Value
	data.Value = &dataValue
	copied.Properties["data"] = &data
	resp.Value.Content.Get("application/json").Schema = &openapi3.SchemaRef{Value: &copied}
	return copied.Properties["data"], nil
}
