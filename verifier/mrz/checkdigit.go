package mrz

// charValue is a character's value in the check digit (Doc 9303 Part 3,
// 4.9): digits their value, A-Z 10-35, the filler '<' zero. ok is false for
// anything else.
func charValue(c byte) (v int, ok bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10, true
	case c == '<':
		return 0, true
	}
	return 0, false
}

// SameCheckValue reports whether a and b add the same to every check
// digit: their values equal modulo 10 (the weights 7, 3, 1 are prime to
// 10), so a check digit cannot tell one from the other.
func SameCheckValue(a, b byte) bool {
	va, _ := charValue(a)
	vb, _ := charValue(b)
	return va%10 == vb%10
}

// CheckDigit is the check digit of s (Doc 9303 Part 3, 4.9): each
// character's value times the repeating weights 7, 3, 1, summed, modulo 10.
// ok is false when s holds a character outside A-Z, 0-9 and '<'.
func CheckDigit(s string) (digit byte, ok bool) {
	weights := [3]int{7, 3, 1}
	sum := 0
	for i := 0; i < len(s); i++ {
		v, ok := charValue(s[i])
		if !ok {
			return 0, false
		}
		sum += v * weights[i%3]
	}
	return byte('0' + sum%10), true
}
