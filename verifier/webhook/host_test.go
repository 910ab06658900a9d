package webhook

import (
	"net/netip"
	"testing"
)

// Every notation of a non-public host that some stack reads as one is
// refused before DNS; public hosts in the same notations pass.
func TestHostRefusal(t *testing.T) {
	refused := []string{
		// IPv4 loopback in every inet_aton form.
		"127.0.0.1", "127.1", "127.0.1", "2130706433", "0x7f000001", "0X7F000001", "0x7f.1", "0x7f.0.0.1",
		"0177.0.0.1", "0177.1", "017700000001", "0x7f.0x0.0x0.0x1", "127.000.000.001", "127.0.0.1.",
		// metadata, private, unspecified, CGNAT, broadcast.
		"169.254.169.254", "0xa9fea9fe", "2852039166", "0251.0376.0251.0376", "169.254.43518",
		"10.0.0.1", "10.1", "167772161", "0xa.0.0.1", "192.168.0.1", "0xc0a80001", "3232235521", "172.16.0.1",
		"0.0.0.0", "0", "0x0", "0x", "00", "0.0", "100.100.100.200", "255.255.255.255", "4294967295",
		// IPv6: loopback, unspecified, mapped, compatible, NAT64, link-local, ULA, zoned.
		"::1", "0:0:0:0:0:0:0:1", "::", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:169.254.169.254",
		"::ffff:a9fe:a9fe", "::127.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b::8.8.8.8",
		"fe80::1", "fe80::1%eth0", "fd00::1", "fc00::1", "fd00:ec2::254", "2002:7f00:1::1",
		// Names: localhost, metadata, internal and local domains, single labels, Unicode digits.
		"localhost", "LOCALHOST", "localhost.", "api.localhost", "metadata.google.internal",
		"METADATA.GOOGLE.INTERNAL.", "metadata", "instance-data", "instance-data.ec2.internal",
		"ip-10-0-0-1.ec2.internal", "kubernetes.default.svc.cluster.local", "printer.local",
		"localhost.localdomain", "nas.home.arpa", "intranet", "①②⑦.0.0.1", "１２７.０.０.１",
		"", "exa mple.com",
	}
	for _, h := range refused {
		if reason := HostRefusal(h, false); reason == "" {
			t.Errorf("%q allowed", h)
		}
	}
	public := []string{"hooks.example.com", "example.com.", "8.8.8.8", "134744072", "0x8080808", "8.8.2056",
		"2606:4700:4700::1111", "::ffff:8.8.8.8", "bücher.example", "xn--bcher-kva.example",
		"127.0.0.1.nip.io", // resolves to loopback: the dial-time guard's case
		"0x7f.example.com", "1.2.3.4.5"}
	for _, h := range public {
		if reason := HostRefusal(h, false); reason != "" {
			t.Errorf("%q refused: %s", h, reason)
		}
	}
	// AllowLoopback (dev and tests) opens loopback in every form, nothing else.
	for _, h := range []string{"127.0.0.1", "127.1", "2130706433", "::1", "::ffff:127.0.0.1", "localhost", "a.localhost"} {
		if reason := HostRefusal(h, true); reason != "" {
			t.Errorf("%q refused with AllowLoopback: %s", h, reason)
		}
	}
	for _, h := range []string{"169.254.169.254", "0xa9fea9fe", "10.1", "0", "metadata.google.internal", "metadata", "fe80::1"} {
		if reason := HostRefusal(h, true); reason == "" {
			t.Errorf("%q allowed with AllowLoopback", h)
		}
	}
}

func TestParseIPv4Any(t *testing.T) {
	for in, want := range map[string]string{
		"127.1": "127.0.0.1", "0x7f000001": "127.0.0.1", "2130706433": "127.0.0.1", "0177.0.0.01": "127.0.0.1",
		"10.1.65535": "10.1.255.255", "1.16777215": "1.255.255.255", "0": "0.0.0.0",
	} {
		got, ok := parseIPv4Any(in)
		if !ok || got != netip.MustParseAddr(want) {
			t.Errorf("%s: got %v %v, want %s", in, got, ok, want)
		}
	}
	for _, in := range []string{"256.1", "1.2.3.256", "1.2.65536", "4294967296", "08", "0x", "1..2", "a.b", "0xg", "1.2.3.4.5", "-1", "+1"} {
		if got, ok := parseIPv4Any(in); ok {
			t.Errorf("%s: read as %v", in, got)
		}
	}
}
