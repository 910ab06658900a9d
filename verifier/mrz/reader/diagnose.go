package reader

import (
	"image"
	"math"
)

// Reading is one zone's cells as one of the two readings scored them:
// what bench/mrz -margins calibrates the margins on (the cells scored
// against the printed text).
type Reading struct {
	Fine bool    // the fine reading (fine.go), else the glyph matcher's
	Blur float64 // the templates' blur: σ pitches (fine), grid px (glyph matcher)
	// Scores: per line, per cell, every character's score (ocrb.Charset's
	// order).
	Scores [][][]float64
}

// Readings reads every zone Zones finds in img both ways, whatever the
// glyph matcher's margins (Read reads the fine way only the zones it
// left unsure).
func (r *Reader) Readings(img *image.Gray) []Reading {
	var out []Reading
	for z, err := range Zones(img, MatchPitch) {
		if err != nil {
			continue
		}
		g, cells := r.read(z)
		fine, blur := r.fineRead(z, cells, math.Inf(1))
		out = append(out, Reading{Blur: g.blur, Scores: scoresOf(cells)}, Reading{Fine: true, Blur: blur, Scores: scoresOf(fine)})
	}
	return out
}

func scoresOf(cells [][]cellRead) [][][]float64 {
	out := make([][][]float64, len(cells))
	for li, line := range cells {
		for _, c := range line {
			out[li] = append(out[li], c.scores)
		}
	}
	return out
}
