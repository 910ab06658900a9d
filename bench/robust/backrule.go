package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"

	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// backRuleShare is the back step's front rule as shipped (engines'
// portraitShare): a photo sent as the back with no barcode read and a
// face of this share of its shorter side or more is the front, answered
// barcode_not_found ("photograph the back").
const backRuleShare = 0.08

// benchBackRule sends rendered fronts and backs through the back step
// with the rule and without it (engines.BackAt with an infinite share)
// and prints what each answers: a front sent as the back should be told
// "not found" rather than "move closer" or "unreadable", and no genuine
// back should be told "not found" by the rule.
func benchBackRule(faces []labeled) error {
	eng, err := engines.Load(engines.Config{Workers: 1})
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(33, 2026))
	encode := func(img image.Image) ([]byte, error) {
		var buf bytes.Buffer
		err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
		return buf.Bytes(), err
	}
	type photo struct {
		front bool
		data  []byte
	}
	var photos []photo
	// Fronts: every design on a table, the card from 30% to 88% of a
	// 1600 px frame's width (the farther ones smaller than the front
	// step accepts).
	for i, d := range cardtest.Designs {
		for j, w := range []float64{480, 640, 800, 1000, 1200, 1400} {
			s := cardtest.Scene{FrameW: 1600, CardW: w, Aspect: card.ID1Aspect, Design: d, Surface: cardtest.Surfaces[(i+j)%len(cardtest.Surfaces)],
				RotationDeg: -15 + 30*rng.Float64(), Face: faces[(6*i+j)%len(faces)].img, Seed: uint64(500 + 6*i + j)}
			img, _ := s.Render()
			data, err := encode(img)
			if err != nil {
				return err
			}
			photos = append(photos, photo{front: true, data: data})
		}
	}
	// Backs: a barcode of 1–3 px modules, clean or degraded, so some are
	// read, some too small and some unreadable.
	degradations := []synth.Degradation{{}, {RotationDeg: 10}, {BlurSigma: 1.5}, {Downscale: 0.6}, {Keystone: 0.2, Light: 0.5}, {NoiseSigma: 10, JPEGQuality: 60}}
	for module := 1; module <= 3; module++ {
		for k, d := range degradations {
			for rep := range 2 {
				img, err := synth.Case{Name: "back", Payload: synth.Payload(rng), EC: 4, Module: module, Seed: uint64(700 + 20*module + 2*k + rep), Degradation: d}.Render()
				if err != nil {
					return err
				}
				data, err := encode(img)
				if err != nil {
					return err
				}
				photos = append(photos, photo{data: data})
			}
		}
	}
	fronts := 0
	for _, p := range photos {
		if p.front {
			fronts++
		}
	}
	type tally map[flow.Problem]int
	count := map[bool][2]tally{true: {{}, {}}, false: {{}, {}}}
	for _, p := range photos {
		for i, share := range []float64{backRuleShare, math.Inf(1)} {
			rep, err := eng.BackAt(context.Background(), p.data, share)
			if err != nil {
				return err
			}
			pr := flow.Problem("read")
			if len(rep.Problems) > 0 {
				pr = rep.Problems[0]
			}
			count[p.front][i][pr]++
		}
	}
	fmt.Printf("\nback step's front rule (a face ≥ %.2f of the shorter side, no barcode read: barcode_not_found), with → without it\n", backRuleShare)
	for _, front := range []bool{true, false} {
		name, n := "backs", len(photos)-fronts
		if front {
			name, n = "fronts sent as the back", fronts
		}
		with, without := count[front][0], count[front][1]
		fmt.Printf("%-24s (%d): read %d → %d, not found %d → %d, too small %d → %d, unreadable %d → %d, invalid %d → %d\n", name, n,
			with["read"], without["read"], with[flow.ProblemBarcodeNotFound], without[flow.ProblemBarcodeNotFound],
			with[flow.ProblemBarcodeTooSmall], without[flow.ProblemBarcodeTooSmall], with[flow.ProblemBarcodeUnreadable], without[flow.ProblemBarcodeUnreadable],
			with[flow.ProblemBarcodeInvalid], without[flow.ProblemBarcodeInvalid])
	}
	return nil
}
