package license

import "testing"

func BenchmarkParseAAMVA(b *testing.B) {
	raw := Encode(sampleUS(), MaxVersion)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := ParseAAMVA(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateStructure(b *testing.B) {
	raw := Encode(sampleUS(), MaxVersion)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if err := ValidateStructure(raw); err != nil {
			b.Fatal(err)
		}
	}
}
