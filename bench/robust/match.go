package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/match"
)

// matchPairs pairs each card photo whose face stands upright in the photo
// with another photo of the same person (the next of their five) and with
// a photo of someone else: `face compare CARD PHOTO`, as a reviewer or the
// issue's user would run it on a whole card photo.
func matchPairs(samples []cardSample, faces []labeled) (pairs []matchPair) {
	for _, s := range samples {
		if s.refuse || !s.upright {
			continue
		}
		same := s.person - s.person%5 + (s.person%5+1)%5
		other := (s.person + 5) % len(faces)
		pairs = append(pairs, matchPair{s, faces[same], true}, matchPair{s, faces[other], false})
	}
	return pairs
}

type matchPair struct {
	card  cardSample
	photo labeled
	same  bool
}

// compareAfter is today's Single on both images and the tier, or
// "refused" when either has no single usable face.
func compareAfter(a *face.Analyzer, p matchPair) (string, error) {
	photo, err := os.ReadFile(p.photo.path)
	if err != nil {
		return "", err
	}
	var fs [2]face.Face
	for i, data := range [][]byte{p.card.data, photo} {
		img, err := a.Decode(data)
		if err != nil {
			return "", err
		}
		fs[i], err = a.Single(img)
		switch {
		case errors.Is(err, face.ErrMultipleFaces), errors.Is(err, face.ErrNoFace), errors.Is(err, face.ErrFaceTooSmall):
			return "refused", nil
		case err != nil:
			return "", err
		}
	}
	r, err := face.DefaultOptions.Thresholds.Compare(fs[0].Descriptor[:], fs[1].Descriptor[:])
	return string(r.Tier), err
}

// compareBefore is the baseline's `face compare` on the same files.
func compareBefore(b *baseline, cardPath string, p matchPair) (string, error) {
	var rep struct {
		Score string `json:"face_match_score"`
	}
	err := b.run(&rep, "face", "compare", cardPath, p.photo.path)
	switch {
	case err == nil:
		return rep.Score, nil
	case faceRefusal(err):
		return "refused", nil
	}
	return "", err
}

// tiers counts outcomes per family (same person or not).
type tiers map[string]int

func (t tiers) String() string {
	out := ""
	for _, k := range []string{string(match.DefiniteMatch), string(match.LikelyMatch), string(match.PossibleMatch), string(match.NoMatch), "refused"} {
		out += fmt.Sprintf(" %s %d", k, t[k])
	}
	return out
}
