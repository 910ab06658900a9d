package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/faceengine"
)

func init() {
	register(command{
		Name:    "license front",
		Summary: "find the card in a photo of a license front (JPEG, PNG or WebP) and print its corners, aspect, sharpness, glare, portrait face box (when the face models are installed) and timings as JSON: [--headshot OUT.jpg] IMAGE",
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
	File      string          `json:"file"`
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

// runLicenseFront prints the front's measurements. A photo in which no
// card is found fails; a card found but too small or too blurred is
// printed with card_error, since its measurements explain why. Missing
// face models leave out the face and say why in face_error.
func runLicenseFront(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
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
	start := time.Now()
	img, err := readImage(rep.File)
	if err != nil {
		return err
	}
	rep.TimingsMS.Decode = sinceMS(start)
	rep.Width, rep.Height = img.Bounds().Dx(), img.Bounds().Dy()
	start = time.Now()
	c, err := card.AnalyzeFront(img)
	rep.TimingsMS.Card = sinceMS(start)
	if c.Aspect == 0 {
		return fmt.Errorf("%s: %w", rep.File, err)
	}
	for i, p := range c.Corners {
		rep.Corners[i] = [2]int{p.X, p.Y}
	}
	rep.Aspect, rep.AspectOK, rep.Coverage, rep.Sharpness, rep.Glare = c.Aspect, c.AspectOK, c.Coverage, c.Sharpness, c.Glare
	if err != nil {
		rep.CardError = err.Error()
	}
	if c.Image != nil {
		if err := frontPortrait(&rep, c, *headshot); err != nil {
			return err
		}
	}
	return printJSON(stdout, rep)
}

// frontPortrait fills the face (and writes the headshot) when the models
// load; only a failure past loading them is an error.
func frontPortrait(rep *frontReport, c card.Card, headshotFile string) error {
	start := time.Now()
	faces, err := faceengine.Load("")
	if err != nil {
		rep.FaceError = err.Error()
		return nil
	}
	rep.TimingsMS.LoadModels = sinceMS(start)
	start = time.Now()
	p, err := card.FindPortrait(c.Image, faces)
	rep.TimingsMS.Portrait = sinceMS(start)
	switch {
	case errors.Is(err, card.ErrNoPortrait):
		rep.FaceError = err.Error()
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", rep.File, err)
	}
	b := p.Face.Box
	rep.Face = &frontFace{Box: [4]int{b.Min.X, b.Min.Y, b.Dx(), b.Dy()}, SizePx: p.Face.Size, Score: p.Face.Score, Rotation: p.Rotation}
	if headshotFile == "" {
		return nil
	}
	start = time.Now()
	jpg, err := card.Headshot(p)
	if err != nil {
		return fmt.Errorf("%s: %w", rep.File, err)
	}
	rep.TimingsMS.Headshot = sinceMS(start)
	if err := os.WriteFile(headshotFile, jpg, 0o600); err != nil {
		return fmt.Errorf("write headshot: %w", err)
	}
	rep.Headshot = &headshotReport{File: headshotFile, Bytes: len(jpg)}
	return nil
}
