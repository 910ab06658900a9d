package pdf417_test

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/license/pdf417"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// The acceptance targets: every clean, rotated (≤ 20°), JPEG (≥ 40)
// and unevenly lit photo decodes, and at least 85% of the whole set.
var mustAll = map[string]bool{"clean": true, "rotation": true, "jpeg": true, "light": true}

const minOverall = 0.85

// patient has a budget no loaded CI machine will exhaust: these tests
// measure what the pipeline can read, not how fast (the budget has its own
// test on a fake clock; make bench times the default).
var patient = pdf417.Decoder{Budget: time.Minute}

func TestDegradedSet(t *testing.T) {
	const perKind = 8
	set := synth.Set(2026, perKind)
	ok := map[string]int{}
	wins := map[string]int{}
	var failures []string
	for _, c := range set {
		img, err := c.Render()
		if err != nil {
			t.Fatal(err)
		}
		got, rep, err := patient.Decode(context.Background(), img, nil)
		switch {
		case err == nil && bytes.Equal(got, c.Payload):
			ok[c.Kind]++
			wins[rep.Strategy]++
		case err == nil:
			// zxing has never been seen to return wrong bytes; if it
			// does, that is a failure of its own kind.
			t.Errorf("%s: decoded wrong bytes %q", c.Name, got)
		default:
			failures = append(failures, fmt.Sprintf("%s (%+v)", c.Name, c.Degradation))
		}
	}
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-10s %5s\n", "kind", "ok")
	total := 0
	for _, k := range synth.Kinds {
		fmt.Fprintf(&table, "%-10s %2d/%-2d\n", k, ok[k], perKind)
		total += ok[k]
	}
	rate := float64(total) / float64(len(set))
	fmt.Fprintf(&table, "%-10s %2d/%-2d %.0f%%\n", "overall", total, len(set), 100*rate)
	var names []string
	for s := range wins {
		names = append(names, s)
	}
	sort.Strings(names)
	for _, s := range names {
		fmt.Fprintf(&table, "won by %-22s %d\n", s, wins[s])
	}
	t.Log(table.String())
	for _, f := range failures {
		t.Log("no decode:", f)
	}
	for k := range mustAll {
		if ok[k] != perKind {
			t.Errorf("%s: %d/%d decoded, want all", k, ok[k], perKind)
		}
	}
	if rate < minOverall {
		t.Errorf("overall %.0f%%, want at least %.0f%%", 100*rate, 100*minOverall)
	}
}

// Clean symbols at every EC level and module size the set uses come back
// byte for byte, control characters included.
func TestCleanByteExactAcrossLevels(t *testing.T) {
	base := synth.Set(99, 1)[0] // a clean case
	for ec := 3; ec <= 5; ec++ {
		for module := 2; module <= 3; module++ {
			c := base
			c.EC, c.Module = ec, module
			c.Payload = append([]byte(nil), base.Payload...)
			c.Payload = append(c.Payload, "\r\n\x1e\x1c\x00\xe9"...)
			img, err := c.Render()
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := patient.Decode(context.Background(), img, nil)
			if err != nil {
				t.Fatalf("ec%d m%d: %v", ec, module, err)
			}
			if !bytes.Equal(got, c.Payload) {
				t.Fatalf("ec%d m%d: got %q, want %q", ec, module, got, c.Payload)
			}
		}
	}
}

// The locator reads the bar direction modulo 180°, and zxing reads a
// symbol upside down, so a card at any angle decodes, well beyond the
// set's ±20°.
func TestDecodeAnyOrientation(t *testing.T) {
	for i, deg := range []float64{35, 90, 180, 250} {
		c := synth.Set(uint64(40+i), 1)[0]
		c.RotationDeg = deg
		img, err := c.Render()
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := patient.Decode(context.Background(), img, nil)
		if err != nil || !bytes.Equal(got, c.Payload) {
			t.Errorf("%v°: %v", deg, err)
		}
	}
}
