// Package strictjson finds what encoding/json silently accepts in a request
// body but a strict reader must refuse: strings that are not valid UTF-8
// (encoding/json rewrites them to U+FFFD, so the caller's value is not the
// one stored) and keys given twice in one object (encoding/json keeps the
// last, while a proxy or WAF in front may read the first). Every JSON body
// a server of ours decodes passes through Check first.
package strictjson

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/idgate/idgate/internal/problem"
)

// The detail codes Check returns.
const (
	CodeInvalidUTF8  = "invalid_utf8"
	CodeDuplicateKey = "duplicate_key"
)

// frame is one open container: an object's keys so far, or an array's
// next index.
type frame struct {
	object bool
	keys   map[string]bool
	key    string // the object's current member
	hasKey bool   // a key was read and its value not yet
	index  int    // the array's next element
	path   string
}

// Check returns the first string that is not valid UTF-8 (raw bytes, or an
// escaped surrogate without its pair) or the first duplicate key, at any
// depth, naming the member (webhook_headers.X-Token, requested_fields[2];
// "body" for the top level). It returns nil when there is none, and also when
// body is not valid JSON: the decoder that follows reports that.
func Check(body []byte) *problem.Detail {
	if !json.Valid(body) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var stack []*frame
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil // EOF: body is valid JSON, so nothing else ends it
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		// A string in an object where no key is pending is a key.
		isKey := top != nil && top.object && !top.hasKey
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				f := &frame{object: t == '{', path: valuePath(top)}
				if f.object {
					f.keys = map[string]bool{}
				}
				stack = append(stack, f)
				continue
			default:
				stack = stack[:len(stack)-1]
			}
		case string:
			raw := body[start:dec.InputOffset()]
			raw = raw[bytes.IndexByte(raw, '"'):]
			if isKey {
				field := join(top.path, t)
				if !validString(raw) {
					return &problem.Detail{Field: field, Code: CodeInvalidUTF8, Message: "the member's name is not valid UTF-8"}
				}
				if top.keys[t] {
					return &problem.Detail{Field: field, Code: CodeDuplicateKey, Message: "is given more than once"}
				}
				top.keys[t], top.key, top.hasKey = true, t, true
				continue
			}
			if !validString(raw) {
				return &problem.Detail{Field: valuePath(top), Code: CodeInvalidUTF8, Message: "is not valid UTF-8"}
			}
		}
		// A value (scalar or closed container) ends: advance the parent.
		if len(stack) > 0 {
			p := stack[len(stack)-1]
			if p.object {
				p.hasKey = false
			} else {
				p.index++
			}
		}
	}
}

// valuePath names the value about to be read inside top.
func valuePath(top *frame) string {
	switch {
	case top == nil:
		return "body"
	case top.object:
		return join(top.path, top.key)
	default:
		return strings.TrimPrefix(top.path, "body") + "[" + strconv.Itoa(top.index) + "]"
	}
}

// join names key inside path; an empty name at the top is "body", so a
// detail always names something.
func join(path, key string) string {
	key = strings.ToValidUTF8(key, "\uFFFD")
	if path == "body" || path == "" {
		if key == "" {
			return "body"
		}
		return key
	}
	return path + "." + key
}

// validString reports whether a quoted JSON string's raw bytes are valid
// UTF-8 and every \u escape of a surrogate is a high one followed by a low
// one.
func validString(quoted []byte) bool {
	s := quoted[1 : len(quoted)-1]
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '\\' && s[i+1] == 'u':
			r := hex4(s[i+2 : i+6])
			i += 6
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return false // a low surrogate alone
			case r >= 0xD800 && r <= 0xDBFF:
				if i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
					return false
				}
				if lo := hex4(s[i+2 : i+6]); lo < 0xDC00 || lo > 0xDFFF {
					return false
				}
				i += 6
			}
		case c == '\\':
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && n <= 1 {
				return false
			}
			i += n
		}
	}
	return true
}

// hex4 reads four hex digits (the tokenizer has checked them).
func hex4(b []byte) rune {
	n, _ := strconv.ParseUint(string(b), 16, 32)
	return rune(n)
}
