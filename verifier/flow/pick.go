package flow

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier"
)

// The end user's pick of the document, on a link whose verification
// accepts several kinds (accepted_documents; docs/documents.md). A link
// accepting one kind needs no pick: its steps are that kind's.

// Errors of the pick and of a document step of another kind (409 each,
// with its own message: the page shows what to do).
var (
	// ErrDocumentNotChosen: a document step on a link accepting several
	// kinds before the end user picked one.
	ErrDocumentNotChosen = errors.New("no document chosen on this link")
	// ErrOtherDocument: a document step of a kind the link does not
	// accept, or not the kind chosen on it.
	ErrOtherDocument = errors.New("step of another document")
	// ErrDocumentFixed: a pick of another kind once a document step
	// passed, which fixed the kind.
	ErrDocumentFixed = errors.New("document already fixed")
)

// PickRequest is the body of POST /v/{token}/document.
type PickRequest struct {
	Document verifier.DocumentKind `json:"document"`
}

// checkPick validates a pick against the kinds the link accepts: named, a
// known kind, and among them (422 on field document).
func checkPick(k verifier.DocumentKind, accepted []verifier.DocumentKind) error {
	d := problem.Detail{Field: "document"}
	switch {
	case k == "":
		d.Code, d.Message = "required", "name the document: one of "+verifier.KindList(accepted)
	case !slices.Contains(verifier.DocumentKinds, k):
		d.Code, d.Message = "invalid_value", fmt.Sprintf("%q is not a document kind: one of %s", k, verifier.KindList(verifier.DocumentKinds))
	case !slices.Contains(accepted, k):
		d.Code, d.Message = "not_accepted", fmt.Sprintf("%s is not accepted on this link: one of %s", k, verifier.KindList(accepted))
	default:
		return nil
	}
	return &verifier.ValidationError{Fields: []problem.Detail{d}}
}

// Pick records the end user's document: a kind the link accepts. Picking
// again is allowed until a document step passes; then only the same kind
// (a retry) is, and another is ErrDocumentFixed. A pick is not a step: the
// verification stays pending. The answer is the link's View.
func (f *Flow) Pick(ctx context.Context, token string, k verifier.DocumentKind) (View, error) {
	v, err := f.link(ctx, token)
	if err != nil {
		return View{}, err
	}
	st, err := verifier.ParseSettings(v.Options)
	if err != nil {
		return View{}, fmt.Errorf("pick: %w", err)
	}
	accepted := st.Documents()
	if err := checkPick(k, accepted); err != nil {
		return View{}, err
	}
	if _, err := f.update(ctx, v, func(cur *Session) error {
		if was, ok := cur.chosen(accepted); ok && was.Name == k {
			return nil // already the session's kind: a retry
		}
		switch {
		case cur.documentStepPassed():
			return fmt.Errorf("pick: %w: %s was shown on this link", ErrDocumentFixed, cur.kind().Name)
		case cur.Phase != PhaseCollecting:
			return fmt.Errorf("pick: %w: the steps were submitted", ErrOutOfOrder)
		}
		cur.Document = k
		return nil
	}); err != nil {
		return View{}, err
	}
	return f.Session(ctx, token)
}

// stepKind is the kind a step of the session belongs to (empty for
// liveness and the phone), or why it may not run: a document step only
// of the kind chosen on the link (ErrDocumentNotChosen while a link
// accepting several has no pick, ErrOtherDocument otherwise).
func (s *Session) stepKind(accepted []verifier.DocumentKind, step Step) (verifier.DocumentKind, error) {
	k, ok := kindOfStep(step)
	if !ok {
		return "", nil
	}
	if !slices.Contains(accepted, k.Name) {
		return "", fmt.Errorf("%s: %w: this link does not accept %s", step, ErrOtherDocument, k.Name)
	}
	chosen, ok := s.chosen(accepted)
	switch {
	case !ok:
		return "", fmt.Errorf("%s: %w: pick one of %s first", step, ErrDocumentNotChosen, verifier.KindList(accepted))
	case chosen.Name != k.Name:
		return "", fmt.Errorf("%s: %w: %s was chosen on this link", step, ErrOtherDocument, chosen.Name)
	}
	return k.Name, nil
}
