package securitytest

import (
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"testing"
)

// operation is one method on one path of the served OpenAPI document.
type operation struct {
	method, path string
	auth         string // public, bearer, bearer_or_key, session (from security)
	queryID      bool   // takes ?id=
	pathParams   []string
	ctype        string // the request body's first content type, "" without one
	example      []byte // the document's example body, when it gives one
	html         bool   // answers with a page (text/html), whose refusals are pages too
	// minimal is the example cut to the schema's required members: a body
	// valid for any account, so a refusal is about the id, not the body.
	minimal []byte
}

type schema struct {
	Ref      string   `json:"$ref"`
	Required []string `json:"required"`
}

// operations reads /openapi.json as the server serves it.
func operations(t *testing.T, g *target) []operation {
	t.Helper()
	var doc struct {
		Security   []map[string][]string                 `json:"security"`
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]schema `json:"schemas"`
		} `json:"components"`
	}
	g.must("GET", "/openapi.json", "", &doc)
	var ops []operation
	for path, item := range doc.Paths {
		for method, raw := range item {
			if method == "parameters" || method == "summary" || method == "description" {
				continue
			}
			var o struct {
				Security   *[]map[string][]string `json:"security"`
				Parameters []struct {
					Name string `json:"name"`
					In   string `json:"in"`
				} `json:"parameters"`
				Responses map[string]struct {
					Content map[string]json.RawMessage `json:"content"`
				} `json:"responses"`
				RequestBody *struct {
					Content map[string]struct {
						Example json.RawMessage `json:"example"`
						Schema  schema          `json:"schema"`
					} `json:"content"`
				} `json:"requestBody"`
			}
			if err := json.Unmarshal(raw, &o); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			op := operation{method: strings.ToUpper(method), path: path, auth: "bearer"}
			for _, r := range o.Responses {
				if _, ok := r.Content["text/html"]; ok {
					op.html = true
				}
			}
			sec := doc.Security
			if o.Security != nil {
				sec = *o.Security
			}
			if len(sec) == 0 {
				op.auth = "public"
			}
			for _, s := range sec {
				if _, ok := s["integrationKey"]; ok {
					op.auth = "bearer_or_key"
				}
			}
			if len(sec) == 1 && len(sec[0]) == 1 && sec[0]["session"] != nil {
				op.auth = "session" // the dashboard's cookie only
			}
			for _, p := range o.Parameters {
				switch {
				case p.In == "query" && p.Name == "id":
					op.queryID = true
				case p.In == "path":
					op.pathParams = append(op.pathParams, p.Name)
				}
			}
			if strings.Contains(path, "{") && len(op.pathParams) == 0 {
				t.Fatalf("%s %s: path parameters not declared", method, path)
			}
			if o.RequestBody != nil {
				types := make([]string, 0, len(o.RequestBody.Content))
				for ct := range o.RequestBody.Content {
					types = append(types, ct)
				}
				sort.Strings(types)
				op.ctype = types[0]
				if _, ok := o.RequestBody.Content["application/json"]; ok {
					op.ctype = "application/json"
				}
				c := o.RequestBody.Content[op.ctype]
				op.example, op.minimal = c.Example, c.Example
				s := c.Schema
				if name, ok := strings.CutPrefix(s.Ref, "#/components/schemas/"); ok {
					s = doc.Components.Schemas[name]
				}
				var ex map[string]json.RawMessage
				if json.Unmarshal(c.Example, &ex) == nil {
					min := map[string]json.RawMessage{}
					for _, r := range s.Required {
						min[r] = ex[r]
					}
					op.minimal, _ = json.Marshal(min)
				}
			}
			ops = append(ops, op)
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].path+ops[i].method < ops[j].path+ops[j].method })
	if len(ops) < 30 {
		t.Fatalf("only %d operations in the document", len(ops))
	}
	return ops
}

// changesState: the methods a session cookie needs the CSRF header for.
func (op operation) changesState() bool { return op.method != "GET" && op.method != "HEAD" }

// cookieAuth: operations the dashboard's session cookie may call.
func (op operation) cookieAuth() bool { return op.auth == "bearer" || op.auth == "session" }

func (op operation) takesID() bool {
	return op.queryID || op.has("id")
}

func (op operation) has(param string) bool {
	for _, p := range op.pathParams {
		if p == param {
			return true
		}
	}
	return false
}

// kind is the object kind an operation's path {id} names.
func (op operation) kind() string {
	switch {
	case strings.HasPrefix(op.path, "/templates/"):
		return "template"
	case strings.HasPrefix(op.path, "/passphrase-keys/"):
		return "passphrase_key"
	}
	return "verification"
}

// url fills the operation's parameters: value(name, in) gives each.
func (op operation) url(value func(name, in string) string) string {
	p := op.path
	for _, name := range op.pathParams {
		p = strings.Replace(p, "{"+name+"}", url.PathEscape(value(name, "path")), 1)
	}
	if op.queryID {
		p += "?id=" + url.QueryEscape(value("id", "query"))
	}
	return p
}
