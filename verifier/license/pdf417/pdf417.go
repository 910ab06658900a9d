// Package pdf417 reads the PDF417 barcode on the back of a driver's license
// from a phone photo. zxing-cpp (package zxing) does the symbol decoding; this
// package finds the symbol, turns it upright, scales and cleans it first,
// because the library alone fails on any tilt of about 2.5° or more.
//
// Decode tries a fixed order of strategies, cheapest first, under a time
// budget, and hands each decoded payload to the caller's accept function: a
// payload that fails the caller's structural validation counts as no decode
// and the next strategy runs.
package pdf417

import (
	"errors"
	"time"
)

// Errors callers branch on.
var (
	// ErrNoBarcode means no strategy produced an accepted payload. When the
	// budget ran out first the error also matches context.DeadlineExceeded.
	ErrNoBarcode = errors.New("pdf417: no barcode decoded")
	// ErrImageTooLarge means the image has more than MaxPixels pixels; it
	// is rejected before any work.
	ErrImageTooLarge = errors.New("pdf417: image too large")
)

const (
	// MaxPixels bounds the input: 40 MP covers every phone camera in use
	// while keeping the grey copy under 40 MB.
	MaxPixels = 40_000_000
	// DefaultBudget applies when the context carries no earlier deadline.
	DefaultBudget = 1500 * time.Millisecond
)

// Report says how a Decode went.
type Report struct {
	// Strategy names the step that produced the accepted payload; empty
	// when none did.
	Strategy string `json:"strategy,omitempty"`
	// Steps lists every step tried, in order.
	Steps []Step `json:"steps"`
	// Total is the wall time of the whole call.
	Total time.Duration `json:"total_ns"`
	// Regions is how many barcode-like regions the locator found (at most
	// two); 0 also when no step needed it. With Strategy empty, a region
	// means a symbol was seen but not read.
	Regions int `json:"regions"`
	// ModulePx is the module width of the first region in photo pixels,
	// estimated from its start and stop bars when no strategy decoded
	// (0 when it decoded, no region was found or no thick bar was
	// measurable). TooSmall compares it with MinModulePx.
	ModulePx float64 `json:"module_px,omitempty"`
	// EdgePx is how far the symbol's outer edge spreads (10-90%, photo
	// pixels), measured with ModulePx: large when the photo is out of
	// focus or shaken.
	EdgePx float64 `json:"edge_px,omitempty"`
}

// Step is one attempt.
type Step struct {
	Strategy string        `json:"strategy"`
	Duration time.Duration `json:"duration_ns"`
	// Outcome is "decoded", "not found", "skipped: <why>",
	// "rejected: <accept error>" or "error: <zxing-cpp exception>".
	Outcome string `json:"outcome"`
}
