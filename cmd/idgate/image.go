package main

import (
	"fmt"
	"image"

	"github.com/idgate/idgate/verifier/imgio"
)

// imageFile bounds the photos the commands read: a 12 MP JPEG is a few MB
// and a lossless PNG of a large photo well under 64 MB; the pixel bound
// is the end-user API's (40 MP).
var imageFile = imgio.Limits{MaxBytes: 64 << 20, MaxPixels: imgio.Upload.MaxPixels}

// readImage reads and decodes a JPEG, PNG or WebP file within imageFile,
// turned upright by its EXIF orientation.
func readImage(name string) (image.Image, error) {
	data, err := imgio.ReadFile(name, imageFile)
	if err != nil {
		return nil, err
	}
	img, err := imgio.DecodeImage(data, imageFile)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return img, nil
}
