package flow

// Problems of a liveness upload, beside the image problems of engines.go:
// the client broke the frame budget or sent unusable timestamps. They are
// refused before any frame is judged and do not use the challenge.
const (
	ProblemFramesCount       Problem = "frames_count"
	ProblemFrameTooLarge     Problem = "frame_too_large"
	ProblemFrameNotJPEG      Problem = "frame_not_jpeg"
	ProblemTimestampsInvalid Problem = "timestamps_invalid"
)

// sentences is the one table of what the end user reads for each problem:
// what went wrong and what to do about it.
var sentences = map[Problem]string{
	ProblemImageUnsupported: "The photo could not be read. Send a JPEG, PNG or WebP photo taken with your camera.",
	ProblemImageTooLarge:    "The photo is too large. Send a photo of at most 10 MB and 40 megapixels.",

	ProblemCardNotFound: "We could not find your license in the photo. Lay it on a plain, dark surface and fit all four corners in the frame.",
	ProblemCardTooSmall: "Your license is too small in the photo. Hold the camera closer so the card fills most of the frame.",
	ProblemTooBlurry:    "The photo is blurry. Hold still, let the camera focus and try again.",
	ProblemGlare:        "Light is reflecting off your license. Tilt it slightly or move away from direct light.",
	ProblemAspect:       "The card does not have the shape of a driver's license. Photograph the whole card straight from above.",
	ProblemNoPortrait:   "We could not find the portrait on your license. Photograph the front side, with the photo visible.",

	ProblemBarcodeNotFound:   "We could not find the barcode. Photograph the back of your license with the whole barcode in the frame.",
	ProblemBarcodeTooSmall:   "Move closer so the barcode fills most of the frame.",
	ProblemBarcodeUnreadable: "The barcode could not be read. Move closer, avoid glare and hold still.",
	ProblemBarcodeInvalid:    "The barcode does not hold valid license data. Make sure you photograph a driver's license or ID card.",

	ProblemPageNotFound:     "We could not find your passport's photo page. Open the passport at the page with your photo, lay it flat and fit the whole page in the frame.",
	ProblemMRZNotFound:      "We could not find the two lines of letters and <<< at the bottom of the photo page. Fit the whole page in the frame, with the bottom edge visible.",
	ProblemMRZUnreadable:    "We could not read the two lines at the bottom of the photo page. Take another photo: hold still, avoid glare and fill the frame with the page.",
	ProblemDocumentSpecimen: "This is a sample passport, not a real one. Photograph your own passport.",

	ProblemFramesCount:       "The camera sent too few or too many frames. Start the check again and keep your face in view.",
	ProblemFrameTooLarge:     "A camera frame was too large. Start the check again.",
	ProblemFrameNotJPEG:      "A camera frame could not be read. Start the check again.",
	ProblemTimestampsInvalid: "The camera frames came without valid capture times. Start the check again.",

	ProblemPhoneInvalid:       "This is not a valid phone number. Check the digits, and start with + and the country code if it is not a US number.",
	ProblemPhoneRegion:        "The country of the phone number is not known. Start the number with + and the country code.",
	ProblemPhoneNotMobile:     "This number cannot receive text messages. Enter a mobile number.",
	ProblemPhoneUndeliverable: "We cannot send a text message to this number. Enter another mobile number.",
	ProblemCodeFormat:         "The code has six digits. Enter the six digits from the text message.",
}

// stepSentences are the sentences a step words its own way: the image
// problems the license's steps share with the passport's and the ID
// card's, about that document, and the zone's, which the passport's words
// place on its photo page, about the card's back.
var stepSentences = map[Step]map[Problem]string{
	StepPassportPage: {
		ProblemGlare:      "Light is reflecting off the photo page. Tilt the passport slightly or move away from direct light.",
		ProblemNoPortrait: "We could not find your photo on the page. Photograph the page with your photo, the whole page in the frame.",
	},
	StepIDCardFront: {
		ProblemCardNotFound: "We could not find your ID card in the photo. Lay it on a plain, dark surface and fit all four corners in the frame.",
		ProblemCardTooSmall: "Your ID card is too small in the photo. Hold the camera closer so the card fills most of the frame.",
		ProblemGlare:        "Light is reflecting off your ID card. Tilt it slightly or move away from direct light.",
		ProblemAspect:       "The card does not have the shape of an ID card. Photograph the whole card straight from above.",
		ProblemNoPortrait:   "We could not find the photo on your ID card. Photograph the front side, with your photo visible.",
	},
	StepIDCardBack: {
		ProblemCardNotFound:     "We could not find the back of your ID card in the photo. Lay it on a plain, dark surface and fit all four corners in the frame.",
		ProblemCardTooSmall:     "Your ID card is too small in the photo. Hold the camera closer so the card fills most of the frame.",
		ProblemGlare:            "Light is reflecting off your ID card. Tilt it slightly or move away from direct light.",
		ProblemMRZNotFound:      "We could not find the three lines of letters and <<< on the back of your ID card. Turn the card over and fit the whole back in the frame.",
		ProblemMRZUnreadable:    "We could not read the three lines on the back of your ID card. Take another photo: hold still, avoid glare and fill the frame with the card.",
		ProblemDocumentSpecimen: "This is a sample ID card, not a real one. Photograph your own ID card.",
	},
}

// StepSentence is the human sentence for p on step: the step's own
// wording where it has one, else Sentence's.
func StepSentence(step Step, p Problem) string {
	if s, ok := stepSentences[step][p]; ok {
		return s
	}
	return Sentence(p)
}

// Sentence is the human sentence for p; an unknown code (a newer engine)
// still gets a sentence the user can act on.
func Sentence(p Problem) string {
	if s, ok := sentences[p]; ok {
		return s
	}
	return "Something is wrong with this upload. Please try again."
}
