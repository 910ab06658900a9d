package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/imgio"
	"github.com/idgate/idgate/verifier/license/card"
)

func init() {
	register(command{
		Name:    "license front",
		Summary: "find the card in a photo of a license front (JPEG, PNG or WebP) and print its corners, aspect, sharpness, glare, portrait face box (when the face models are installed), the problems the end-user flow would answer and timings as JSON: [--headshot OUT.jpg] IMAGE",
		Run:     runLicenseFront,
	})
}

// frontFace is the portrait face: Box is x, y, width, height on the
// corrected card (card.Width × card.Height) turned clockwise by Rotation.
type frontFace struct {
	Box      [4]int  `json:"box"`
	SizePx   float64 `json:"size_px"`
	Score    float32 `json:"score"`
	Rotation int     `json:"rotation"`
}

type frontReport struct {
	File string `json:"file"`
	// Problems are what the end-user flow would answer (empty: accepted).
	Problems  []flow.Problem  `json:"problems"`
	Width     int             `json:"width"`
	Height    int             `json:"height"`
	Corners   [4][2]int       `json:"corners"`
	Aspect    float64         `json:"aspect"`
	AspectOK  bool            `json:"aspect_ok"`
	Coverage  float64         `json:"coverage"`
	Sharpness float64         `json:"sharpness"`
	Glare     float64         `json:"glare"`
	CardError string          `json:"card_error,omitempty"`
	Face      *frontFace      `json:"face,omitempty"`
	FaceError string          `json:"face_error,omitempty"`
	Headshot  *headshotReport `json:"headshot,omitempty"`
	TimingsMS frontTimingsMS  `json:"timings_ms"`
}

type headshotReport struct {
	File  string `json:"file"`
	Bytes int    `json:"bytes"`
}

type frontTimingsMS struct {
	Decode     float64 `json:"decode"`
	Card       float64 `json:"card"`
	LoadModels float64 `json:"load_models,omitempty"`
	Portrait   float64 `json:"portrait,omitempty"`
	Headshot   float64 `json:"headshot,omitempty"`
}

// runLicenseFront prints the front's measurements and the problems the
// end-user flow would answer, through the same engines (and the same
// bounds: 10 MB, 40 MP). A photo in which no card is found fails; a card
// found but too small or too blurred is printed with card_error, since its
// measurements explain why. Missing face models leave out the face and say
// why in face_error.
func runLicenseFront(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("license front", flag.ContinueOnError)
	fs.SetOutput(stderr)
	headshot := fs.String("headshot", "", "write the license_photo crop (JPEG) to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: idgate license front [--headshot OUT.jpg] IMAGE")
	}
	rep := frontReport{File: fs.Arg(0)}
	data, err := imgio.ReadFile(rep.File, imgio.Upload)
	if err != nil {
		return err
	}
	x, err := examineFront(ctx, data, &rep)
	if err != nil {
		return fmt.Errorf("%s: %w", rep.File, err)
	}
	if x.Card.Aspect == 0 {
		return fmt.Errorf("%s: no card: %v (problems %v)", rep.File, x.CardErr, x.Problems)
	}
	rep.Problems = x.Problems
	if rep.Problems == nil {
		rep.Problems = []flow.Problem{}
	}
	rep.Width, rep.Height = x.Width, x.Height
	for i, p := range x.Card.Corners {
		rep.Corners[i] = [2]int{p.X, p.Y}
	}
	c := x.Card
	rep.Aspect, rep.AspectOK, rep.Coverage, rep.Sharpness, rep.Glare = c.Aspect, c.AspectOK, c.Coverage, c.Sharpness, c.Glare
	if x.CardErr != nil {
		rep.CardError = x.CardErr.Error()
	}
	t := x.Timings
	rep.TimingsMS.Decode, rep.TimingsMS.Card = ms(t.Decode), ms(t.Card)
	rep.TimingsMS.Portrait, rep.TimingsMS.Headshot = ms(t.Portrait), ms(t.Headshot)
	if p := x.CardPortrait; p != nil {
		b := p.Face.Box
		rep.Face = &frontFace{Box: [4]int{b.Min.X, b.Min.Y, b.Dx(), b.Dy()}, SizePx: p.Face.Size, Score: p.Face.Score, Rotation: p.Rotation}
	} else if rep.FaceError == "" && x.Card.Image != nil {
		rep.FaceError = card.ErrNoPortrait.Error()
	}
	if *headshot != "" && x.Headshot != nil {
		if err := os.WriteFile(*headshot, x.Headshot, 0o600); err != nil {
			return fmt.Errorf("write headshot: %w", err)
		}
		rep.Headshot = &headshotReport{File: *headshot, Bytes: len(x.Headshot)}
	}
	return printJSON(stdout, rep)
}

// examineFront runs the engines on the photo (one worker); without the
// face models it judges the card alone and says why in face_error.
func examineFront(ctx context.Context, data []byte, rep *frontReport) (engines.FrontExam, error) {
	start := time.Now()
	eng, err := engines.Load(engines.Config{Workers: 1})
	if err != nil {
		rep.FaceError = err.Error()
		return engines.ExamineCard(data)
	}
	rep.TimingsMS.LoadModels = sinceMS(start)
	return eng.ExamineFront(ctx, data)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
