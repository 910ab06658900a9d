package flow

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier"
)

// View is what the page needs to show a link: never personal data.
type View struct {
	// Status is the verification's (pending, started, completed,
	// manual_review, expired or canceled), or review_offered while the end
	// user chooses.
	Status string `json:"status"`
	// Steps are the chosen document's (while a link accepting several
	// kinds has no pick, the first accepted kind's), liveness, then the
	// phone on links that have it.
	Steps []StepView `json:"steps"`
	// Documents are the kinds the link accepts (accepted_documents, in
	// order), and Document the end user's: their pick, the link's only
	// kind, or "" while a link accepting several has no pick (the page
	// then asks, POST /v/{token}/document).
	Documents []verifier.DocumentKind `json:"documents"`
	Document  verifier.DocumentKind   `json:"document"`
	// Message is the account holder's message to the end user.
	Message string `json:"message"`
	// RequestedFields are the license fields the account holder will
	// receive, and LicensePhoto whether the cropped license photo goes with
	// them, for informed consent.
	RequestedFields []string `json:"requested_fields"`
	LicensePhoto    bool     `json:"license_photo"`
	// FrontBarcodeMatch: the printed front will be read and checked
	// against the barcode (the result carries outcomes, not the text).
	FrontBarcodeMatch bool `json:"front_barcode_match"`
	// AddressVerification and LocationConsistency: the license address
	// and the connection's location will be checked, for the same
	// informed consent (the start screen lists every check).
	AddressVerification bool      `json:"address_verification"`
	LocationConsistency bool      `json:"location_consistency"`
	EncryptionMode      string    `json:"encryption_mode"`
	ExpiresAt           time.Time `json:"expires_at"`
	// ReviewAvailable: a submit's face match was inconclusive or failed and
	// the end user may now ask for manual review or decline it.
	ReviewAvailable      bool `json:"review_available"`
	LivenessAttemptsLeft int  `json:"liveness_attempts_left"`
	// Phone is the phone step's state, on links that have one.
	Phone *PhoneView `json:"phone,omitempty"`
	// Livemode is false behind a test verification's link: the page then
	// lets the tester pick the outcome (testmode.go) instead of scanning.
	Livemode bool `json:"livemode"`
	// UnreachableLinkHost is the link's host when a phone cannot be
	// expected to open it (a loopback or private address: IDGATE_PUBLIC_URL
	// unset on a dev machine), so the computer's page can say so beside
	// the QR code; empty otherwise. The HTTP layer, which knows the links'
	// base URL, fills it in.
	UnreachableLinkHost string `json:"unreachable_link_host"`
	// SiteOrigin is the origin of the site whose integration key created
	// the verification ("" for a bearer token's). A page that site opened
	// in its own tab names it in the link's fragment; the page believes
	// the fragment only when it names this origin, and then offers "Back
	// to" it (finish.ts).
	SiteOrigin string `json:"site_origin"`
}

// StepView is one step and whether it has passed.
type StepView struct {
	Name Step `json:"name"`
	Done bool `json:"done"`
}

// Session shows where the link stands, whatever its status (an expired or
// canceled link says so instead of refusing, so the page can explain).
// Reading never starts the verification.
func (f *Flow) Session(ctx context.Context, token string) (View, error) {
	v, err := f.link(ctx, token)
	if err != nil && !errors.Is(err, ErrLinkEnded) {
		return View{}, err
	}
	live := err == nil
	finished := v.Status == verifier.StatusCompleted || v.Status == verifier.StatusManualReview
	st, err := verifier.ParseSettings(v.Options)
	if err != nil {
		return View{}, fmt.Errorf("session: %w", err)
	}
	view := View{Status: string(v.Status), RequestedFields: st.RequestedFields, LicensePhoto: st.IncludeLicensePhoto,
		FrontBarcodeMatch: st.FrontBarcodeMatch, AddressVerification: st.AddressVerification, LocationConsistency: st.LocationConsistency,
		EncryptionMode: string(st.EncryptionKeyMode), ExpiresAt: v.ExpiresAt, Livemode: v.Mode.Livemode(), SiteOrigin: st.SiteOrigin}
	if view.RequestedFields == nil {
		view.RequestedFields = []string{}
	}
	if view.EncryptionMode == "" {
		view.EncryptionMode = "none"
	}
	s := newSession(v)
	if live {
		view.Message = v.Message
		if s, err = f.load(ctx, v); err != nil {
			return View{}, err
		}
		view.LivenessAttemptsLeft = f.attemptsLeft(&s)
		if s.Phase == PhaseReviewOffered {
			view.Status, view.ReviewAvailable = StatusReviewOffered, true
		}
	}
	view.Documents = st.Documents()
	if k, ok := s.chosen(view.Documents); ok {
		view.Document = k.Name
	}
	steps, err := f.steps(v, &s)
	if err != nil {
		return View{}, err
	}
	for _, step := range steps {
		view.Steps = append(view.Steps, StepView{Name: step, Done: finished || s.Done(step)})
	}
	if f.phoneOffered(v) && !finished && live {
		view.Phone = f.phoneView(s.Phone, f.now())
	}
	return view, nil
}
