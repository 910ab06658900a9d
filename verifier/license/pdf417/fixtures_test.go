package pdf417_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// Every real-world AAMVA barcode payload in the shared fixtures, malformed
// ones and non-ASCII bytes included, survives encode → tilted, compressed
// photo → Decode byte for byte.
func TestSharedFixturesRoundTrip(t *testing.T) {
	raw, err := os.ReadFile(testkit.Data(t, "testdata", "aamva", "fixtures.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fixtures []struct {
		Source string `json:"source"`
		Kind   string `json:"kind"`
		Data   string `json:"data"`
	}
	if err := json.Unmarshal(raw, &fixtures); err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, f := range fixtures {
		if !strings.HasPrefix(f.Kind, "pdf417") {
			continue // magnetic-stripe samples have no barcode
		}
		n++
		c := synth.Case{
			Name:    fmt.Sprintf("fixture/%02d", i),
			Payload: []byte(f.Data),
			EC:      3 + i%3,
			Module:  2 + i%2,
			Seed:    uint64(i),
			Degradation: synth.Degradation{
				RotationDeg: float64(i%7-3) * 4,
				JPEGQuality: 60,
			},
		}
		img, err := c.Render()
		if err != nil {
			t.Fatalf("%s (%s): %v", c.Name, f.Source, err)
		}
		got, rep, err := patient.Decode(context.Background(), img, nil)
		if err != nil {
			t.Errorf("%s (%s): %v; steps %+v", c.Name, f.Source, err, rep.Steps)
			continue
		}
		if !bytes.Equal(got, c.Payload) {
			t.Errorf("%s (%s): got %q, want %q", c.Name, f.Source, got, c.Payload)
		}
	}
	if n < 10 {
		t.Fatalf("only %d barcode fixtures found", n)
	}
}
