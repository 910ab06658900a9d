package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

var (
	lastNames  = []string{"PUBLIC", "SAMPLE", "OCONNOR-SMITH", "NGUYEN", "GARCIA LOPEZ", "WASHINGTON"}
	firstNames = []string{"JOHN", "JANE", "MARIA", "ALEXANDRA", "LI", "CHRISTOPHER"}
	streets    = []string{"123 MAIN ST", "4818 S FEDERAL BLVD", "77 W 5TH AVE APT 12B", "1 INFINITE LOOP"}
	cities     = []string{"ANYTOWN", "DELRAY BEACH", "SPRINGFIELD", "SALT LAKE CITY"}
	states     = []struct{ code, iin string }{{"FL", "636010"}, {"CA", "636014"}, {"NY", "636001"}, {"TX", "636015"}, {"UT", "636040"}}
)

// Payload returns an AAMVA-like DL record (version 8 header, one DL
// subfile with correct offset and length) with LF element separators, the
// RS and CR of the header and a CR terminator: the control bytes a decoder
// must keep. It is realistic in shape and size (about 250-330 bytes), not a
// conformance fixture.
func Payload(rng *rand.Rand) []byte {
	st := states[rng.IntN(len(states))]
	date := func(y0, span int) string {
		return fmt.Sprintf("%02d%02d%04d", 1+rng.IntN(12), 1+rng.IntN(28), y0+rng.IntN(span))
	}
	elems := []string{
		"DCA" + []string{"C", "D", "M"}[rng.IntN(3)],
		"DCBNONE",
		"DCDNONE",
		"DBA" + date(2026, 8),
		"DCS" + lastNames[rng.IntN(len(lastNames))],
		"DAC" + firstNames[rng.IntN(len(firstNames))],
		"DADNONE",
		"DBD" + date(2018, 8),
		"DBB" + date(1940, 66),
		fmt.Sprintf("DBC%d", 1+rng.IntN(2)),
		"DAY" + []string{"BRO", "BLU", "GRN", "HAZ"}[rng.IntN(4)],
		fmt.Sprintf("DAU%03d in", 58+rng.IntN(20)),
		"DAG" + streets[rng.IntN(len(streets))],
		"DAI" + cities[rng.IntN(len(cities))],
		"DAJ" + st.code,
		fmt.Sprintf("DAK%05d%04d  ", rng.IntN(100000), rng.IntN(10000)),
		fmt.Sprintf("DAQ%c%012d", 'A'+rune(rng.IntN(26)), rng.Int64N(1e12)),
		fmt.Sprintf("DCF%020d", rng.Int64N(1e18)),
		"DCGUSA",
		"DDEN", "DDFN", "DDGN",
	}
	body := "DL" + strings.Join(elems, "\n") + "\r"
	const headerLen = 21 + 10 // fixed header plus one subfile designator
	header := fmt.Sprintf("@\n\x1e\rANSI %s080001DL%04d%04d", st.iin, headerLen, len(body))
	return []byte(header + body)
}
