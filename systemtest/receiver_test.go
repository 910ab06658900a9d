package systemtest

import (
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/webhook"
)

// hit is one webhook request the receiver saw.
type hit struct {
	delivery string
	attempt  int
	remote   string // client address: which process sent it (ownerOf)
	answered bool   // the receiver answered 200 (else the sender vanished first)
	pid      int    // the sending process, 0 if not found
	request  string // the body's request_id
}

// receiver is a real TLS webhook endpoint counting what arrives. When hold
// is armed, the next request is held unanswered until its sender goes away.
type receiver struct {
	url      string
	certFile string // the receiver's certificate, for the senders' SSL_CERT_FILE
	mu       sync.Mutex
	hits     []hit
	hold     bool
	held     chan hit
	pids     []int // the senders ownerOf looks among
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{held: make(chan hit, 1)}
	srv := httptest.NewTLSServer(http.HandlerFunc(rc.serve))
	t.Cleanup(srv.Close)
	rc.url = srv.URL + "/hook"
	rc.certFile = filepath.Join(t.TempDir(), "receiver.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(rc.certFile, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	// Read the body first: only then does the server watch the connection
	// and end r.Context() when the sender goes away.
	body, _ := io.ReadAll(r.Body)
	var doc struct {
		RequestID string `json:"request_id"`
	}
	_ = json.Unmarshal(body, &doc)
	attempt, _ := strconv.Atoi(r.Header.Get(webhook.HeaderAttempt))
	h := hit{delivery: r.Header.Get(webhook.HeaderDeliveryID), attempt: attempt, remote: r.RemoteAddr, request: doc.RequestID}
	rc.mu.Lock()
	hold := rc.hold
	rc.hold = false
	pids := rc.pids
	rc.mu.Unlock()
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	var err error
	if h.pid, err = ownerOf(r.RemoteAddr, local, pids...); err != nil {
		h.remote += " (" + err.Error() + ")"
	}
	if hold {
		rc.held <- h
		select {
		case <-r.Context().Done(): // the sender died
		case <-time.After(90 * time.Second):
		}
		rc.record(h)
		return
	}
	h.answered = true
	rc.record(h)
	w.WriteHeader(http.StatusOK)
}

func (rc *receiver) record(h hit) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.hits = append(rc.hits, h)
}

func (rc *receiver) armHold() {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.hold = true
}

func (rc *receiver) snapshot() []hit {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]hit(nil), rc.hits...)
}

// ownerOf is the pid, among pids, that owns the client end of a loopback
// TCP connection from remote ("127.0.0.1:port") to local (the receiver's
// end): the socket's inode from /proc/net/tcp, then the process whose fd
// links to it. Both ends are matched, and rows without an inode skipped:
// a closed connection that used the same client port before (TIME_WAIT,
// inode 0) stays listed for a minute and must not be taken for this one.
func ownerOf(remote string, local net.Addr, pids ...int) (int, error) {
	hexAddr := func(addr string) (string, error) {
		host, portText, err := net.SplitHostPort(addr)
		if err != nil {
			return "", err
		}
		ip := net.ParseIP(host).To4()
		port, err := strconv.Atoi(portText)
		if ip == nil || err != nil {
			return "", fmt.Errorf("not an IPv4 address: %s", addr)
		}
		// /proc/net/tcp prints the address as a little-endian word.
		return fmt.Sprintf("%02X%02X%02X%02X:%04X", ip[3], ip[2], ip[1], ip[0], port), nil
	}
	if local == nil {
		return 0, fmt.Errorf("the receiver's own address is unknown")
	}
	client, err := hexAddr(remote)
	if err != nil {
		return 0, err
	}
	server, err := hexAddr(local.String())
	if err != nil {
		return 0, err
	}
	table, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		return 0, err
	}
	inode := ""
	for _, line := range strings.Split(string(table), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) > 9 && f[1] == client && f[2] == server && f[9] != "0" {
			inode = f[9]
		}
	}
	if inode == "" {
		return 0, fmt.Errorf("no open socket %s -> %s", client, server)
	}
	want := "socket:[" + inode + "]"
	for _, pid := range pids {
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		for _, fd := range fds {
			if link, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); link == want {
				return pid, nil
			}
		}
	}
	return 0, fmt.Errorf("no process among %v owns %s", pids, want)
}
