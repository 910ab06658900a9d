package strictjson

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/idgate/idgate/internal/problem"
)

// CodeUnknownField is the detail code CheckNames returns, the one the
// decoders use for a member the request does not have.
const CodeUnknownField = "unknown_field"

// CheckNames returns the first object member of body whose name matches a
// field of v's type only when case is ignored ({"LIFETIME_DAYS":7} for
// lifetime_days). encoding/json takes such a name as the field, so without
// this check a body could set a field under a name the document does not
// have, and {"lifetime_days":7,"Lifetime_days":8} would set it twice past
// Check's duplicate-key test, the last one winning. Names that match no
// field at all are the decoder's to refuse (DisallowUnknownFields); values
// whose type decodes itself (json.Unmarshaler, json.RawMessage, any) are
// not looked into. It returns nil for a body that is not valid JSON: the
// decoder that follows reports that.
func CheckNames(body []byte, v any) *problem.Detail {
	t := reflect.TypeOf(v)
	if t == nil {
		return nil
	}
	dec := decoders.Get().(*jsontext.Decoder)
	dec.Reset(bytes.NewReader(body))
	defer decoders.Put(dec)
	d, _ := walkNames(dec, t, "")
	if d != nil && !json.Valid(body) {
		return nil // found before the syntax error: the decoder reports that
	}
	return d
}

// walkNames reads one value of type t from dec; path names it ("" for the
// body). An error ends the walk without a finding.
func walkNames(dec *jsontext.Decoder, t reflect.Type, path string) (*problem.Detail, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if decodesItself(t) {
		return nil, dec.SkipValue()
	}
	switch dec.PeekKind() {
	case '{':
		return walkObject(dec, t, path)
	case '[':
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			return nil, dec.SkipValue()
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		for i := 0; dec.PeekKind() != ']'; i++ {
			if d, err := walkNames(dec, t.Elem(), path+"["+strconv.Itoa(i)+"]"); d != nil || err != nil {
				return d, err
			}
		}
		_, err := dec.ReadToken()
		return nil, err
	default:
		return nil, dec.SkipValue()
	}
}

func walkObject(dec *jsontext.Decoder, t reflect.Type, path string) (*problem.Detail, error) {
	var fields map[string]reflect.Type
	switch t.Kind() {
	case reflect.Struct:
		fields = fieldsOf(t)
	case reflect.Map:
	default:
		return nil, dec.SkipValue()
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		name := tok.String()
		member := name
		if path != "" {
			member = path + "." + name
		}
		elem := t
		if t.Kind() == reflect.Map {
			elem = t.Elem()
		} else if ft, ok := fields[name]; ok {
			elem = ft
		} else {
			if foldMatch(fields, name) {
				return &problem.Detail{Field: strings.ToValidUTF8(member, "\uFFFD"), Code: CodeUnknownField,
					Message: "is not a field of this request (member names are case-sensitive)"}, nil
			}
			if err := dec.SkipValue(); err != nil {
				return nil, err
			}
			continue
		}
		if d, err := walkNames(dec, elem, member); d != nil || err != nil {
			return d, err
		}
	}
	_, err := dec.ReadToken()
	return nil, err
}

func foldMatch(fields map[string]reflect.Type, name string) bool {
	for f := range fields {
		if strings.EqualFold(f, name) {
			return true
		}
	}
	return false
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// decodesItself: a type whose JSON encoding/json does not read member by
// member (its own UnmarshalJSON or UnmarshalText, or an interface).
func decodesItself(t reflect.Type) bool {
	if t.Kind() == reflect.Interface {
		return true
	}
	p := reflect.PointerTo(t)
	return p.Implements(unmarshalerType) || p.Implements(textUnmarshalerType)
}

// fieldTypes caches fieldsOf per struct type.
var fieldTypes sync.Map // reflect.Type -> map[string]reflect.Type

// fieldsOf maps each JSON member name a struct decodes (its fields' json
// names, embedded structs' promoted) to the field's type, as
// encoding/json names them: the tag's name, else the Go name; "-" and
// unexported fields have none.
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldTypes.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	addFields(t, m)
	fieldTypes.Store(t, m)
	return m
}

func addFields(t reflect.Type, m map[string]reflect.Type) {
	var embedded []reflect.Type
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			embedded = append(embedded, ft)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = f.Type
	}
	// An embedded struct's fields are promoted unless a shallower field
	// has the name, as in encoding/json.
	for _, e := range embedded {
		inner := map[string]reflect.Type{}
		addFields(e, inner)
		for name, ft := range inner {
			if _, ok := m[name]; !ok {
				m[name] = ft
			}
		}
	}
}
