package pdf417

import (
	"context"
	"image"
)

// DecodeEstimating is d.Decode(ctx, img, nil) and EstimateModule(img)
// together: the estimate is the decode's own session's, which a step
// that shrinks the crop has measured already (the same crop, the same
// fit: the same value), so the symbol is located, straightened and
// fitted once, not twice. On the phone-model refusals the second
// EstimateModule cost 0.2-0.9 s a 5-12 MP photo, about a tenth of
// TestPhoneModelSetRefusals (2026-12-02).
func DecodeEstimating(ctx context.Context, d Decoder, img image.Image) (payload []byte, rep Report, module float64, moduleOK bool, err error) {
	var s *session
	payload, rep, err = d.decode(ctx, img, nil, &s)
	if s == nil {
		module, moduleOK = EstimateModule(img)
	} else {
		module, moduleOK = s.estimateModule()
	}
	return payload, rep, module, moduleOK, err
}
