package flow

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

var t0 = time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)

func challengeAt(nonce string, issued time.Time) IssuedChallenge {
	return IssuedChallenge{Challenge: liveness.Challenge{Nonce: nonce, IssuedAt: issued, ExpiresAt: issued.Add(2 * time.Minute)}}
}

// A new challenge voids the previous; a used, voided, expired or never
// issued one is refused, each for its own reason.
func TestChallengesAreSingleUse(t *testing.T) {
	var s Session
	if _, err := s.answerable("a", t0); !errors.Is(err, ErrChallengeUnknown) {
		t.Fatalf("no challenge: %v", err)
	}
	s.issue(challengeAt("a", t0))
	if ch, err := s.answerable("a", t0.Add(time.Minute)); err != nil || ch.Challenge.Nonce != "a" {
		t.Fatalf("current challenge refused: %v", err)
	}
	if _, err := s.answerable("a", t0.Add(2*time.Minute)); !errors.Is(err, ErrChallengeExpired) {
		t.Fatalf("at its deadline: %v, want expired", err)
	}
	s.issue(challengeAt("b", t0))
	if _, err := s.answerable("a", t0); !errors.Is(err, ErrChallengeVoided) {
		t.Fatalf("replaced challenge: %v, want voided", err)
	}
	if _, err := s.answerable("from-another-link", t0); !errors.Is(err, ErrChallengeUnknown) {
		t.Fatalf("foreign challenge: %v, want unknown", err)
	}
	s.Challenge.Answered = true
	if _, err := s.answerable("b", t0); !errors.Is(err, ErrChallengeUsed) {
		t.Fatalf("answered challenge: %v, want used", err)
	}
	for i := range 2 * maxVoided {
		s.issue(challengeAt(string(rune('c'+i)), t0))
	}
	if len(s.Voided) != maxVoided {
		t.Fatalf("%d voided nonces kept, want %d", len(s.Voided), maxVoided)
	}
}

func TestOrderAndReplay(t *testing.T) {
	var s Session
	if s.ready(Steps) {
		t.Fatal("an empty session is ready")
	}
	s.Front, s.Back = &FrontDone{}, &BackDone{}
	if s.ready(Steps) {
		t.Fatal("ready without liveness")
	}
	s.Live = &LiveDone{}
	if !s.ready(Steps) {
		t.Fatal("not ready with all three steps")
	}
	d := sha256.Sum256([]byte("photo"))
	s.remember(StepLicenseFront, Reply{Digest: d, Problems: []Problem{ProblemGlare}})
	if _, ok := s.replay(StepLicenseFront, sha256.Sum256([]byte("other"))); ok {
		t.Fatal("another photo replays")
	}
	if _, ok := s.replay(StepLicenseBack, d); ok {
		t.Fatal("the same photo on another step replays")
	}
	r, ok := s.replay(StepLicenseFront, d)
	var pe *ProblemsError
	if !ok || !errors.As(r.answer(StepLicenseFront, nil), &pe) || !reflect.DeepEqual(pe.Problems, []Problem{ProblemGlare}) {
		t.Fatalf("replay = %+v, %v", r, ok)
	}
}

// The session survives its JSON form (it is stored sealed as JSON), and
// finishing drops every piece of personal data.
func TestSessionJSONAndFinish(t *testing.T) {
	s := Session{VerificationID: "v", AccountID: "a", Phase: PhaseReviewOffered,
		Front: &FrontDone{CardFound: true, Headshot: []byte{0xFF, 0xD8, 0xFF}, Portrait: []float32{0.25, -0.5}},
		Back: &BackDone{License: license.License{FirstNames: "JANE", LastName: "DOE",
			DOB: license.Date{Year: 1990, Month: 2, Day: 3}, Address: license.Address{City: "SPRINGFIELD"}}},
		Live: &LiveDone{Selfie: []float32{0.125}}, BackIP: "203.0.113.9", SubmitIP: "203.0.113.9",
		Match: &match.Result{Tier: match.PossibleMatch, Distance: 0.6}, UpdatedAt: t0}
	s.issue(challengeAt("n", t0))
	s.remember(StepLicenseBack, Reply{Digest: sha256.Sum256([]byte("b")), Answer: []byte(`{"accepted":true}`)})
	raw, back := sealedAndBack(t, s)
	if !reflect.DeepEqual(back, s) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, s)
	}
	back.finish(ActionReview, "manual_review")
	raw, _ = json.Marshal(back)
	for _, pii := range []string{"JANE", "DOE", "SPRINGFIELD", "1990", "203.0.113.9", "headshot", "portrait", "selfie"} {
		if bytes.Contains(raw, []byte(pii)) {
			t.Errorf("finished session still holds %q: %s", pii, raw)
		}
	}
	if back.Phase != PhaseFinished || back.Finish != ActionReview || back.FinishStatus != "manual_review" || back.Match == nil {
		t.Errorf("finished session = %+v", back)
	}
}

func encoded(t *testing.T, w, h int, enc func(*bytes.Buffer, image.Image) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := enc(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestImageProblems(t *testing.T) {
	jpg := func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, nil) }
	pngEnc := func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) }
	small := encoded(t, 64, 48, jpg)
	for name, tc := range map[string]struct {
		data []byte
		want []Problem
	}{
		"jpeg":            {small, nil},
		"png":             {encoded(t, 64, 48, pngEnc), nil},
		"too many bytes":  {append(small, make([]byte, 2000)...), []Problem{ProblemImageTooLarge}},
		"too many pixels": {encoded(t, 200, 100, pngEnc), []Problem{ProblemImageTooLarge}},
		"gif":             {[]byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), []Problem{ProblemImageUnsupported}},
		"text":            {[]byte("hello"), []Problem{ProblemImageUnsupported}},
		"truncated jpeg":  {small[:20], []Problem{ProblemImageUnsupported}},
		"empty":           {nil, []Problem{ProblemImageUnsupported}},
		"zero-height png": {encodedZeroPNG(), []Problem{ProblemImageUnsupported}},
	} {
		if got := imageProblems(tc.data, 2000, 10_000); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}
}

// encodedZeroPNG is a PNG header declaring 1×0 pixels.
func encodedZeroPNG() []byte {
	return []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00")
}

func TestFramesProblems(t *testing.T) {
	jpg := encoded(t, 8, 8, func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, nil) })
	budget := FrameBudget{MinFrames: 2, MaxFrames: 3, MaxFrameBytes: len(jpg)}
	fr := func(ms int, data []byte) liveness.Frame {
		return liveness.Frame{Data: data, T: time.Duration(ms) * time.Millisecond}
	}
	for name, tc := range map[string]struct {
		frames []liveness.Frame
		want   []Problem
	}{
		"good":       {[]liveness.Frame{fr(0, jpg), fr(33, jpg)}, nil},
		"too few":    {[]liveness.Frame{fr(0, jpg)}, []Problem{ProblemFramesCount}},
		"too many":   {[]liveness.Frame{fr(0, jpg), fr(1, jpg), fr(2, jpg), fr(3, jpg)}, []Problem{ProblemFramesCount}},
		"too large":  {[]liveness.Frame{fr(0, jpg), fr(33, append(jpg, 0))}, []Problem{ProblemFrameTooLarge}},
		"png":        {[]liveness.Frame{fr(0, jpg), fr(33, []byte("\x89PNG\r\n\x1a\n"))}, []Problem{ProblemFrameNotJPEG}},
		"time stuck": {[]liveness.Frame{fr(10, jpg), fr(10, jpg)}, []Problem{ProblemTimestampsInvalid}},
		"all":        {[]liveness.Frame{fr(-1, []byte("x"))}, []Problem{ProblemFramesCount, ProblemFrameNotJPEG, ProblemTimestampsInvalid}},
	} {
		if got := framesProblems(tc.frames, budget); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}
	// 8×8 frames within 8×8 pass; within 4×16 (fewer pixels) do not.
	good := []liveness.Frame{fr(0, jpg), fr(33, jpg)}
	budget.MaxWidth, budget.MaxHeight = 8, 8
	if got := framesProblems(good, budget); got != nil {
		t.Errorf("frames at the pixel bound: %v", got)
	}
	budget.MaxWidth, budget.MaxHeight = 4, 15
	if got := framesProblems(good, budget); !reflect.DeepEqual(got, []Problem{ProblemFrameTooLarge}) {
		t.Errorf("frames over the pixel bound: %v", got)
	}
}

// Every problem code has its own sentence.
func TestEveryProblemHasASentence(t *testing.T) {
	seen := map[string]Problem{}
	for _, p := range []Problem{ProblemImageUnsupported, ProblemImageTooLarge, ProblemCardNotFound, ProblemCardTooSmall,
		ProblemTooBlurry, ProblemGlare, ProblemAspect, ProblemNoPortrait, ProblemBarcodeNotFound, ProblemBarcodeTooSmall, ProblemBarcodeUnreadable,
		ProblemBarcodeInvalid, ProblemFramesCount, ProblemFrameTooLarge, ProblemFrameNotJPEG, ProblemTimestampsInvalid,
		ProblemPhoneInvalid, ProblemPhoneRegion, ProblemPhoneNotMobile, ProblemPhoneUndeliverable, ProblemCodeFormat} {
		s, ok := sentences[p]
		if !ok {
			t.Errorf("%s has no sentence", p)
		}
		if q, dup := seen[s]; dup {
			t.Errorf("%s and %s share a sentence", p, q)
		}
		seen[s] = p
	}
	if Sentence("from_a_newer_engine") == "" {
		t.Error("an unknown code has no sentence")
	}
}

// A parsed license (every member the parser fills) survives the session's
// JSON form unchanged.
func TestParsedLicenseRoundTrip(t *testing.T) {
	raw := synth.Payload(rand.New(rand.NewPCG(11, 12)))
	l, err := license.ParseAAMVA(raw)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(BackDone{License: l})
	if err != nil {
		t.Fatal(err)
	}
	var back BackDone
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.License, l) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back.License, l)
	}
}

// FuzzImageProblems: the check every upload passes first never panics and
// names at most one problem.
func FuzzImageProblems(f *testing.F) {
	f.Add([]byte("\xFF\xD8\xFF\xE0"))
	f.Add(encodedZeroPNG())
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "))
	f.Fuzz(func(t *testing.T, data []byte) {
		if p := imageProblems(data, 1<<20, 4_000_000); len(p) > 1 {
			t.Fatalf("%v", p)
		}
	})
}

// sealedAndBack is s as the JSON the session is sealed as, and that JSON
// read back.
func sealedAndBack(t *testing.T, s Session) ([]byte, Session) {
	t.Helper()
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Session
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	return raw, back
}
