// Package tesseract reads the printed text of a license front with
// Tesseract 5 (Debian's libtesseract-dev and tesseract-ocr-eng), through
// its C API. It is the second cgo package of the module, beside
// license/pdf417/zxing: OCR is a C++ engine with no Go equivalent of its
// quality. The C API is called directly rather than through gosseract:
// the grey pixels go in as they are (gosseract takes encoded images, so
// every card would be encoded to PNG and decoded again), the words come
// out with their confidences and line breaks in one call, and no C++
// bridge is compiled.
package tesseract

/*
#cgo pkg-config: tesseract
#cgo LDFLAGS: -lgomp
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <tesseract/capi.h>

#define MIN_ALT 20

// libgomp's: Tesseract's LSTM runs some loops in OpenMP parallel regions
// with a fixed thread count; with max active levels at 0 they run on the
// calling thread alone, so one reader uses one core, as the engines'
// worker pool assumes. The setting is the calling thread's, and Go makes
// a cgo call on whichever thread its goroutine is on: idg_read sets it
// again each time (set in idg_open alone, each other thread that read
// started a team of 3-4 spinning threads, TestReadStartsNoThreads).
extern void omp_set_max_active_levels(int);

static TessBaseAPI *idg_open(const char *datapath, char *err, int errlen) {
	omp_set_max_active_levels(0);
	TessBaseAPI *h = TessBaseAPICreate();
	if (TessBaseAPIInit2(h, datapath, "eng", OEM_LSTM_ONLY) != 0) {
		snprintf(err, errlen, "cannot load the eng language data (tesseract-ocr-eng)");
		TessBaseAPIDelete(h);
		return NULL;
	}
	TessBaseAPISetPageSegMode(h, PSM_SINGLE_BLOCK);
	// Cards print no dictionary words: names and numbers. The word
	// lists would bend a name toward an English word.
	TessBaseAPISetVariable(h, "load_system_dawg", "0");
	TessBaseAPISetVariable(h, "load_freq_dawg", "0");
	TessBaseAPISetVariable(h, "debug_file", "/dev/null");
	TessBaseAPISetVariable(h, "lstm_choice_mode", "2");
	return h;
}

// idg_read recognises the grey image and returns its words as
// "conf<TAB>line<TAB>left<TAB>right<TAB>word<TAB>chars\n" lines (malloc'd,
// for the caller to free).
static char *idg_read(TessBaseAPI *h, const unsigned char *pix, int w, int hgt, int stride, int ppi) {
	omp_set_max_active_levels(0);
	TessBaseAPISetImage(h, pix, w, hgt, 1, stride);
	TessBaseAPISetSourceResolution(h, ppi);
	if (TessBaseAPIRecognize(h, NULL) != 0) {
		TessBaseAPIClear(h);
		return NULL;
	}
	size_t cap = 1024, n = 0;
	char *out = malloc(cap);
	out[0] = 0;
	TessResultIterator *it = TessBaseAPIGetIterator(h);
	int line = -1;
	if (it != NULL) {
		do {
			const TessPageIterator *pit = TessResultIteratorGetPageIteratorConst(it);
			if (TessPageIteratorIsAtBeginningOf(pit, RIL_TEXTLINE)) line++;
			char *word = TessResultIteratorGetUTF8Text(it, RIL_WORD);
			if (word == NULL) continue;
			float conf = TessResultIteratorConfidence(it, RIL_WORD);
			int left = 0, top = 0, right = 0, bottom = 0;
			TessPageIteratorBoundingBox(pit, RIL_WORD, &left, &top, &right, &bottom);
			// The word's weakest character: LSTM word confidences stay
			// high over one misread glyph.
			// Each character: its confidence and its alternatives, the
			// LSTM's other readings of the glyph (lstm_choice_mode 2) at
			// MIN_ALT or more, ASCII letters and digits only, the chosen
			// one first: "conf:chars", separated by 0x1f.
			char alts[1024];
			size_t an = 0;
			TessResultIterator *sym = TessResultIteratorCopy(it);
			do {
				if (an > sizeof alts - 64) break;
				if (an > 0) alts[an++] = 0x1f;
				an += snprintf(alts + an, sizeof alts - an, "%.0f:", TessResultIteratorConfidence(sym, RIL_SYMBOL));
				char *t = TessResultIteratorGetUTF8Text(sym, RIL_SYMBOL);
				if (t != NULL && strlen(t) == 1) alts[an++] = t[0];
				TessDeleteText(t);
				TessChoiceIterator *ci = TessResultIteratorGetChoiceIterator(sym);
				if (ci != NULL) {
					do {
						const char *a = TessChoiceIteratorGetUTF8Text(ci);
						if (a != NULL && strlen(a) == 1 && TessChoiceIteratorConfidence(ci) >= MIN_ALT &&
						    ((a[0] >= '0' && a[0] <= '9') || (a[0] >= 'A' && a[0] <= 'Z') || (a[0] >= 'a' && a[0] <= 'z')) &&
						    an < sizeof alts - 64) alts[an++] = a[0];
					} while (TessChoiceIteratorNext(ci));
					TessChoiceIteratorDelete(ci);
				}
			} while (TessResultIteratorNext(sym, RIL_SYMBOL) &&
			         !TessPageIteratorIsAtBeginningOf(TessResultIteratorGetPageIteratorConst(sym), RIL_WORD));
			TessResultIteratorDelete(sym);
			alts[an] = 0;
			size_t need = strlen(word) + an + 40;
			if (n + need >= cap) {
				while (n + need >= cap) cap *= 2;
				out = realloc(out, cap);
			}
			n += snprintf(out + n, cap - n, "%.1f\t%d\t%d\t%d\t%s\t%s\n", conf, line, left, right, word, alts);
			TessDeleteText(word);
		} while (TessResultIteratorNext(it, RIL_WORD));
		TessResultIteratorDelete(it);
	}
	TessBaseAPIClear(h);
	return out;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"image"
	"strconv"
	"strings"
	"unsafe"

	"github.com/idgate/idgate/verifier/license"
)

// ErrRead: Tesseract failed on the image (not: found no text, which is an
// empty result).
var ErrRead = errors.New("tesseract: recognition failed")

// MaxPixels bounds one image: a card's personal-data zone at 10 px/mm is
// about 530 × 420.
const MaxPixels = 4 << 20

// Reader is one Tesseract engine. It is not safe for concurrent use: the
// engines give each worker its own.
type Reader struct {
	h *C.TessBaseAPI
}

// New loads the English model from dataDir ("" = the installed tessdata,
// or TESSDATA_PREFIX).
func New(dataDir string) (*Reader, error) {
	var cdir *C.char
	if dataDir != "" {
		cdir = C.CString(dataDir)
		defer C.free(unsafe.Pointer(cdir))
	}
	var errBuf [256]C.char
	h := C.idg_open(cdir, &errBuf[0], C.int(len(errBuf)))
	if h == nil {
		return nil, fmt.Errorf("tesseract: %s", C.GoString(&errBuf[0]))
	}
	return &Reader{h: h}, nil
}

// Close frees the engine.
func (r *Reader) Close() {
	if r.h != nil {
		C.TessBaseAPIEnd(r.h)
		C.TessBaseAPIDelete(r.h)
		r.h = nil
	}
}

// Set sets one of Tesseract's variables on this engine, for the reads
// that follow (bench/mrz restricts it to the zone's characters with
// tessedit_char_whitelist).
func (r *Reader) Set(name, value string) error {
	cn, cv := C.CString(name), C.CString(value)
	defer C.free(unsafe.Pointer(cn))
	defer C.free(unsafe.Pointer(cv))
	if C.TessBaseAPISetVariable(r.h, cn, cv) == 0 {
		return fmt.Errorf("tesseract: no variable %q", name)
	}
	return nil
}

// Words reads img (dark text on a light ground) at ppi pixels per inch
// and returns its words in reading order, with their confidence (0–100),
// line index and left and right edges.
func (r *Reader) Words(img *image.Gray, ppi int) ([]license.Word, error) {
	b := img.Bounds()
	if b.Dx() <= 0 || b.Dy() <= 0 {
		return nil, nil
	}
	if b.Dx()*b.Dy() > MaxPixels {
		return nil, fmt.Errorf("tesseract: %dx%d image over %d pixels", b.Dx(), b.Dy(), MaxPixels)
	}
	pix := img.Pix[img.PixOffset(b.Min.X, b.Min.Y):]
	cpix := C.CBytes(pix[:(b.Dy()-1)*img.Stride+b.Dx()])
	defer C.free(cpix)
	out := C.idg_read(r.h, (*C.uchar)(cpix), C.int(b.Dx()), C.int(b.Dy()), C.int(img.Stride), C.int(ppi))
	if out == nil {
		return nil, ErrRead
	}
	text := C.GoString(out)
	C.free(unsafe.Pointer(out))
	var words []license.Word
	for _, row := range strings.Split(text, "\n") {
		f := strings.SplitN(row, "\t", 6)
		if len(f) != 6 || strings.TrimSpace(f[4]) == "" {
			continue
		}
		conf, err1 := strconv.ParseFloat(f[0], 64)
		line, err2 := strconv.Atoi(f[1])
		left, err3 := strconv.Atoi(f[2])
		right, err4 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			continue
		}
		words = append(words, license.Word{Text: f[4], Conf: conf, Line: line, X0: left, X1: right, Chars: chars(f[5])})
	}
	return words, nil
}

// chars parses the shim's "conf:chars" list of a word's characters.
func chars(s string) []license.Char {
	var out []license.Char
	for _, c := range strings.Split(s, "\x1f") {
		conf, alts, ok := strings.Cut(c, ":")
		v, err := strconv.ParseFloat(conf, 64)
		if !ok || err != nil {
			continue
		}
		out = append(out, license.Char{Alts: alts, Conf: v})
	}
	return out
}
