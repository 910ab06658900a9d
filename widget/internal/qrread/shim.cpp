// Translates shim.h to zxing-cpp 1.4; exceptions never cross into Go.
#include "shim.h"

#include <BarcodeFormat.h>
#include <DecodeHints.h>
#include <ImageView.h>
#include <ReadBarcode.h>

#include <cstring>
#include <exception>
#include <string>

static void copy_out(char* out, int out_len, const std::string& s)
{
	size_t n = std::min(s.size(), static_cast<size_t>(out_len - 1));
	std::memcpy(out, s.data(), n);
	out[n] = 0;
}

extern "C" int idg_qr_read(const uint8_t* lum, int width, int height, char* out, int out_len)
{
	try {
		ZXing::ImageView view(lum, width, height, ZXing::ImageFormat::Lum);
		ZXing::DecodeHints hints;
		hints.setFormats(ZXing::BarcodeFormat::QRCode);
		ZXing::Result res = ZXing::ReadBarcode(view, hints);
		if (!res.isValid())
			return 1;
		const ZXing::ByteArray& b = res.bytes();
		copy_out(out, out_len, std::string(b.begin(), b.end()));
		return 0;
	} catch (const std::exception& e) {
		copy_out(out, out_len, e.what());
	} catch (...) {
		copy_out(out, out_len, "unknown zxing-cpp exception");
	}
	return 2;
}
