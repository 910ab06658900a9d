package ipintel

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strings"
)

// ExitSet recognises Tor exit relays' addresses.
type ExitSet interface {
	Contains(ip netip.Addr) bool
	Len() int
}

// ExitList is a parsed Tor exit list.
type ExitList struct {
	addrs map[netip.Addr]struct{}
}

// MaxExitListLines bounds a list: the Tor Project publishes a few thousand
// exits (about 2,000 in 2026), so anything past this is not an exit list.
const MaxExitListLines = 200_000

// ErrExitList: the text is not a Tor exit list.
var ErrExitList = errors.New("not a Tor exit list")

// ParseExitList reads either of the Tor Project's published formats: the
// bulk list (one address per line, check.torproject.org/torbulkexitlist) or
// the exit-addresses document ("ExitNode …", "Published …", "LastStatus …",
// "ExitAddress <ip> <date> <time>" lines). Blank lines and lines starting
// with # are skipped. Anything else is an error naming the line, and so is a
// list without a single address: a captive portal's HTML page must never
// replace a good list with an empty one.
func ParseExitList(r io.Reader) (*ExitList, error) {
	l := &ExitList{addrs: map[netip.Addr]struct{}{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 4096)
	for n := 1; sc.Scan(); n++ {
		if n > MaxExitListLines {
			return nil, fmt.Errorf("%w: more than %d lines", ErrExitList, MaxExitListLines)
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		switch f[0] {
		case "ExitNode", "Published", "LastStatus":
			continue
		case "ExitAddress":
			if len(f) < 2 {
				return nil, fmt.Errorf("%w: line %d: ExitAddress without an address", ErrExitList, n)
			}
			f = f[1:]
		default:
			if len(f) != 1 {
				return nil, fmt.Errorf("%w: line %d: %.40q", ErrExitList, n, line)
			}
		}
		ip, err := netip.ParseAddr(f[0])
		if err != nil || ip.Zone() != "" {
			return nil, fmt.Errorf("%w: line %d: %.40q is not an IP address", ErrExitList, n, f[0])
		}
		l.addrs[ip.Unmap()] = struct{}{}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrExitList, err)
	}
	if len(l.addrs) == 0 {
		return nil, fmt.Errorf("%w: no address in it", ErrExitList)
	}
	return l, nil
}

// Contains reports whether ip is a listed exit.
func (l *ExitList) Contains(ip netip.Addr) bool {
	if l == nil {
		return false
	}
	_, ok := l.addrs[ip.WithZone("").Unmap()]
	return ok
}

// Len is the number of listed addresses.
func (l *ExitList) Len() int {
	if l == nil {
		return 0
	}
	return len(l.addrs)
}
