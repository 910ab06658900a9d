package liveness

import (
	"image"

	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/imgio"
)

// The selfie's sharpness is measured on the inner face (eyes, nose,
// mouth: a square of sharpSpan of the mesh's longer side about its
// centre, no background or hair edge), resampled to sharpSide px a side
// so that faces at different distances compare.
const (
	sharpSpan = 0.6
	sharpSide = 96
)

// faceSharpness is imgio.Sharpness of the inner face of img (NHWC RGB,
// 0..255) whose mesh extent is centred at c with longer side size.
func faceSharpness(img *tensor.Tensor, c [2]float64, size float64) (float64, error) {
	_, h, w, _, err := img.Dims4()
	if err != nil {
		return 0, err
	}
	half := sharpSpan * size / 2
	crop := tensor.New()
	if err := tensor.CropAndResize(crop, img,
		(c[1]-half)/float64(h-1), (c[0]-half)/float64(w-1), (c[1]+half)/float64(h-1), (c[0]+half)/float64(w-1),
		sharpSide, sharpSide, 0); err != nil {
		return 0, err
	}
	g := image.NewGray(image.Rect(0, 0, sharpSide, sharpSide))
	for i := range g.Pix {
		p := crop.Data[i*3 : i*3+3]
		g.Pix[i] = uint8(min(255, max(0, 0.299*p[0]+0.587*p[1]+0.114*p[2]+0.5)))
	}
	return imgio.Sharpness(g, 1), nil
}
