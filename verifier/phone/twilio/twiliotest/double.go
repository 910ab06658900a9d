// Package twiliotest is a test double of the parts of Twilio the phone
// provider calls (Verify v2: create and update a Verification; Lookup v2:
// fetch a phone number, with line type intelligence, caller name and
// identity match). Every request and every answer it gives is
// validated against Twilio's own OpenAPI documents (twilio/twilio-oai,
// MIT, committed under testdata/twilio); a mismatch is reported through
// Options.OnViolation (t.Errorf in tests). The double records each
// delivered code, as the phone would receive it.
package twiliotest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/idgate/idgate/internal/contracttest"
)

// Documents are the files of testdata/twilio the double validates against.
var Documents = []string{"twilio_verify_v2.json", "twilio_lookups_v2.json"}

// Options configures a Double.
type Options struct {
	// Dir holds Documents (testkit.Data(t, "testdata", "twilio")).
	Dir string
	// AccountSID and AuthToken are the credentials the double accepts.
	AccountSID, AuthToken string
	// OnViolation receives every contract violation; nil panics, so a
	// broken contract never goes unseen.
	OnViolation func(msg string)
}

// Line is what Lookup answers for one number.
type Line struct {
	Type        string // line_type_intelligence.type, e.g. "mobile", "landline"
	CarrierName string
	CallerName  string // "" answers caller_name.caller_name null
}

// Subscriber is the record Identity Match compares with for one number:
// the subscriber's name and address, or an error code the package answers
// instead (60606, the package not enabled for the number's country, ...).
type Subscriber struct {
	FirstName, LastName, Line1, City, State, PostalCode string
	ErrorCode                                           int
}

// Message is one code delivered by a Verification.
type Message struct {
	To, Code, Locale, Sid string
}

// Double is the running double. Its URL serves both hosts' paths.
type Double struct {
	URL string

	opts    Options
	routers []routers.Router
	srv     *httptest.Server

	mu       sync.Mutex
	lines    map[string]Line
	subs     map[string]Subscriber
	queries  []url.Values   // the Identity Match queries, in order
	errs     map[string]int // To → Twilio error code the next Verification gets
	messages []Message
	approved map[string]bool
	nextSid  int
	requests int
}

// New loads the documents and starts the double; Close stops it.
func New(opts Options) (*Double, error) {
	d := &Double{opts: opts, lines: map[string]Line{}, subs: map[string]Subscriber{}, errs: map[string]int{}, approved: map[string]bool{}}
	for _, name := range Documents {
		doc, err := load(filepath.Join(opts.Dir, name))
		if err != nil {
			return nil, fmt.Errorf("twiliotest: %s: %w", name, err)
		}
		r, err := gorillamux.NewRouter(doc)
		if err != nil {
			return nil, fmt.Errorf("twiliotest: route %s: %w", name, err)
		}
		d.routers = append(d.routers, r)
	}
	d.srv = httptest.NewServer(http.HandlerFunc(d.handle))
	d.URL = d.srv.URL
	return d, nil
}

// load reads a document and drops its servers (verify.twilio.com,
// lookups.twilio.com, at the top and on every path), so its paths route
// on the double's own host.
func load(path string) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(path)
	if err != nil {
		return nil, err
	}
	// Twilio's own examples break its patterns (33-character SIDs), so
	// examples are not validated; schemas and operations are.
	if err := doc.Validate(context.Background(), openapi3.DisableExamplesValidation()); err != nil {
		return nil, fmt.Errorf("validate: %w", err)
	}
	doc.Servers = nil
	for _, item := range doc.Paths.Map() {
		item.Servers = nil
		for _, op := range item.Operations() {
			op.Servers = nil
		}
	}
	return doc, nil
}

// Close stops the double.
func (d *Double) Close() { d.srv.Close() }

// SetLine sets what Lookup answers for the E.164 number; numbers never set
// are mobile lines of "Double Wireless".
func (d *Double) SetLine(e164 string, l Line) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.lines[e164] = l
}

// SetSubscriber sets the record Identity Match compares with for the E.164
// number; numbers never set have no record (every field
// no_data_available).
func (d *Double) SetSubscriber(e164 string, s Subscriber) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.subs[e164] = s
}

// IdentityQueries are the query parameters of every Identity Match asked
// so far, oldest first (what left for Twilio: names, address, number).
func (d *Double) IdentityQueries() []url.Values {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]url.Values(nil), d.queries...)
}

// FailNext makes the next Verification to e164 fail with Twilio error
// code (60200 invalid parameter, 60205 landline, 60203 max attempts, ...).
func (d *Double) FailNext(e164 string, code int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.errs[e164] = code
}

// Requests is how many requests reached the double, of any kind (lookups,
// sends, confirmations, refused ones).
func (d *Double) Requests() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.requests
}

// Messages are the codes delivered so far, oldest first.
func (d *Double) Messages() []Message {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]Message(nil), d.messages...)
}

// Approved reports whether the Verification sid was marked approved.
func (d *Double) Approved(sid string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.approved[sid]
}

func (d *Double) violation(format string, args ...any) {
	msg := "twiliotest: " + fmt.Sprintf(format, args...)
	if d.opts.OnViolation == nil {
		panic(msg)
	}
	d.opts.OnViolation(msg)
}

func (d *Double) handle(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	d.requests++
	d.mu.Unlock()
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, "read", http.StatusBadRequest)
		return
	}
	in, err := contracttest.Request(d.routers, r, body, d.authenticate)
	switch {
	case errors.Is(err, contracttest.ErrNoOperation):
		d.violation("%s %s: no operation in Twilio's documents", r.Method, r.URL.Path)
		twilioError(w, http.StatusNotFound, 20404, "The requested resource was not found")
		return
	case errors.Is(err, contracttest.ErrUnauthorized):
		twilioError(w, http.StatusUnauthorized, 20003, "Authenticate")
		return
	case err != nil:
		d.violation("request %s %s breaks the contract: %v", r.Method, r.URL.Path, err)
		twilioError(w, http.StatusBadRequest, 60200, "Invalid parameter")
		return
	}
	if err := in.Request.ParseForm(); err != nil {
		d.violation("request %s %s: form: %v", r.Method, r.URL.Path, err)
	}
	rec := httptest.NewRecorder()
	// Twilio's error answers are not in its documents: only the
	// operations' own answers are checked.
	if d.serve(rec, in) {
		if err := contracttest.Response(in, rec); err != nil {
			d.violation("answer to %s %s breaks the contract: %v", r.Method, in.Route.Path, err)
		}
	}
	contracttest.Send(w, rec)
}

func (d *Double) authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	s := in.SecurityScheme
	if s == nil || s.Type != "http" || s.Scheme != "basic" {
		return fmt.Errorf("unsupported security scheme %q", in.SecuritySchemeName)
	}
	user, pass, ok := in.RequestValidationInput.Request.BasicAuth()
	if !ok || user != d.opts.AccountSID || pass != d.opts.AuthToken {
		return errors.New("wrong or missing credentials")
	}
	return nil
}

// serve answers a valid request; documented is false for Twilio's error
// answers, which the documents do not describe.
func (d *Double) serve(w *httptest.ResponseRecorder, in *openapi3filter.RequestValidationInput) (documented bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r, p := in.Request, in.PathParams
	switch in.Route.Path {
	case "/v2/PhoneNumbers/{PhoneNumber}":
		return d.lookup(w, p["PhoneNumber"], r.URL.Query())
	case "/v2/Services/{ServiceSid}/Verifications":
		return d.create(w, p["ServiceSid"], r.PostForm)
	case "/v2/Services/{ServiceSid}/Verifications/{Sid}":
		if r.Method == http.MethodPost {
			return d.update(w, p["ServiceSid"], p["Sid"], r.PostForm)
		}
	}
	d.violation("%s %s: an operation the provider should not call", r.Method, in.Route.Path)
	twilioError(w, http.StatusNotFound, 20404, "not implemented by the double")
	return false
}

func (d *Double) lookup(w *httptest.ResponseRecorder, number string, q url.Values) bool {
	fields := map[string]bool{}
	for _, f := range strings.Split(q.Get("Fields"), ",") {
		fields[f] = true
	}
	l, ok := d.lines[number]
	if !ok {
		l = Line{Type: "mobile", CarrierName: "Double Wireless"}
	}
	valid := strings.HasPrefix(number, "+") && len(number) >= 8
	// The documents make the packages' objects non-nullable, so a package
	// not asked for (or a member without data) is left out, not null.
	out := map[string]any{
		"calling_country_code": nil, "country_code": nil, "phone_number": number, "national_format": nil,
		"valid": valid, "validation_errors": []any{},
		"url": "https://lookups.twilio.com/v2/PhoneNumbers/" + url.PathEscape(number),
	}
	if !valid {
		out["validation_errors"] = []any{"NOT_A_NUMBER"}
	}
	if fields["line_type_intelligence"] && valid {
		out["line_type_intelligence"] = map[string]any{"type": l.Type, "carrier_name": l.CarrierName,
			"mobile_country_code": "310", "mobile_network_code": "456"}
	}
	if fields["caller_name"] && valid {
		cn := map[string]any{"caller_type": "CONSUMER"}
		if l.CallerName != "" {
			cn["caller_name"] = l.CallerName
		}
		out["caller_name"] = cn
	}
	if fields["identity_match"] {
		d.queries = append(d.queries, q)
	}
	if fields["identity_match"] && valid {
		out["identity_match"] = d.identityMatch(number, q)
	}
	writeJSON(w, http.StatusOK, out)
	return true
}

func (d *Double) create(w *httptest.ResponseRecorder, service string, form url.Values) bool {
	to := form.Get("To")
	if code, ok := d.errs[to]; ok {
		delete(d.errs, to)
		twilioError(w, http.StatusBadRequest, code, "refused by the double")
		return false
	}
	if form.Get("Channel") != "sms" || form.Get("CustomCode") == "" {
		twilioError(w, http.StatusBadRequest, 60200, "Invalid parameter")
		return false
	}
	d.nextSid++
	sid := fmt.Sprintf("VE%032x", d.nextSid)
	d.messages = append(d.messages, Message{To: to, Code: form.Get("CustomCode"), Locale: form.Get("Locale"), Sid: sid})
	writeJSON(w, http.StatusCreated, verification(service, sid, to, "pending"))
	return true
}

func (d *Double) update(w *httptest.ResponseRecorder, service, sid string, form url.Values) bool {
	for _, m := range d.messages {
		if m.Sid == sid {
			if form.Get("Status") == "approved" {
				d.approved[sid] = true
			}
			writeJSON(w, http.StatusOK, verification(service, sid, m.To, form.Get("Status")))
			return true
		}
	}
	twilioError(w, http.StatusNotFound, 20404, "The requested resource was not found")
	return false
}

func verification(service, sid, to, status string) map[string]any {
	return map[string]any{
		"sid": sid, "service_sid": service, "account_sid": "AC" + strings.Repeat("0", 32), "to": to,
		"channel": "sms", "status": status, "valid": status == "approved", "lookup": map[string]any{},
		"amount": nil, "payee": nil, "send_code_attempts": []any{}, "sna": nil,
		"date_created": "2026-01-01T00:00:00Z", "date_updated": "2026-01-01T00:00:00Z",
		"url": "https://verify.twilio.com/v2/Services/" + service + "/Verifications/" + sid,
	}
}

func writeJSON(w *httptest.ResponseRecorder, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// twilioError is Twilio's error body (https://www.twilio.com/docs/usage/twilios-response).
func twilioError(w http.ResponseWriter, status, code int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"code": code, "message": message,
		"more_info": fmt.Sprintf("https://www.twilio.com/docs/errors/%d", code), "status": status})
}
