package imgio

import (
	"encoding/binary"

	"github.com/idgate/idgate/verifier/face/tensor"
)

// jpegOrientation returns the EXIF orientation (1..8) of a JPEG, or 1 when
// there is none or the data is not a JPEG. Phones store portrait photos
// sideways and set this tag; ignoring it would hand the detector a face
// lying on its side. It walks the marker segments up to the image data and
// reads tag 0x0112 from IFD0, bounds-checking every offset.
func jpegOrientation(b []byte) int {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		return 1
	}
	for i := 2; i+4 <= len(b); {
		if b[i] != 0xFF {
			return 1
		}
		marker := b[i+1]
		if marker == 0xFF { // fill byte
			i++
			continue
		}
		if marker == 0xDA || marker == 0xD9 { // start of scan / end of image
			return 1
		}
		size := int(binary.BigEndian.Uint16(b[i+2:]))
		if size < 2 || i+2+size > len(b) {
			return 1
		}
		seg := b[i+4 : i+2+size]
		if marker == 0xE1 && len(seg) >= 6 && string(seg[:6]) == "Exif\x00\x00" {
			if o := tiffOrientation(seg[6:]); o != 0 {
				return o
			}
		}
		i += 2 + size
	}
	return 1
}

// tiffOrientation reads the orientation tag from a TIFF structure (the
// EXIF payload); 0 when absent or malformed.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	var bo binary.ByteOrder
	switch string(t[:4]) {
	case "II*\x00":
		bo = binary.LittleEndian
	case "MM\x00*":
		bo = binary.BigEndian
	default:
		return 0
	}
	ifd := int(bo.Uint32(t[4:]))
	if ifd < 8 || ifd+2 > len(t) {
		return 0
	}
	n := int(bo.Uint16(t[ifd:]))
	for k := range n {
		e := ifd + 2 + 12*k
		if e+12 > len(t) {
			return 0
		}
		if bo.Uint16(t[e:]) != 0x0112 {
			continue
		}
		if bo.Uint16(t[e+2:]) != 3 { // SHORT
			return 0
		}
		if o := int(bo.Uint16(t[e+8:])); o >= 1 && o <= 8 {
			return o
		}
		return 0
	}
	return 0
}

// orient returns img turned upright for EXIF orientation o.
func orient(img *tensor.Tensor, o int) *tensor.Tensor {
	if o <= 1 || o > 8 {
		return img
	}
	h, w := img.Shape[1], img.Shape[2]
	oh, ow := h, w
	if o >= 5 { // the four orientations that swap the axes
		oh, ow = w, h
	}
	out := tensor.New(1, oh, ow, 3)
	for y := range oh {
		for x := range ow {
			var sx, sy int
			switch o {
			case 2: // mirrored
				sx, sy = w-1-x, y
			case 3: // upside down
				sx, sy = w-1-x, h-1-y
			case 4: // mirrored upside down
				sx, sy = x, h-1-y
			case 5: // transposed
				sx, sy = y, x
			case 6: // needs 90° clockwise
				sx, sy = y, h-1-x
			case 7: // transverse
				sx, sy = w-1-y, h-1-x
			case 8: // needs 90° counter-clockwise
				sx, sy = w-1-y, x
			}
			copy(out.Data[(y*ow+x)*3:(y*ow+x)*3+3], img.Data[(sy*w+sx)*3:(sy*w+sx)*3+3])
		}
	}
	return out
}
