package card

import "image"

// ycc reads a decoded JPEG's planes directly: Y, Cb and Cr at a pixel
// (relative to its bounds' origin) by index arithmetic instead of
// YCbCrAt's conversion and COffset's switch per read. The finder blends
// or averages Y, Cb and Cr and converts the result once (toRGB): JFIF's
// conversion is linear, so that is the blend of the pixels' colours but
// where a channel clips.
type ycc struct {
	m *image.YCbCr
	// hs, vs are the chroma planes' subsampling shifts across and down.
	hs, vs uint
	// cx0, cy0 are the chroma coordinates of the bounds' origin.
	cx0, cy0 int
}

func newYCC(m *image.YCbCr) ycc {
	var hs, vs uint
	switch m.SubsampleRatio {
	case image.YCbCrSubsampleRatio422:
		hs = 1
	case image.YCbCrSubsampleRatio420:
		hs, vs = 1, 1
	case image.YCbCrSubsampleRatio440:
		vs = 1
	case image.YCbCrSubsampleRatio411:
		hs = 2
	case image.YCbCrSubsampleRatio410:
		hs, vs = 2, 1
	}
	return ycc{m: m, hs: hs, vs: vs, cx0: m.Rect.Min.X >> hs, cy0: m.Rect.Min.Y >> vs}
}

// at is Y, Cb and Cr of pixel (x, y) from the bounds' origin.
func (p ycc) at(x, y int) (yv, cb, cr float32) {
	m := p.m
	ax, ay := m.Rect.Min.X+x, m.Rect.Min.Y+y
	ci := ((ay>>p.vs)-p.cy0)*m.CStride + (ax >> p.hs) - p.cx0
	return float32(m.Y[y*m.YStride+x]), float32(m.Cb[ci]), float32(m.Cr[ci])
}

// row is row y's Y, Cb and Cr samples from the bounds' origin, and the
// bounds' left edge: pixel x of the row has Y yrow[x] and chroma at index
// (cx+x)>>hs − cx0 of cbrow and crrow, as at reads them.
func (p ycc) row(y int) (yrow, cbrow, crrow []uint8, cx int) {
	m := p.m
	ci := ((m.Rect.Min.Y+y)>>p.vs - p.cy0) * m.CStride
	return m.Y[y*m.YStride:], m.Cb[ci:], m.Cr[ci:], m.Rect.Min.X
}

// toRGB converts JFIF's Y, Cb, Cr (0–255) to R, G, B, unclamped.
func toRGB(yv, cb, cr float32) (r, g, b float32) {
	cb, cr = cb-128, cr-128
	return yv + 1.402*cr, yv - 0.344136*cb - 0.714136*cr, yv + 1.772*cb
}
