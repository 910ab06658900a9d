package engines_test

import (
	"context"
	"image"
	"testing"
)

// FuzzPhotos: any bytes sent as a front or back photo, or an ID card's
// back, are judged, never an error (nothing here is the server's fault)
// and never a panic; an accepted front always carries its headshot and
// descriptor, an accepted card back its document.
func FuzzPhotos(f *testing.F) {
	f.Add(encodeJPEG(f, image.NewGray(image.Rect(0, 0, 64, 48))))
	f.Add(pngHeader(3, 2))
	f.Add([]byte("RIFF\x20\x00\x00\x00WEBPVP8 "))
	f.Add([]byte("\xff\xd8\xff\xe1\x00\x10Exif\x00\x00MM\x00*\x00\x00\x00\x08"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e := loaded(t)
		front, err := e.Front(context.Background(), data)
		if err != nil {
			t.Fatalf("front: %v", err)
		}
		if len(front.Problems) == 0 && (front.Headshot == nil || len(front.Portrait) != 128) {
			t.Fatalf("accepted front without headshot or descriptor: %+v", front)
		}
		back, err := e.Back(context.Background(), data)
		if err != nil {
			t.Fatalf("back: %v", err)
		}
		if len(back.Problems) == 0 && back.License.DocumentNumber == "" && back.License.LastName == "" {
			t.Fatalf("accepted back without a license: %+v", back)
		}
		card, err := e.IDCardBack(context.Background(), data)
		if err != nil {
			t.Fatalf("id card back: %v", err)
		}
		if len(card.Problems) == 0 && card.Document == nil {
			t.Fatalf("accepted card back without a document: %+v", card)
		}
	})
}
