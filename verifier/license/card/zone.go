package card

import "image"

// PersonalDataZone is where an AAMVA card prints its personal data (the
// Design Standard's zone II: name, address, dates, number) on the upright
// card b (Portrait.Upright's bounds): right of the portrait below the
// header in the horizontal layout, below the portrait in the vertical
// (under-21) one. The zone is generous — jurisdictions move fields about
// inside it — and leaves out the header band, the portrait column and the
// card's margin, where text-like print (state name, seal, microprint)
// would only add misreads.
func PersonalDataZone(b image.Rectangle) image.Rectangle {
	w, h := b.Dx(), b.Dy()
	if w >= h {
		// Horizontal: the portrait column ends at about 35% of the width
		// (34 mm of 85.6), the header at 17% of the height.
		return image.Rect(b.Min.X+w*36/100, b.Min.Y+h*20/100, b.Max.X-w*2/100, b.Max.Y-h*3/100)
	}
	// Vertical: the portrait ends at about half the height.
	return image.Rect(b.Min.X+w*3/100, b.Min.Y+h*53/100, b.Max.X-w*3/100, b.Max.Y-h*2/100)
}
