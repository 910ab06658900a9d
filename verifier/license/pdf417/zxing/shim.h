// C ABI over the few zxing-cpp calls idgate uses: PDF417 read and write.
#ifndef IDGATE_ZXING_SHIM_H
#define IDGATE_ZXING_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Result codes shared by both calls.
enum {
	IDG_OK = 0,
	IDG_NOT_FOUND = 1, // no PDF417 symbol decoded
	IDG_FAILED = 2     // library error (message in err)
};

// idg_pdf417_read decodes the first PDF417 symbol in an 8-bit luminance
// buffer. On IDG_OK *out holds *out_len raw content bytes (malloc'd; free with
// idg_free).
int idg_pdf417_read(const uint8_t* lum, int width, int height, int stride, int try_harder,
                    uint8_t** out, int* out_len, char* err, int err_len);

// idg_pdf417_write encodes data byte for byte (ISO 8859-1, no ECI) at the
// given error-correction level (0-8) with one pixel per module and no quiet
// zone. On IDG_OK *out holds the width*height module grid, 1 = dark bar.
int idg_pdf417_write(const uint8_t* data, int len, int ec_level, uint8_t** out, int* width,
                     int* height, char* err, int err_len);

void idg_free(void* p);

#ifdef __cplusplus
}
#endif

#endif
