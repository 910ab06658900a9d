// The only C++ in idgate: translate between the C ABI in shim.h and
// zxing-cpp 1.4. Exceptions never cross into Go.
#include "shim.h"

#include <BarcodeFormat.h>
#include <BitMatrix.h>
#include <CharacterSet.h>
#include <DecodeHints.h>
#include <ImageView.h>
#include <MultiFormatWriter.h>
#include <ReadBarcode.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

namespace {

void set_err(char* err, int err_len, const std::string& msg)
{
	if (err == nullptr || err_len <= 0)
		return;
	size_t n = std::min(msg.size(), static_cast<size_t>(err_len - 1));
	std::memcpy(err, msg.data(), n);
	err[n] = 0;
}

} // namespace

extern "C" int idg_pdf417_read(const uint8_t* lum, int width, int height, int stride, int try_harder,
                               uint8_t** out, int* out_len, char* err, int err_len)
{
	try {
		ZXing::ImageView view(lum, width, height, ZXing::ImageFormat::Lum, stride);
		ZXing::DecodeHints hints;
		hints.setFormats(ZXing::BarcodeFormat::PDF417);
		hints.setTryHarder(try_harder != 0);
		hints.setTryRotate(try_harder != 0);
		hints.setTryDownscale(try_harder != 0);
		ZXing::Result res = ZXing::ReadBarcode(view, hints);
		if (!res.isValid())
			return IDG_NOT_FOUND;
		// bytes() is the content before any character-set conversion: AAMVA
		// separators (LF, RS, CR) and non-ASCII bytes arrive untouched.
		const ZXing::ByteArray& b = res.bytes();
		*out_len = static_cast<int>(b.size());
		*out = static_cast<uint8_t*>(std::malloc(b.size() ? b.size() : 1));
		if (*out == nullptr) {
			set_err(err, err_len, "out of memory");
			return IDG_FAILED;
		}
		if (!b.empty())
			std::memcpy(*out, b.data(), b.size());
		return IDG_OK;
	} catch (const std::exception& e) {
		set_err(err, err_len, e.what());
	} catch (...) {
		set_err(err, err_len, "unknown zxing-cpp exception");
	}
	return IDG_FAILED;
}

extern "C" int idg_pdf417_write(const uint8_t* data, int len, int ec_level, uint8_t** out, int* width,
                                int* height, char* err, int err_len)
{
	try {
		// One wide character per byte with ISO 8859-1 keeps every byte value
		// as is; the UTF-8 std::string overload would reinterpret bytes >= 0x80.
		std::wstring text(static_cast<size_t>(len), L'\0');
		for (int i = 0; i < len; i++)
			text[i] = static_cast<wchar_t>(data[i]);
		ZXing::MultiFormatWriter writer(ZXing::BarcodeFormat::PDF417);
		writer.setEncoding(ZXing::CharacterSet::ISO8859_1).setEccLevel(ec_level).setMargin(0);
		ZXing::BitMatrix m = writer.encode(text, 0, 0);
		*width = m.width();
		*height = m.height();
		size_t n = static_cast<size_t>(m.width()) * static_cast<size_t>(m.height());
		*out = static_cast<uint8_t*>(std::malloc(n ? n : 1));
		if (*out == nullptr) {
			set_err(err, err_len, "out of memory");
			return IDG_FAILED;
		}
		for (int y = 0; y < m.height(); y++)
			for (int x = 0; x < m.width(); x++)
				(*out)[static_cast<size_t>(y) * m.width() + x] = m.get(x, y) ? 1 : 0;
		return IDG_OK;
	} catch (const std::exception& e) {
		set_err(err, err_len, e.what());
	} catch (...) {
		set_err(err, err_len, "unknown zxing-cpp exception");
	}
	return IDG_FAILED;
}

extern "C" void idg_free(void* p) { std::free(p); }
