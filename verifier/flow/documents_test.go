package flow_test

import (
	"slices"
	"testing"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
)

// TestKindsAreTheAvailableDocuments: a verification may accept exactly the
// kinds the flow captures, so none is accepted that no page can capture,
// and none is captured that no verification may accept; each kind's steps
// are its own and liveness follows them.
func TestKindsAreTheAvailableDocuments(t *testing.T) {
	var names []verifier.DocumentKind
	for _, k := range flow.Kinds {
		names = append(names, k.Name)
		if len(k.Steps) == 0 || slices.Contains(k.Steps, flow.StepLiveness) || slices.Contains(k.Steps, flow.StepPhone) {
			t.Errorf("%s: steps %v: a kind lists its own capture steps only", k.Name, k.Steps)
		}
	}
	if !slices.Equal(names, verifier.AvailableDocuments) {
		t.Errorf("the flow captures %v, verifications may accept %v", names, verifier.AvailableDocuments)
	}
	if want := []flow.Step{flow.StepLicenseFront, flow.StepLicenseBack, flow.StepLiveness}; !slices.Equal(flow.Steps, want) {
		t.Errorf("a license link's steps %v, want %v", flow.Steps, want)
	}
}
