package card

import "testing"

// TestOneSurfaceClipped: a white table clipped at saturation at the bright
// end of a light ramp is one surface with its darker, warmer end (the
// colours bench/robust's dark card on white measured beyond two of its
// sides), but not with a grey 1.65× darker (a wrong quad's surround at a
// ratio of 1.8), nor with a coloured surface, nor when neither is
// clipped and they differ in chromaticity.
func TestOneSurfaceClipped(t *testing.T) {
	for _, tc := range []struct {
		a, b [3]float32
		want bool
	}{
		{[3]float32{254, 254, 253}, [3]float32{232, 222, 208}, true},
		{[3]float32{232, 222, 208}, [3]float32{254, 254, 253}, true},
		{[3]float32{254, 254, 254}, [3]float32{150, 150, 150}, false},
		{[3]float32{254, 254, 254}, [3]float32{150, 190, 230}, false},
		{[3]float32{254, 240, 200}, [3]float32{160, 200, 200}, false},
		{[3]float32{200, 180, 150}, [3]float32{120, 130, 150}, false},
	} {
		if got := oneSurface(tc.a, tc.b); got != tc.want {
			t.Errorf("oneSurface(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
