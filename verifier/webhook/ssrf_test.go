package webhook

import (
	"errors"
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

func TestCheckAddr(t *testing.T) {
	refused := []string{
		"127.0.0.1", "127.255.0.9", "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.1.1",
		"169.254.169.254", "169.254.0.1", "100.64.0.1", "100.127.255.255", "0.0.0.0", "0.1.2.3",
		"255.255.255.255", "240.0.0.1", "224.0.0.1", "239.255.255.250", "192.0.2.1",
		"198.51.100.7", "203.0.113.9", "198.18.0.1", "198.19.255.255", "192.0.0.8", "192.88.99.1",
		"::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "fec0::1",
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1",
		"64:ff9b::a00:1", "100::1", "2001:db8::1", "2002:a00:1::1", "2001::1", "3fff::1",
	}
	for _, s := range refused {
		if reason := checkAddr(netip.MustParseAddr(s), false); reason == "" {
			t.Errorf("%s allowed", s)
		}
	}
	public := []string{"8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.0", "172.32.0.1",
		"169.253.255.255", "2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8"}
	for _, s := range public {
		if reason := checkAddr(netip.MustParseAddr(s), false); reason != "" {
			t.Errorf("%s refused: %s", s, reason)
		}
	}
}

func TestCheckAddrAllowLoopbackOnlyLoopback(t *testing.T) {
	for _, s := range []string{"127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"} {
		if reason := checkAddr(netip.MustParseAddr(s), true); reason != "" {
			t.Errorf("%s refused with AllowLoopback: %s", s, reason)
		}
	}
	for _, s := range []string{"10.0.0.1", "169.254.169.254", "0.0.0.0", "::", "fe80::1", "192.168.0.1", "fd00::1"} {
		if reason := checkAddr(netip.MustParseAddr(s), true); reason == "" {
			t.Errorf("%s allowed with AllowLoopback", s)
		}
	}
}

// The dial hook sees IP:port after resolution; it must refuse by address.
func TestCheckDial(t *testing.T) {
	ctl := checkDial(false)
	for _, addr := range []string{"127.0.0.1:443", "[::1]:443", "10.0.0.1:443", "169.254.169.254:80", "[::ffff:7f00:1]:443", "localhost:443", "garbage"} {
		err := ctl("tcp", addr, nil)
		var re *RefusedError
		if !errors.As(err, &re) || re.Reason == "" || !errors.Is(err, ErrRefused) {
			t.Errorf("%s: got %v, want a RefusedError with a reason", addr, err)
		}
	}
	if err := ctl("tcp", "93.184.215.14:443", nil); err != nil {
		t.Errorf("public address refused: %v", err)
	}
}

func TestValidateURL(t *testing.T) {
	ok := []string{"https://hooks.example.com/idgate", "https://example.com:8443/x?y=1", "HTTPS://Example.com"}
	for _, u := range ok {
		if err := ValidateURL(u, false); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	bad := []string{"http://example.com/", "ftp://example.com", "//example.com", "https://", "https:///path",
		"https://user:pw@example.com/", "https://example.com/#frag", "https://127.0.0.1/", "https://[::1]/",
		"https://10.0.0.1/", "https://169.254.169.254/latest/meta-data/", "https://[::ffff:10.0.0.1]/",
		"https://example.com/" + string(make([]byte, MaxURLLen)), "https://exa mple.com/", "\x00",
		"https://0x7f000001/", "https://2130706433/", "https://metadata.google.internal/computeMetadata/v1/", "https://localhost:8443/"}
	for _, u := range bad {
		err := ValidateURL(u, false)
		var re *RefusedError
		if !errors.As(err, &re) || re.Reason == "" {
			t.Errorf("%.40q: got %v, want refused with a reason", u, err)
		}
	}
	if err := ValidateURL("https://127.0.0.1:8443/", true); err != nil {
		t.Errorf("loopback refused with AllowLoopback: %v", err)
	}
	if err := ValidateURL("http://127.0.0.1:8443/", true); err == nil {
		t.Error("plain http allowed with AllowLoopback")
	}
}

func FuzzValidateURL(f *testing.F) {
	f.Add("https://hooks.example.com/x")
	f.Add("https://[::ffff:127.0.0.1]:443/")
	f.Add("http://10.0.0.1")
	f.Fuzz(func(t *testing.T, raw string) {
		if ValidateURL(raw, false) != nil {
			return
		}
		u, err := url.Parse(raw)
		if err != nil || !strings.EqualFold(u.Scheme, "https") || u.Hostname() == "" {
			t.Fatalf("accepted %q", raw)
		}
		if ip, err := netip.ParseAddr(u.Hostname()); err == nil && checkAddr(ip, false) != "" {
			t.Fatalf("accepted non-public literal %q", raw)
		}
	})
}
