// Package strictjson finds what encoding/json silently accepts in a request
// body but a strict reader must refuse: strings that are not valid UTF-8
// (encoding/json rewrites them to U+FFFD, so the caller's value is not the
// one stored) and keys given twice in one object (encoding/json keeps the
// last, while a proxy or WAF in front may read the first). Every JSON body
// a server of ours decodes passes through Check first.
//
// The walk is jsontext's (github.com/go-json-experiment/json, the Go
// team's encoding/json/v2 outside the GOEXPERIMENT), which refuses both by
// default in one pass without allocating per token. It replaced a walk on
// encoding/json's Decoder.Token, which boxed every token: 6.6-11 µs and 82
// allocations for a create's 200-byte body against 0.65-0.8 µs and 2
// (BenchmarkCheck, alternated, load 5), about 5 % of a create's CPU in
// bench/lifecycle's profile. A differential fuzz of the two (1.7 million
// bodies, 2026-11-25) found no body they answered differently.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/idgate/idgate/internal/problem"
)

// The detail codes Check returns.
const (
	CodeInvalidUTF8  = "invalid_utf8"
	CodeDuplicateKey = "duplicate_key"
)

// Check returns the first string that is not valid UTF-8 (raw bytes, or an
// escaped surrogate without its pair) or the first duplicate key, at any
// depth, naming the member (webhook_headers.X-Token, requested_fields[2];
// "body" for the top level). It returns nil when there is none, and also when
// body is not valid JSON: the decoder that follows reports that.
func Check(body []byte) *problem.Detail {
	r := bytes.NewReader(body)
	dec := decoders.Get().(*jsontext.Decoder)
	dec.Reset(r)
	defer decoders.Put(dec)
	var err error
	for err == nil {
		_, err = dec.ReadToken()
	}
	var syntax *jsontext.SyntacticError
	// Whatever else jsontext refuses, encoding/json refuses too, and its
	// decoder says so in its own words.
	if !errors.As(err, &syntax) || !json.Valid(body) {
		return nil
	}
	names := pointerTokens(syntax.JSONPointer)
	if errors.Is(err, jsontext.ErrDuplicateName) {
		return &problem.Detail{Field: fieldName(dec, names), Code: CodeDuplicateKey, Message: "is given more than once"}
	}
	// The only other strings encoding/json accepts and jsontext does not
	// are invalid UTF-8 and lone surrogates. In an object whose names and
	// values read so far pair up, the bad string is the next member's name
	// (the pointer then stops at the object).
	if depth := dec.StackDepth(); depth > 0 {
		if kind, n := dec.StackIndex(depth); kind == '{' && n%2 == 0 {
			names = append(names[:depth-1], nextName(body[dec.InputOffset():]))
			return &problem.Detail{Field: fieldName(dec, names), Code: CodeInvalidUTF8, Message: "the member's name is not valid UTF-8"}
		}
	}
	return &problem.Detail{Field: fieldName(dec, names), Code: CodeInvalidUTF8, Message: "is not valid UTF-8"}
}

// decoders keeps jsontext's decoders, whose buffers and name sets are
// most of a walk's allocations, for the next body.
var decoders = sync.Pool{New: func() any { return jsontext.NewDecoder(bytes.NewReader(nil)) }}

// pointerTokens splits an RFC 6901 JSON Pointer into its unescaped tokens.
func pointerTokens(p jsontext.Pointer) []string {
	if p == "" {
		return nil
	}
	tokens := strings.Split(string(p)[1:], "/")
	for i, t := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return tokens
}

// fieldName names the member at tokens, the i-th token inside the
// decoder's i-th open container: a.b for an object's member, a[1] for an
// array's element, "body" for the top level.
func fieldName(dec *jsontext.Decoder, tokens []string) string {
	path := "body"
	for i, t := range tokens {
		if kind, _ := dec.StackIndex(i + 1); kind == '[' {
			path = strings.TrimPrefix(path, "body") + "[" + t + "]"
			continue
		}
		t = strings.ToValidUTF8(t, "\uFFFD")
		switch {
		case path != "body":
			path += "." + t
		case t != "":
			path = t
		}
	}
	return path
}

// nextName decodes the member name that rest (the body after the last
// token read) starts with, past the separator, as encoding/json would
// (U+FFFD for what is not UTF-8).
func nextName(rest []byte) string {
	rest = bytes.TrimLeft(rest, " \t\r\n,")
	end := 1
	for end < len(rest) && rest[end] != '"' {
		if rest[end] == '\\' {
			end++
		}
		end++
	}
	var name string
	if end < len(rest) {
		_ = json.Unmarshal(rest[:end+1], &name)
	}
	return name
}

// FieldAt names, as Check does (a.b, a[1], "body"), the value of body that
// ends at offset: the member encoding/json's UnmarshalTypeError.Offset
// points past. That error's own Field names a slice, not its element
// ({"requested_fields":["dob",1]} gives requested_fields), so a client
// would not learn which element was wrong. "" when body has no value
// ending there.
func FieldAt(body []byte, offset int64) string {
	dec := decoders.Get().(*jsontext.Decoder)
	dec.Reset(bytes.NewReader(body))
	defer decoders.Put(dec)
	for dec.InputOffset() < offset {
		if _, err := dec.ReadToken(); err != nil {
			return ""
		}
	}
	if dec.InputOffset() != offset {
		return ""
	}
	return fieldName(dec, pointerTokens(dec.StackPointer()))
}
