package ipintel_test

import (
	"errors"
	"net/netip"
	"os"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/ipintel"
)

func fixtureExits(t *testing.T) *ipintel.ExitList {
	t.Helper()
	f, err := os.Open("testdata/tor-exit-addresses.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := ipintel.ParseExitList(f)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestParseExitListFormats(t *testing.T) {
	l := fixtureExits(t)
	if l.Len() != 4 {
		t.Fatalf("exit-addresses fixture: %d addresses, want 4", l.Len())
	}
	for _, ip := range []string{"185.220.101.1", "203.0.113.66", "198.51.100.7", "2001:db8::7", "::ffff:185.220.101.1"} {
		if !l.Contains(netip.MustParseAddr(ip)) {
			t.Errorf("%s not recognised", ip)
		}
	}
	if l.Contains(netip.MustParseAddr("8.8.8.8")) {
		t.Error("8.8.8.8 is no exit")
	}
	bulk, err := ipintel.ParseExitList(strings.NewReader("185.220.101.1\n\n203.0.113.66\r\n"))
	if err != nil || bulk.Len() != 2 || !bulk.Contains(netip.MustParseAddr("203.0.113.66")) {
		t.Fatalf("bulk list: %v %v", bulk, err)
	}
}

func TestParseExitListRefusesOtherText(t *testing.T) {
	for name, text := range map[string]string{
		"empty":            "",
		"only comments":    "# nothing\n",
		"html":             "<!doctype html>\n<title>Sign in to the Wi-Fi</title>\n",
		"bad address":      "185.220.101.300\n",
		"exitaddress bad":  "ExitNode AB\nExitAddress nope 2026-11-24 10:00:00\n",
		"exitaddress bare": "ExitAddress\n",
		"zone":             "fe80::1%eth0\n",
		"two words":        "185.220.101.1 extra\n",
		"long line":        strings.Repeat("1", 5000) + "\n",
	} {
		if _, err := ipintel.ParseExitList(strings.NewReader(text)); !errors.Is(err, ipintel.ErrExitList) {
			t.Errorf("%s: %v, want ErrExitList", name, err)
		}
	}
	// A nil list recognises nothing.
	var none *ipintel.ExitList
	if none.Contains(netip.MustParseAddr("185.220.101.1")) || none.Len() != 0 {
		t.Error("nil list")
	}
}

func FuzzParseExitList(f *testing.F) {
	seed, _ := os.ReadFile("testdata/tor-exit-addresses.txt")
	f.Add(string(seed))
	f.Add("185.220.101.1\n2001:db8::1\n")
	f.Add("ExitAddress ::ffff:1.2.3.4 x\n")
	f.Fuzz(func(t *testing.T, text string) {
		l, err := ipintel.ParseExitList(strings.NewReader(text))
		if err == nil && l.Len() == 0 {
			t.Fatal("accepted a list without addresses")
		}
	})
}
