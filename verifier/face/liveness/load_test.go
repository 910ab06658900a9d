package liveness

import (
	"errors"
	"testing"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/models"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
)

// Load gives the engine and an analyzer over the installed set, and fails
// with ErrMissing (naming make models) where no set is installed.
func TestLoad(t *testing.T) {
	set := modelstest.Set(t)
	eng, an, err := Load(set.Dir, face.DefaultOptions, Defaults)
	if err != nil || eng == nil || an == nil {
		t.Fatalf("Load(%s) = %v, %v, %v", set.Dir, eng, an, err)
	}
	s, err := an.Frame(Frame{Data: foremanFile(t, 36)})
	if err != nil {
		t.Fatal(err)
	}
	if s.Descriptor == nil {
		t.Error("a frontal Foreman frame is not described")
	}
	if _, _, err := Load(t.TempDir(), face.DefaultOptions, Defaults); !errors.Is(err, models.ErrMissing) {
		t.Errorf("Load of an empty directory: %v, want ErrMissing", err)
	}
}
