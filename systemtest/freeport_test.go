package systemtest

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// freePort is a loopback TCP port nobody listens on now, for a child
// process to listen on a moment later. It is picked below the kernel's
// ephemeral range (ip_local_port_range, 32768-60999 by default), from
// which the kernel gives ports to outgoing connections and to listeners
// on port 0: a port taken from that range with a listener on :0 and
// closed was given to something else before the child bound it (the demo
// store of make run: "bind: address already in use", in a full test run
// beside every other package's connections, 2026-12-02). Ports handed out
// are not handed out again in this run.
func freePort(t *testing.T) int {
	t.Helper()
	portsMu.Lock()
	defer portsMu.Unlock()
	low := ephemeralLow()
	for range 1000 {
		p := low/2 + rand.IntN(low/2)
		if portsGiven[p] {
			continue
		}
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			continue
		}
		ln.Close()
		portsGiven[p] = true
		return p
	}
	t.Fatalf("no free loopback port in %d-%d", low/2, low-1)
	return 0
}

var (
	portsMu    sync.Mutex
	portsGiven = map[int]bool{}
)

// ephemeralLow is the first port of the kernel's ephemeral range, 32768
// where it cannot be read or is too low to leave room below it.
func ephemeralLow() int {
	raw, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	f := strings.Fields(string(raw))
	if len(f) != 2 {
		return 32768
	}
	if low, err := strconv.Atoi(f[0]); err == nil && low >= 8192 {
		return low
	}
	return 32768
}
