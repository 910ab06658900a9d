package flow

import (
	"crypto/sha256"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/license"
)

// Step names one of the end user's steps, in the order the page shows them.
type Step string

// The steps. A document kind lists its own (DocumentKind.Steps); liveness
// follows them, and the phone comes last on links that have it.
const (
	StepLicenseFront Step = "license_front"
	StepLicenseBack  Step = "license_back"
	StepPassportPage Step = "passport_page"
	StepIDCardFront  Step = "id_card_front"
	StepIDCardBack   Step = "id_card_back"
	StepLiveness     Step = "liveness"
)

// Phase is where the session is: collecting the steps, waiting for the end
// user's choice after an inconclusive or failed face match, or finished
// (the verification completed or went to manual review).
type Phase string

// The phases. Collecting → (submit) → finished, or → review_offered →
// (review | decline-review | submit) → finished. Nothing leaves finished.
const (
	PhaseCollecting    Phase = "collecting"
	PhaseReviewOffered Phase = "review_offered"
	PhaseFinished      Phase = "finished"
)

// Action names how a session was finished, so a retried call answers as
// the first one did.
type Action string

// The finishing actions.
const (
	ActionSubmit  Action = "submit"
	ActionReview  Action = "review"
	ActionDecline Action = "decline_review"
	// ActionLivenessExhausted: the last judged liveness attempt failed,
	// which completes the verification at once (exhausted.go).
	ActionLivenessExhausted Action = "liveness_exhausted"
)

// Session is one link's flow state. It holds personal data (the license,
// face descriptors, the headshot), so it is only ever stored sealed
// (Flow.save) and its personal members are dropped once the verification
// is finished.
type Session struct {
	VerificationID string `json:"verification_id"`
	AccountID      string `json:"account_id"`
	Phase          Phase  `json:"phase"`
	// Document is the kind of document the end user shows: their pick on
	// a link accepting several kinds (POST /v/{token}/document), or the
	// kind of the first document step passed, which fixes it. Absent on a
	// link accepting one kind until a step passes, and on every session
	// stored before the member: those are license links'
	// (documents.go, chosen).
	Document verifier.DocumentKind `json:"document,omitempty"`

	Front *FrontDone `json:"front,omitempty"`
	Back  *BackDone  `json:"back,omitempty"`
	// Passport is the passport's one step, its data page (passport.go).
	Passport *PassportDone `json:"passport,omitempty"`
	// IDCardFront and IDCardBack are the ID card's two steps, its front
	// (the portrait) and its back (the zone) (idcard.go).
	IDCardFront *FrontDone      `json:"id_card_front,omitempty"`
	IDCardBack  *IDCardBackDone `json:"id_card_back,omitempty"`
	Live        *LiveDone       `json:"live,omitempty"`
	// Phone is the phone step, on links that have it (phone.go).
	Phone *PhoneState `json:"phone,omitempty"`

	// Challenge is the one challenge that may be answered; a new one
	// replaces it, which voids the previous. Answered marks it used.
	Challenge *IssuedChallenge `json:"challenge,omitempty"`
	// Voided are the nonces of earlier challenges of this link (the last
	// few), so a stale one is told apart from one never issued here.
	Voided []string `json:"voided,omitempty"`
	// LivenessAttempts counts judged challenges.
	LivenessAttempts int `json:"liveness_attempts"`
	// Replies remember each step's last request (by digest) and its answer,
	// so a retried request answers the same without running the engines
	// or counting an attempt again.
	Replies map[Step]Reply `json:"replies,omitempty"`

	// Test is the tester's pick on a test verification's link (testmode.go);
	// it replaces the steps' measurements when the link completes.
	Test *TestPick `json:"test,omitempty"`

	// Match is the face match of the last submit (set with
	// PhaseReviewOffered and PhaseFinished).
	Match *match.Result `json:"match,omitempty"`
	// Finish is how the session was finished, and Status what the
	// verification became.
	Finish       Action `json:"finish,omitempty"`
	FinishStatus string `json:"finish_status,omitempty"`

	// Client IPs recorded at the step that reads the document (the
	// license's barcode, the passport's data page, the ID card's back)
	// and at submit (through trusted proxies), for IP intelligence.
	BackIP   string `json:"back_ip,omitempty"`
	SubmitIP string `json:"submit_ip,omitempty"`

	UpdatedAt time.Time `json:"updated_at"`
}

// FrontDone is an accepted license front.
type FrontDone struct {
	CardFound     bool      `json:"card_found"`
	ProportionsOK bool      `json:"proportions_ok"`
	FacePresent   bool      `json:"face_present"`
	Headshot      []byte    `json:"headshot,omitempty"`
	Portrait      []float32 `json:"portrait,omitempty"`
	// Printed is the front's text as read, kept (sealed, like the rest
	// of the session) until completion compares it with the barcode;
	// only when front_barcode_match was requested.
	Printed *license.Printed `json:"printed,omitempty"`
}

// BackDone is an accepted license back: a structurally valid barcode.
type BackDone struct {
	License license.License `json:"license"`
}

// LiveDone is a passed liveness challenge.
type LiveDone struct {
	Selfie []float32 `json:"selfie"`
}

// IssuedChallenge is a challenge with the budget it was issued with.
type IssuedChallenge struct {
	Challenge liveness.Challenge `json:"challenge"`
	Budget    FrameBudget        `json:"budget"`
	Answered  bool               `json:"answered"`
}

// Reply is a step's remembered request digest and answer.
type Reply struct {
	Digest [sha256.Size]byte `json:"digest"`
	// Exactly one of these is set.
	Answer   []byte    `json:"answer,omitempty"`   // the JSON sent on success
	Problems []Problem `json:"problems,omitempty"` // the 422's problems
}

// maxVoided bounds Session.Voided.
const maxVoided = 8

// Done reports which steps have passed.
func (s *Session) Done(step Step) bool {
	switch step {
	case StepLicenseFront:
		return s.Front != nil
	case StepLicenseBack:
		return s.Back != nil
	case StepPassportPage:
		return s.Passport != nil
	case StepIDCardFront:
		return s.IDCardFront != nil
	case StepIDCardBack:
		return s.IDCardBack != nil
	case StepLiveness:
		return s.Live != nil
	case StepPhone:
		return s.Phone.settled()
	}
	return false
}

// ready reports whether every one of the link's steps has passed, so
// submit may run.
func (s *Session) ready(steps []Step) bool {
	for _, st := range steps {
		if !s.Done(st) {
			return false
		}
	}
	return true
}

// issue makes ch the current challenge, voiding the previous one.
func (s *Session) issue(ch IssuedChallenge) {
	if s.Challenge != nil {
		s.Voided = append(s.Voided, s.Challenge.Challenge.Nonce)
		if len(s.Voided) > maxVoided {
			s.Voided = s.Voided[len(s.Voided)-maxVoided:]
		}
	}
	s.Challenge = &ch
}

// answerable is the current challenge if id names it and it may still be
// answered at now; otherwise the reason it is refused.
func (s *Session) answerable(id string, now time.Time) (*IssuedChallenge, error) {
	if s.Challenge == nil || s.Challenge.Challenge.Nonce != id {
		for _, v := range s.Voided {
			if v == id {
				return nil, ErrChallengeVoided
			}
		}
		return nil, ErrChallengeUnknown
	}
	if s.Challenge.Answered {
		return nil, ErrChallengeUsed
	}
	if !now.Before(s.Challenge.Challenge.ExpiresAt) {
		return nil, ErrChallengeExpired
	}
	return s.Challenge, nil
}

// replay is the remembered reply of step for a request with digest d.
func (s *Session) replay(step Step, d [sha256.Size]byte) (Reply, bool) {
	r, ok := s.Replies[step]
	return r, ok && r.Digest == d
}

func (s *Session) remember(step Step, r Reply) {
	if s.Replies == nil {
		s.Replies = map[Step]Reply{}
	}
	s.Replies[step] = r
}

// finish ends the session and drops its personal data: the result now
// holds what is kept, and the review images are stored apart.
func (s *Session) finish(a Action, status string) {
	s.Phase, s.Finish, s.FinishStatus = PhaseFinished, a, status
	s.Front, s.Back, s.Passport, s.IDCardFront, s.IDCardBack = nil, nil, nil, nil, nil
	s.Live, s.Challenge, s.Voided, s.Replies, s.Phone = nil, nil, nil, nil, nil
	s.BackIP, s.SubmitIP = "", ""
}
