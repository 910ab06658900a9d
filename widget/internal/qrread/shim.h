// C ABI over zxing-cpp's QR reader, for the widget's browser test.
#ifndef IDGATE_QRREAD_SHIM_H
#define IDGATE_QRREAD_SHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// idg_qr_read decodes the first QR code in an 8-bit luminance buffer into
// out (NUL-terminated, truncated to out_len-1). 0: decoded; 1: none found;
// 2: library error (message in out).
int idg_qr_read(const uint8_t* lum, int width, int height, char* out, int out_len);

#ifdef __cplusplus
}
#endif

#endif
