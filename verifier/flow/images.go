package flow

import (
	"bytes"
	"image"
	_ "image/jpeg" // registers JPEG for DecodeConfig
	_ "image/png"  // registers PNG
	"net/http"

	_ "golang.org/x/image/webp" // registers WebP
)

// imageProblems checks an upload before any engine sees it: the format is
// sniffed from the bytes (the Content-Type header is not trusted) and must
// be JPEG, PNG or WebP; the bytes and the pixel count its header declares
// must be within bounds. Only the header is read, so a decompression bomb
// costs nothing here.
func imageProblems(data []byte, maxBytes, maxPixels int) []Problem {
	if len(data) > maxBytes {
		return []Problem{ProblemImageTooLarge}
	}
	if !sniffImage(data) {
		return []Problem{ProblemImageUnsupported}
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return []Problem{ProblemImageUnsupported}
	}
	if cfg.Width > maxPixels/cfg.Height {
		return []Problem{ProblemImageTooLarge}
	}
	return nil
}

// sniffImage reports whether data starts like a JPEG, PNG or WebP file.
func sniffImage(data []byte) bool {
	switch http.DetectContentType(data) {
	case "image/jpeg", "image/png", "image/webp":
		return true
	}
	return false
}

// sniffJPEG reports whether data starts like a JPEG file (liveness frames
// are JPEG only).
func sniffJPEG(data []byte) bool { return http.DetectContentType(data) == "image/jpeg" }
