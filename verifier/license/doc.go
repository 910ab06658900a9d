// Package license reads the data a North American driver's license or ID card
// carries in its PDF417 barcode: the AAMVA DL/ID Card Design Standard format,
// versions 1 (2000) to 10 (2020), and the pre-standard "@AMVA"/"AAMVA"
// variants still seen in the field.
//
// ParseAAMVA is forgiving: real barcodes break the standard in small ways
// (wrong subfile lengths, missing separators, stray elements, non-ASCII
// noise), and each such repair is reported as a Warning instead of failing
// the scan. ValidateStructure is the strict counterpart the barcode decoder
// uses to tell a real AAMVA payload from a misread.
//
// Where to look: license.go (License, Warning), parse.go (ParseAAMVA),
// header.go, subfile.go, elements.go, names.go, physical.go (the pieces of
// a barcode), magstripe.go (magnetic-stripe tracks), validate.go
// (ValidateStructure), encode.go (Encode, for synthetic test barcodes),
// derive.go (Checks: age and expiry on a given day), catalog.go (the
// requested_fields names), iin.go (jurisdictions), front.go and
// fronttext.go (the printed front read by OCR, compared with the barcode).
// Reading images is in subpackages: pdf417 (the barcode), card (the card in
// a photo of its front), tesseract (OCR).
package license
