package license

import (
	"context"
	"errors"
	"fmt"
	"image"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/license/pdf417"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// testScanner has a generous budget: these tests check what is read, not
// how fast, and must not fail on a loaded CI machine.
var testScanner = Scanner{Decoder: pdf417.Decoder{Budget: time.Minute}}

// scanDegradations gives each version a different, moderate degradation,
// so the set covers every kind once.
var scanDegradations = []synth.Degradation{
	{},
	{RotationDeg: 12},
	{Keystone: 0.1},
	{BlurSigma: 0.8},
	{Downscale: 0.8},
	{JPEGQuality: 50},
	{Light: 0.5},
	{NoiseSigma: 8},
	{RotationDeg: -6, JPEGQuality: 60, Light: 0.3},
	{RotationDeg: 18},
	{Keystone: 0.08, NoiseSigma: 5},
}

// TestScanRoundTrip: encode every version, print it as PDF417 on a card in
// a phone-sized photo, degrade the photo, scan it and compare the fields
// the version carries.
func TestScanRoundTrip(t *testing.T) {
	for v := 0; v <= MaxVersion; v++ {
		d := scanDegradations[v%len(scanDegradations)]
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			sample := sampleUS()
			c := synth.Case{Name: fmt.Sprintf("v%d", v), Payload: Encode(sample, v), EC: 4, Module: 3, Seed: uint64(1000 + v), Degradation: d}
			img, err := c.Render()
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			got, rep, err := testScanner.Scan(context.Background(), img)
			if err != nil {
				t.Fatalf("scan %+v: %v (report %+v)", d, err, rep)
			}
			if rep.Strategy == "" || len(got.Warnings) > 0 {
				t.Errorf("strategy %q warnings %+v", rep.Strategy, got.Warnings)
			}
			want, have := roundTripFields(sample, v), roundTripFields(got, v)
			for k, w := range want {
				if have[k] != w {
					t.Errorf("%s = %v, want %v", k, have[k], w)
				}
			}
		})
	}
}

// TestScanRejectsNonAAMVABarcodes: a readable PDF417 that is not an AAMVA
// payload is no decode.
func TestScanRejectsNonAAMVABarcodes(t *testing.T) {
	c := synth.Case{Name: "plain", Payload: []byte("HELLO, THIS IS NOT A DRIVER LICENSE 0123456789"), EC: 4, Module: 3, Seed: 7}
	img, err := c.Render()
	if err != nil {
		t.Fatal(err)
	}
	_, rep, err := testScanner.Scan(context.Background(), img)
	if !errors.Is(err, pdf417.ErrNoBarcode) {
		t.Fatalf("err %v", err)
	}
	rejected := false
	for _, s := range rep.Steps {
		rejected = rejected || len(s.Outcome) > 8 && s.Outcome[:8] == "rejected"
	}
	if !rejected {
		t.Errorf("no step rejected the payload: %+v", rep.Steps)
	}
}

func TestScanBlankImage(t *testing.T) {
	_, err := Scan(context.Background(), image.NewGray(image.Rect(0, 0, 640, 480)))
	if !errors.Is(err, pdf417.ErrNoBarcode) {
		t.Fatalf("err %v", err)
	}
}
