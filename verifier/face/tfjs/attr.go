package tfjs

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
)

// attrValue is one entry of a node's attr map in model.json (a JSON form
// of TensorFlow's AttrValue proto: int64s are strings, strings base64).
type attrValue struct {
	S     string    `json:"s"`
	I     jsonInt   `json:"i"`
	F     float64   `json:"f"`
	B     bool      `json:"b"`
	List  attrList  `json:"list"`
	Shape attrShape `json:"shape"`
}

// attrShape is a TensorShapeProto: a dimension of size -1 is unknown.
type attrShape struct {
	Dim []struct {
		Size jsonInt `json:"size"`
	} `json:"dim"`
}

type attrList struct {
	S []string  `json:"s"`
	I []jsonInt `json:"i"`
}

// jsonInt accepts a JSON number or a decimal string.
type jsonInt int64

func (j *jsonInt) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("int attr %q: %w", s, err)
		}
		*j = jsonInt(v)
		return nil
	}
	var v int64
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("int attr %s: %w", b, err)
	}
	*j = jsonInt(v)
	return nil
}

type attrs map[string]attrValue

func (a attrs) str(key string) (string, error) {
	v, ok := a[key]
	if !ok {
		return "", nil
	}
	b, err := base64.StdEncoding.DecodeString(v.S)
	if err != nil {
		return "", fmt.Errorf("attr %s: %w", key, err)
	}
	return string(b), nil
}

func (a attrs) strs(key string) ([]string, error) {
	var out []string
	for _, s := range a[key].List.S {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("attr %s: %w", key, err)
		}
		out = append(out, string(b))
	}
	return out, nil
}

func (a attrs) ints(key string) []int {
	var out []int
	for _, v := range a[key].List.I {
		out = append(out, int(v))
	}
	return out
}

// hw returns the H and W entries of an NHWC 4-list (strides, dilations,
// ksize), def when absent; it rejects values outside 1..limit.
func (a attrs) hw(key string, def int) (int, int, error) {
	l := a.ints(key)
	if len(l) == 0 {
		return def, def, nil
	}
	if len(l) != 4 {
		return 0, 0, fmt.Errorf("attr %s: want 4 values, got %v: %w", key, l, ErrFormat)
	}
	for _, v := range l[1:3] {
		if v < 1 || v > 1<<16 {
			return 0, 0, fmt.Errorf("attr %s: value %d out of range: %w", key, v, ErrFormat)
		}
	}
	return l[1], l[2], nil
}
