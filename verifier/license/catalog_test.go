package license

import (
	"errors"
	"regexp"
	"testing"
	"time"
)

func TestCatalogIsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Catalog {
		if seen[f.Name] || !regexp.MustCompile(`^[a-z][a-z0-9_]*$`).MatchString(f.Name) {
			t.Errorf("bad or duplicate name %q", f.Name)
		}
		seen[f.Name] = true
		if f.Type != "string" && f.Type != "integer" && f.Type != "boolean" || f.Format != "" && f.Format != "date" ||
			f.Class != ClassNameAddress && f.Class != ClassBeyond || f.Description == "" || f.value == nil {
			t.Errorf("field %+v", f)
		}
	}
	// The spec's payload shows these three keys.
	for _, name := range []string{"first_names", "last_name", "dob"} {
		if !seen[name] {
			t.Errorf("spec key %s missing", name)
		}
	}
}

func TestExtractFiltersToRequested(t *testing.T) {
	l := sampleUS()
	got, err := Extract(l, []string{"first_names", "last_name", "dob", "height_cm", "weight_kg", "real_id", "address_postal_code"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"first_names": "JANE", "last_name": "SAMPLE", "dob": "1986-06-06", "height_cm": 173, "weight_kg": 68, "real_id": true, "address_postal_code": "23269-1234"}
	if len(got) != len(want) {
		t.Errorf("got %d keys: %v", len(got), got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %#v, want %#v", k, got[k], v)
		}
	}
	empty, err := Extract(l, nil)
	if err != nil || len(empty) != 0 {
		t.Errorf("no fields requested: %v %v", empty, err)
	}
}

func TestExtractMissingValuesAreNull(t *testing.T) {
	got, err := Extract(License{LastName: "DOE"}, []string{"last_name", "middle_names", "dob", "real_id", "height_cm"})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"middle_names", "dob", "real_id", "height_cm"} {
		if v, ok := got[k]; !ok || v != nil {
			t.Errorf("%s = %#v, present %v; want null", k, v, ok)
		}
	}
	if got["last_name"] != "DOE" {
		t.Errorf("last_name %v", got["last_name"])
	}
}

func TestExtractEveryCatalogFieldFromAParse(t *testing.T) {
	l, err := ParseAAMVA(Encode(sampleUS(), MaxVersion))
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(Catalog))
	for i, f := range Catalog {
		names[i] = f.Name
	}
	got, err := Extract(l, names)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Catalog {
		v := got[f.Name]
		if f.Name == "nationality" {
			// A travel document's field: no AAMVA element carries it.
			if v != nil {
				t.Errorf("nationality %v from a license", v)
			}
			continue
		}
		if v == nil {
			t.Errorf("%s is null for a license that carries it", f.Name)
			continue
		}
		switch f.Type {
		case "string":
			s, ok := v.(string)
			if !ok {
				t.Errorf("%s is %T", f.Name, v)
			} else if f.Format == "date" {
				if _, err := time.Parse("2006-01-02", s); err != nil {
					t.Errorf("%s %q is not YYYY-MM-DD", f.Name, s)
				}
			}
		case "integer":
			if _, ok := v.(int); !ok {
				t.Errorf("%s is %T", f.Name, v)
			}
		case "boolean":
			if _, ok := v.(bool); !ok {
				t.Errorf("%s is %T", f.Name, v)
			}
		}
	}
}

func TestUnknownFieldsAreNamed(t *testing.T) {
	_, err := Extract(sampleUS(), []string{"first_names", "shoe_size", "ssn"})
	if !errors.Is(err, ErrUnknownField) {
		t.Fatalf("err %v", err)
	}
	var names []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var u *UnknownFieldError
		if errors.As(e, &u) {
			names = append(names, u.Name)
		}
	}
	if len(names) != 2 || names[0] != "shoe_size" || names[1] != "ssn" {
		t.Errorf("named %v", names)
	}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		req  []string
		want FieldClass
	}{
		{nil, ""},
		{[]string{"first_names", "last_name", "address_city", "address_postal_code"}, ClassNameAddress},
		{[]string{"first_names", "dob"}, ClassBeyond},
		{[]string{"document_number"}, ClassBeyond},
	} {
		got, err := Classify(tc.req)
		if err != nil || got != tc.want {
			t.Errorf("Classify(%v) = %q, %v; want %q", tc.req, got, err, tc.want)
		}
	}
	if _, err := Classify([]string{"nope"}); !errors.Is(err, ErrUnknownField) {
		t.Errorf("unknown field: %v", err)
	}
}
