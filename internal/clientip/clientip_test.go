package clientip

import (
	"net"
	"testing"
)

func TestOf(t *testing.T) {
	trusted, err := Parse([]string{"10.0.0.0/8", "192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	lb, stranger := net.ParseIP("10.1.2.3"), net.ParseIP("198.51.100.9")
	for _, c := range []struct {
		peer net.IP
		xff  string
		want string
	}{
		{stranger, "203.0.113.7", "198.51.100.9"},     // an untrusted peer's header is not read
		{lb, "203.0.113.7", "203.0.113.7"},            // the balancer names the client
		{lb, "1.2.3.4, 203.0.113.7", "203.0.113.7"},   // the client's own left-most entry is not believed
		{lb, "203.0.113.7, 192.0.2.1", "203.0.113.7"}, // a second trusted hop is skipped
		{lb, "", "10.1.2.3"},                          // no header: the peer
		{lb, "garbage, 10.9.9.9", "10.1.2.3"},         // nothing untrusted that parses: the peer
		{lb, "203.0.113.7, garbage", "10.1.2.3"},      // a hop that does not parse ends the walk
		{net.ParseIP("::1"), "203.0.113.7", "::1"},    // not trusted
	} {
		if got := trusted.Of(c.peer, c.xff); got != c.want {
			t.Errorf("Of(%s, %q) = %s, want %s", c.peer, c.xff, got, c.want)
		}
	}
	if _, err := Parse([]string{"not an address"}); err == nil {
		t.Error("Parse accepted a bad entry")
	}
}
