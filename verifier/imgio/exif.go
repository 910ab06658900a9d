package imgio

import (
	"encoding/binary"
	"image"

	"github.com/idgate/idgate/verifier/face/tensor"
)

// orientation returns the EXIF orientation (1..8) of a JPEG, PNG or WebP
// image, or 1 when there is none. Phones store portrait photos sideways
// and set this tag; ignoring it would hand the detector a face lying on
// its side. Browsers honour it in all three formats, so we do too.
func orientation(b []byte) int {
	switch {
	case len(b) >= 2 && b[0] == 0xFF && b[1] == 0xD8:
		return jpegOrientation(b)
	case len(b) >= 8 && string(b[:8]) == "\x89PNG\r\n\x1a\n":
		return pngOrientation(b)
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return webpOrientation(b)
	}
	return 1
}

// jpegOrientation reads a JPEG's orientation: it walks the marker segments
// up to the image data and reads tag 0x0112 from IFD0 of the APP1 EXIF
// segment, bounds-checking every offset.
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

// pngOrientation reads the eXIf chunk (a bare TIFF structure, PNG 1.5
// extensions). Chunks are length, type, data, CRC; the CRC is not checked
// (the image decoder does that for the chunks it needs).
func pngOrientation(b []byte) int {
	for i := 8; i+12 <= len(b); {
		typ := string(b[i+4 : i+8])
		if int64(binary.BigEndian.Uint32(b[i:])) > int64(len(b)-i-12) || typ == "IEND" {
			return 1
		}
		n := int(binary.BigEndian.Uint32(b[i:]))
		if typ == "eXIf" {
			return orDefault(tiffOrientation(exifPayload(b[i+8 : i+8+n])))
		}
		i += 12 + n
	}
	return 1
}

// webpOrientation reads the EXIF chunk of an extended (VP8X) WebP. RIFF
// chunks are fourcc, little-endian length, data padded to an even length.
func webpOrientation(b []byte) int {
	for i := 12; i+8 <= len(b); {
		if int64(binary.LittleEndian.Uint32(b[i+4:])) > int64(len(b)-i-8) {
			return 1
		}
		n := int(binary.LittleEndian.Uint32(b[i+4:]))
		if string(b[i:i+4]) == "EXIF" {
			return orDefault(tiffOrientation(exifPayload(b[i+8 : i+8+n])))
		}
		i += 8 + n + n&1
	}
	return 1
}

// exifPayload drops the "Exif\0\0" prefix some writers put before the TIFF
// header in PNG and WebP (it belongs only to JPEG's APP1).
func exifPayload(b []byte) []byte {
	if len(b) >= 6 && string(b[:6]) == "Exif\x00\x00" {
		return b[6:]
	}
	return b
}

func orDefault(o int) int {
	if o == 0 {
		return 1
	}
	return o
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
	ow, oh := uprightSize(o, w, h)
	out := tensor.New(1, oh, ow, 3)
	for y := range oh {
		for x := range ow {
			sx, sy := source(o, x, y, w, h)
			copy(out.Data[(y*ow+x)*3:(y*ow+x)*3+3], img.Data[(sy*w+sx)*3:(sy*w+sx)*3+3])
		}
	}
	return out
}

// orientRGBA returns img (origin at 0, 0) turned upright for EXIF
// orientation o.
func orientRGBA(img *image.RGBA, o int) *image.RGBA {
	if o <= 1 || o > 8 {
		return img
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	ow, oh := uprightSize(o, w, h)
	out := image.NewRGBA(image.Rect(0, 0, ow, oh))
	for y := range oh {
		for x := range ow {
			sx, sy := source(o, x, y, w, h)
			copy(out.Pix[out.PixOffset(x, y):][:4], img.Pix[img.PixOffset(sx, sy):])
		}
	}
	return out
}

// uprightSize is the upright picture's width and height for a w × h
// stored one.
func uprightSize(o, w, h int) (int, int) {
	if o >= 5 { // the four orientations that swap the axes
		return h, w
	}
	return w, h
}

// source maps upright pixel (x, y) to the stored w × h picture's pixel
// for EXIF orientation o (2..8).
func source(o, x, y, w, h int) (sx, sy int) {
	switch o {
	case 2: // mirrored
		return w - 1 - x, y
	case 3: // upside down
		return w - 1 - x, h - 1 - y
	case 4: // mirrored upside down
		return x, h - 1 - y
	case 5: // transposed
		return y, x
	case 6: // needs 90° clockwise
		return y, h - 1 - x
	case 7: // transverse
		return w - 1 - y, h - 1 - x
	case 8: // needs 90° counter-clockwise
		return w - 1 - y, x
	}
	return x, y
}
