// Package mrz parses and validates the machine-readable zone of travel
// documents (ICAO Doc 9303): TD3, the passport's two lines of 44 characters
// (Part 4), and TD1, the card's three lines of 30 (Part 5: passport cards,
// national ID cards). It is pure Go, standard library only, like
// verifier/license: the reader of photos (reader/) hands it text.
//
// Parse takes the zone as read, possibly with the look-alike misreads every
// OCR makes (0/O, 1/I, 5/S, 8/B, 2/Z), and either answers an MRZ whose every
// check digit holds or a coded error (errors.go). A look-alike is corrected
// by the field's character set where only one reading is allowed (a letter in
// a date is a digit, a digit in a name is a letter) and by the check digits
// where both are (document number, optional data); a correction is made only
// when exactly one reading validates (correct.go), never guessed.
//
// Where to look: mrz.go (MRZ, Format, Date), layout.go (where each field
// sits in TD1 and TD3), parse.go (Parse), correct.go (look-alikes),
// checkdigit.go (the 7-3-1 check digit), encode.go (Encode, for synthetic
// zones), errors.go.
package mrz
