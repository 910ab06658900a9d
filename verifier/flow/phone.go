package flow

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/phone"
)

// StepPhone is phone verification: a step only on links that requested it,
// and only while a phone provider is configured (otherwise the check
// cannot run and phone_verification is absent from the result).
const StepPhone Step = "phone"

// PhoneLimits bound the phone step of one link.
type PhoneLimits struct {
	// Sends is how many codes may be sent (the first and the resends).
	Sends int
	// ResendAfter is the least time between two sends.
	ResendAfter time.Duration
	// CodeTTL is how long a code may be entered.
	CodeTTL time.Duration
	// WrongCodes is how many wrong codes the link may enter in all; then
	// the step ends unverified (phone_verified false).
	WrongCodes int
	// Lookups is how many numbers the link may have looked up (a carrier
	// lookup is paid for, and a refused number uses no send).
	Lookups int
}

// DefaultPhoneLimits: 5 sends at least 30 s apart, each code valid for
// 10 minutes, 5 wrong codes per link (a guess of a six-digit code then
// succeeds at most 5 times in a million), 10 numbers looked up.
var DefaultPhoneLimits = PhoneLimits{Sends: 5, ResendAfter: 30 * time.Second, CodeTTL: 10 * time.Minute, WrongCodes: 5, Lookups: 10}

// Problems of the phone step (422, the field is "phone").
const (
	ProblemPhoneInvalid       Problem = "phone_invalid"
	ProblemPhoneRegion        Problem = "phone_region_invalid"
	ProblemPhoneNotMobile     Problem = "phone_not_mobile"
	ProblemPhoneUndeliverable Problem = "phone_undeliverable"
	ProblemCodeFormat         Problem = "code_format"
)

// Errors of the phone step.
var (
	// ErrPhoneSendsExhausted: the link has sent its codes, or looked up
	// its numbers (429).
	ErrPhoneSendsExhausted = errors.New("no phone codes left to send on this link")
	// ErrPhoneResendTooSoon: a code was sent moments ago (429 with
	// Retry-After); the error is a *WaitError.
	ErrPhoneResendTooSoon = errors.New("a code was sent moments ago")
	// ErrPhoneCodeExpired: the code's time is up and another may be sent
	// (409).
	ErrPhoneCodeExpired = errors.New("the phone code expired")
	// ErrPhoneUnavailable: the provider cannot send now (503).
	ErrPhoneUnavailable = errors.New("phone provider unavailable")
)

// WaitError is ErrPhoneResendTooSoon with the time to wait.
type WaitError struct{ Wait time.Duration }

func (e *WaitError) Error() string { return fmt.Sprintf("%v; wait %s", ErrPhoneResendTooSoon, e.Wait) }

// Is makes errors.Is(err, ErrPhoneResendTooSoon) true.
func (e *WaitError) Is(target error) bool { return target == ErrPhoneResendTooSoon }

// PhoneState is the phone step of a session (sealed with it). The code is
// kept only hashed.
type PhoneState struct {
	Number phone.Number `json:"number"`
	Lookup phone.Lookup `json:"lookup"`
	// Code is the current code, hashed; nil once verified or failed.
	Code          *phone.HashedCode `json:"code,omitempty"`
	CodeExpiresAt time.Time         `json:"code_expires_at"`
	Ref           string            `json:"ref,omitempty"`
	Sends         int               `json:"sends"`
	Lookups       int               `json:"lookups"`
	LastSentAt    time.Time         `json:"last_sent_at"`
	WrongCodes    int               `json:"wrong_codes"`
	Verified      bool              `json:"verified"`
	// Failed: no correct code can be entered any more (wrong codes used
	// up, or the last code expired with no sends left).
	Failed bool `json:"failed"`
}

// settled: verified, or no longer verifiable.
func (p *PhoneState) settled() bool { return p != nil && (p.Verified || p.Failed) }

// PhoneRequest is what the end user entered.
type PhoneRequest struct {
	PhoneNumber string `json:"phone_number"`
	// Region is the ISO 3166-1 alpha-2 region of a number entered without
	// +; empty is US.
	Region string `json:"region,omitempty"`
	// Locale is the SMS's language (en, es); empty lets the provider choose.
	Locale string `json:"locale,omitempty"`
}

// PhoneView is the phone step as the page sees it: never the number, only
// its masked form.
type PhoneView struct {
	CodeSent     bool   `json:"code_sent"`
	Verified     bool   `json:"verified"`
	Failed       bool   `json:"failed"`
	Number       string `json:"number,omitempty"`
	SendsLeft    int    `json:"sends_left"`
	AttemptsLeft int    `json:"attempts_left"`
	// ResendIn and ExpiresIn are seconds until another code may be sent
	// and until the current code expires.
	ResendIn  int `json:"resend_in"`
	ExpiresIn int `json:"expires_in"`
}

// PhoneCheckAnswer is the outcome of entering a code.
type PhoneCheckAnswer struct {
	Verified     bool `json:"verified"`
	AttemptsLeft int  `json:"attempts_left"`
	// Settled: the step is over (verified, or not verifiable any more);
	// submit may follow.
	Settled bool `json:"settled"`
}

func (f *Flow) phoneLimits() PhoneLimits {
	if f.PhoneLimits == (PhoneLimits{}) {
		return DefaultPhoneLimits
	}
	return f.PhoneLimits
}

// phoneOffered reports whether the link has the phone step: requested at
// creation and a provider configured. A test link has it on the same terms
// (it has the steps a live one would), though its step runs on
// phone.TestProvider.
func (f *Flow) phoneOffered(v verifier.Verification) bool {
	if f.Phone == nil {
		return false
	}
	st, err := verifier.ParseSettings(v.Options)
	return err == nil && st.PhoneVerification
}

// phoneProvider is the provider of v's phone step. A test verification's
// never reaches the configured one, which may send real SMS and be paid
// for: it gets phone.TestProvider, chosen by the verification's mode,
// never by configuration.
func (f *Flow) phoneProvider(v verifier.Verification) phone.Provider {
	if v.Mode == verifier.ModeTest {
		return phone.TestProvider{}
	}
	return f.Phone
}

// newPhoneCode is a fresh code for v: phone.TestCode on a test
// verification, otherwise six digits from crypto/rand (never from f.Rand,
// a test's seeded source for challenge orders).
func newPhoneCode(v verifier.Verification) (string, error) {
	if v.Mode == verifier.ModeTest {
		return phone.TestCode, nil
	}
	return phone.NewCode(nil)
}

func (f *Flow) phoneView(p *PhoneState, now time.Time) *PhoneView {
	l := f.phoneLimits()
	view := &PhoneView{SendsLeft: l.Sends, AttemptsLeft: l.WrongCodes}
	if p == nil {
		return view
	}
	view.CodeSent, view.Verified, view.Failed = p.Code != nil, p.Verified, p.Failed
	if p.Number.E164 != "" {
		view.Number = p.Number.Masked()
	}
	view.SendsLeft = max(0, l.Sends-p.Sends)
	view.AttemptsLeft = max(0, l.WrongCodes-p.WrongCodes)
	if p.settled() {
		view.SendsLeft = 0
		return view
	}
	view.ResendIn = seconds(p.LastSentAt.Add(l.ResendAfter).Sub(now))
	if p.Code != nil {
		view.ExpiresIn = seconds(p.CodeExpiresAt.Sub(now))
	}
	return view
}

// seconds rounds d up to whole seconds, never below 0.
func seconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}

// PhoneSend checks the number the end user entered, looks it up and sends
// it a fresh one-time code (which voids the previous one). Bounded by
// PhoneLimits: sends per link and the time between them.
func (f *Flow) PhoneSend(ctx context.Context, token string, req PhoneRequest) (PhoneView, error) {
	v, s, err := f.phoneStep(ctx, token)
	if err != nil {
		return PhoneView{}, err
	}
	l, now := f.phoneLimits(), f.now()
	if err := sendAllowed(s.Phone, l, now); err != nil {
		return PhoneView{}, err
	}
	n, err := phone.Parse(req.PhoneNumber, req.Region)
	if errors.Is(err, phone.ErrInvalidRegion) {
		return PhoneView{}, &ProblemsError{Step: StepPhone, Problems: []Problem{ProblemPhoneRegion}}
	}
	if err != nil {
		return PhoneView{}, &ProblemsError{Step: StepPhone, Problems: []Problem{ProblemPhoneInvalid}}
	}
	if !n.TakesSMS() {
		return PhoneView{}, &ProblemsError{Step: StepPhone, Problems: []Problem{ProblemPhoneNotMobile}}
	}
	provider := f.phoneProvider(v)
	var look phone.Lookup
	if s.Phone != nil && s.Phone.Number.E164 == n.E164 {
		look = s.Phone.Lookup
	} else if err := f.countLookup(ctx, v, l); err != nil {
		return PhoneView{}, err
	} else if look, err = provider.Lookup(ctx, n); err != nil {
		if errors.Is(err, phone.ErrUndeliverable) {
			return PhoneView{}, &ProblemsError{Step: StepPhone, Problems: []Problem{ProblemPhoneInvalid}}
		}
		// The lookup only informs the result: without it the line type
		// is unknown and the code is still sent.
		f.log().Warn("phone lookup failed", "provider", provider.Name(), "err", err)
		look = phone.Lookup{LineType: phone.LineUnknown}
	}
	if !look.LineType.TakesSMS() {
		return PhoneView{}, &ProblemsError{Step: StepPhone, Problems: []Problem{ProblemPhoneNotMobile}}
	}
	// Reserve the send first, so concurrent requests cannot exceed the
	// limits; a send the provider refuses is given back.
	var before PhoneState
	if _, err := f.update(ctx, v, func(cur *Session) error {
		if err := phoneCollecting(cur); err != nil {
			return err
		}
		if err := sendAllowed(cur.Phone, l, now); err != nil {
			return err
		}
		if cur.Phone == nil {
			cur.Phone = &PhoneState{}
		}
		before = *cur.Phone
		cur.Phone.Sends++
		cur.Phone.LastSentAt = now
		return nil
	}); err != nil {
		return PhoneView{}, err
	}
	code, err := newPhoneCode(v)
	if err != nil {
		return PhoneView{}, f.unreserve(ctx, v, before, err)
	}
	hashed, err := phone.HashCode(nil, code)
	if err != nil {
		return PhoneView{}, f.unreserve(ctx, v, before, err)
	}
	ref, err := provider.Send(ctx, n, code, req.Locale)
	switch {
	case errors.Is(err, phone.ErrUndeliverable):
		return PhoneView{}, f.unreserve(ctx, v, before,
			&ProblemsError{Step: StepPhone, Problems: []Problem{ProblemPhoneUndeliverable}})
	case err != nil:
		f.log().Warn("phone code not sent", "provider", provider.Name(), "err", err)
		return PhoneView{}, f.unreserve(ctx, v, before, fmt.Errorf("%w: %w", ErrPhoneUnavailable, err))
	}
	s, err = f.update(ctx, v, func(cur *Session) error {
		if err := phoneCollecting(cur); err != nil {
			return err
		}
		p := cur.Phone
		p.Number, p.Lookup, p.Code, p.Ref = n, look, &hashed, ref
		p.CodeExpiresAt = now.Add(l.CodeTTL)
		return nil
	})
	if err != nil {
		return PhoneView{}, err
	}
	if err := f.markStarted(ctx, v); err != nil {
		return PhoneView{}, err
	}
	return *f.phoneView(s.Phone, now), nil
}

// countLookup uses one of the link's lookups, or refuses when none is left.
func (f *Flow) countLookup(ctx context.Context, v verifier.Verification, l PhoneLimits) error {
	_, err := f.update(ctx, v, func(cur *Session) error {
		if err := phoneCollecting(cur); err != nil {
			return err
		}
		if cur.Phone == nil {
			cur.Phone = &PhoneState{}
		}
		if cur.Phone.settled() {
			return fmt.Errorf("phone: %w: the phone step is over", ErrOutOfOrder)
		}
		if cur.Phone.Lookups >= l.Lookups {
			return ErrPhoneSendsExhausted
		}
		cur.Phone.Lookups++
		return nil
	})
	return err
}

// unreserve gives back a send reserved by PhoneSend that did not happen,
// and returns cause.
func (f *Flow) unreserve(ctx context.Context, v verifier.Verification, before PhoneState, cause error) error {
	if _, err := f.update(ctx, v, func(cur *Session) error {
		if cur.Phone != nil && !cur.Phone.settled() {
			cur.Phone.Sends, cur.Phone.LastSentAt = before.Sends, before.LastSentAt
		}
		return nil
	}); err != nil {
		return errors.Join(cause, err)
	}
	return cause
}

// sendAllowed: the step is not settled, sends are left and the last one
// is far enough back.
func sendAllowed(p *PhoneState, l PhoneLimits, now time.Time) error {
	if p == nil {
		return nil
	}
	if p.settled() {
		return fmt.Errorf("phone: %w: the phone step is over", ErrOutOfOrder)
	}
	if p.Sends >= l.Sends {
		return ErrPhoneSendsExhausted
	}
	if wait := p.LastSentAt.Add(l.ResendAfter).Sub(now); wait > 0 {
		return &WaitError{Wait: wait}
	}
	return nil
}

// PhoneCheck compares the code the end user entered with the one sent, in
// constant time. A wrong code uses one of the link's attempts; the last
// one ends the step unverified. A format error (not six digits) uses none.
func (f *Flow) PhoneCheck(ctx context.Context, token, rawCode string) (PhoneCheckAnswer, error) {
	v, s, err := f.phoneStep(ctx, token)
	if err != nil {
		return PhoneCheckAnswer{}, err
	}
	l := f.phoneLimits()
	if s.Phone == nil {
		return PhoneCheckAnswer{}, fmt.Errorf("phone: %w: request a code first", ErrOutOfOrder)
	}
	if s.Phone.settled() {
		return f.checkAnswer(s.Phone), nil
	}
	code, err := phone.ParseCode(rawCode)
	if err != nil {
		return PhoneCheckAnswer{}, &ProblemsError{Step: StepPhone, Problems: []Problem{ProblemCodeFormat}}
	}
	now := f.now()
	var confirm string
	s, err = f.update(ctx, v, func(cur *Session) error {
		if err := phoneCollecting(cur); err != nil {
			return err
		}
		p := cur.Phone
		if p.settled() {
			return nil
		}
		if p == nil || p.Code == nil {
			return fmt.Errorf("phone: %w: request a code first", ErrOutOfOrder)
		}
		if !now.Before(p.CodeExpiresAt) {
			if p.Sends < l.Sends {
				return ErrPhoneCodeExpired
			}
			p.Failed, p.Code = true, nil
			return nil
		}
		if p.Code.Matches(code) {
			p.Verified, p.Code, confirm = true, nil, p.Ref
			return nil
		}
		p.WrongCodes++
		if p.WrongCodes >= l.WrongCodes {
			p.Failed, p.Code = true, nil
		}
		return nil
	})
	if err != nil {
		return PhoneCheckAnswer{}, err
	}
	if confirm != "" {
		provider := f.phoneProvider(v)
		if err := provider.Confirm(ctx, confirm); err != nil {
			f.log().Warn("phone confirmation not recorded by the provider", "provider", provider.Name(), "err", err)
		}
	}
	return f.checkAnswer(s.Phone), nil
}

func (f *Flow) checkAnswer(p *PhoneState) PhoneCheckAnswer {
	return PhoneCheckAnswer{Verified: p.Verified, Settled: p.settled(),
		AttemptsLeft: max(0, f.phoneLimits().WrongCodes-p.WrongCodes)}
}

// phoneStep resolves the link for a phone request: the step must be
// offered and the session collecting. For PhoneCheck the session has a
// phone state (a code was sent).
func (f *Flow) phoneStep(ctx context.Context, token string) (verifier.Verification, Session, error) {
	v, err := f.link(ctx, token)
	if err != nil {
		return v, Session{}, err
	}
	if !f.phoneOffered(v) {
		return v, Session{}, fmt.Errorf("phone: %w: this verification has no phone step", ErrOutOfOrder)
	}
	s, err := f.load(ctx, v)
	if err != nil {
		return v, s, err
	}
	return v, s, phoneCollecting(&s)
}

func phoneCollecting(s *Session) error {
	if s.Phase != PhaseCollecting {
		return fmt.Errorf("phone: %w: the steps were submitted", ErrOutOfOrder)
	}
	return nil
}

// phoneResult is the result's phone_verification: nil when the step was
// not offered (the check could not run).
func phoneResult(p *PhoneState) *verifier.PhoneVerification {
	if p == nil || !p.settled() {
		return nil
	}
	lt := p.Lookup.LineType
	if lt == "" {
		lt = phone.LineUnknown
	}
	return &verifier.PhoneVerification{
		AreaCode: p.Number.AreaCode, Last3Digits: p.Number.Last3, Verified: p.Verified, LineType: string(lt),
		Lookup: verifier.PhoneLookup{PhoneNumber: p.Number.E164, CallerName: p.Lookup.CallerName, CarrierName: p.Lookup.CarrierName},
	}
}

func (f *Flow) log() *slog.Logger {
	if f.Log != nil {
		return f.Log
	}
	return slog.Default()
}
