package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/verifier/flow"
	vhttp "github.com/idgate/idgate/verifier/http"
	"github.com/idgate/idgate/verifier/ipintel"
	"github.com/idgate/idgate/verifier/ipintel/ipdb"
)

func init() {
	register(command{Name: "ip lookup", Summary: "what IP intelligence concludes about an IP (and, given an address, location consistency)", Run: runIPLookup})
	register(command{Name: "ip update-tor", Summary: "fetch the Tor Project's exit list into IDGATE_IP_DATA_DIR (run hourly in production)", Run: runIPUpdateTor})
}

// torRefreshInterval is how often serve looks for a new Tor exit list file
// (it warns once the list is older than ipdb.TorStaleAfter).
const torRefreshInterval = 5 * time.Minute

// ipDataCheck is /readyz's "ip_data" check: degraded, never unavailable,
// since without the data results only omit ip_found, is_proxy and
// location_consistency (the checks could not run).
const ipDataCheck = "ip_data"

// newIPIntel opens the IP data for the flow. Missing data is not fatal: the
// results then omit ip_found, is_proxy and location_consistency (the check
// could not run), and serve warns; corrupt data is. In dev,
// IDGATE_DEV_CLIENT_IP stands in for loopback and private client IPs. The
// ReadyCheck is /readyz's view of the data (ipdb.DB.Ready; failing while
// the data is missing); the returned stop ends the Tor list's refresh loop.
func newIPIntel(ctx context.Context, cfg config.Config, log *slog.Logger) (flow.IPIntel, vhttp.ReadyCheck, func(), error) {
	ready := vhttp.ReadyCheck{Name: ipDataCheck, Degraded: true}
	if cfg.DevClientIP != "" && !cfg.Dev() {
		return nil, ready, nil, errors.New("IDGATE_DEV_CLIENT_IP is for dev (serve --dev) only")
	}
	svc, db, tor, err := ipdb.Service(cfg.IPDataDir)
	if errors.Is(err, ipdb.ErrMissing) {
		log.Warn("IP intelligence off: results carry no ip_found, is_proxy or location_consistency", "err", err)
		ready.Check = func(context.Context) error { return fmt.Errorf("IP data not installed: %w", err) }
		return nil, ready, func() {}, nil
	}
	if err != nil {
		return nil, ready, nil, fmt.Errorf("IP intelligence: %w", err)
	}
	ready.Check = func(context.Context) error { return db.Ready(time.Now(), tor) }
	if tor.Len() == 0 {
		noTorList(log, cfg.Dev())
	}
	rctx, cancel := context.WithCancel(ctx)
	go func() {
		t := time.NewTicker(torRefreshInterval)
		defer t.Stop()
		for {
			select {
			case <-rctx.Done():
				return
			case <-t.C:
				if err := tor.Refresh(); err != nil {
					log.Warn("Tor exit list not reloaded; keeping the previous one", "err", err)
				}
				if at := tor.Updated(); !at.IsZero() && time.Since(at) > ipdb.TorStaleAfter {
					log.Warn("Tor exit list is stale: run idgate ip update-tor hourly", "updated", at.UTC().Format(time.RFC3339))
				}
			}
		}
	}()
	stop := func() { cancel(); db.Close() }
	if cfg.DevClientIP != "" {
		log.Warn("dev: IP intelligence reads loopback and private client IPs as IDGATE_DEV_CLIENT_IP", "ip", cfg.DevClientIP)
		return devClientIP{svc, cfg.DevClientIP}, ready, stop, nil
	}
	return svc, ready, stop, nil
}

// noTorList says serve starts without a Tor exit list. In production that
// is a warning (anonymized_connection goes null); in dev, where no list is
// installed until someone asks for one, a warning on every make run read
// as something broken, so there it is information, saying it is optional
// and how to install it.
func noTorList(log *slog.Logger, dev bool) {
	if dev {
		log.Info("Tor exit list not installed (optional in dev): Tor exits are not recognised; to install it run idgate ip update-tor (var/idgate under make run)")
		return
	}
	log.Warn("no Tor exit list installed (idgate ip update-tor): Tor exits are not recognised")
}

// devClientIP is the dev-only stand-in: a demo on localhost records
// loopback addresses, which no IP data covers.
type devClientIP struct {
	flow.IPIntel
	ip string
}

func (d devClientIP) sub(raw string) string {
	ip, err := ipintel.ParseIP(raw)
	if err == nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified()) {
		return d.ip
	}
	return raw
}

func (d devClientIP) Connection(back, submit string) (ipintel.Assessment, bool, error) {
	return d.IPIntel.Connection(d.sub(back), d.sub(submit))
}

func (d devClientIP) Locate(addr ipintel.Address, back, submit string) (ipintel.Consistency, error) {
	return d.IPIntel.Locate(addr, d.sub(back), d.sub(submit))
}

// ipLookup is what `idgate ip lookup` prints.
type ipLookup struct {
	IP               string               `json:"ip"`
	IPFound          bool                 `json:"ip_found"`
	IsProxy          bool                 `json:"is_proxy"`
	ProxyType        string               `json:"proxy_type,omitempty"`
	ProxyDescription string               `json:"proxy_description,omitempty"`
	Country          string               `json:"country,omitempty"`
	Subdivision      string               `json:"subdivision,omitempty"`
	City             string               `json:"city,omitempty"`
	Latitude         *float64             `json:"latitude,omitempty"`
	Longitude        *float64             `json:"longitude,omitempty"`
	ASN              uint32               `json:"asn,omitempty"`
	ASOrg            string               `json:"as_org,omitempty"`
	TorExitList      string               `json:"tor_exit_list"`
	Location         *ipintel.Consistency `json:"location_consistency,omitempty"`
	Attribution      string               `json:"attribution"`
}

func runIPLookup(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ip lookup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("data", "", "IP data directory (default IDGATE_IP_DATA_DIR, else ./var/data)")
	state := fs.String("state", "", "license jurisdiction (US state or Canadian province code), to compute location consistency")
	zip := fs.String("zip", "", "license postal code (with --state)")
	city := fs.String("city", "", "license city (with --state)")
	country := fs.String("country", "", "license country, ISO alpha-3 (USA, CAN; default from --state)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: idgate ip lookup [--data DIR] [--state ST --zip ZIP --city CITY] IP")
	}
	ip, err := ipintel.ParseIP(fs.Arg(0))
	if err != nil {
		return err
	}
	svc, db, tor, err := ipdb.Service(ipDataDir(*dir))
	if err != nil {
		return err
	}
	defer db.Close()
	a, err := svc.Assess(ip)
	if err != nil {
		return err
	}
	out := ipLookup{IP: ip.String(), IPFound: a.Found, IsProxy: a.Proxy, ProxyType: string(a.Type),
		ProxyDescription: a.Description, ASN: a.Record.ASN, ASOrg: a.Record.ASOrg,
		TorExitList: fmt.Sprintf("%d exits", tor.Len()), Attribution: ipintel.Attribution}
	if tor.Len() == 0 {
		out.TorExitList = "not installed (idgate ip update-tor): Tor exits are not recognised"
	}
	if r := a.Record; r.Located {
		out.Country, out.Subdivision, out.City = r.Country, r.Subdivision, r.City
		if r.HasPoint {
			out.Latitude, out.Longitude = &r.Lat, &r.Lon
		}
	}
	if *state != "" {
		c, err := svc.Locate(ipintel.Address{City: *city, Jurisdiction: *state, PostalCode: *zip, Country: *country}, "", ip.String())
		if err != nil {
			return err
		}
		out.Location = &c
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// ipDataDir is the flag, else IDGATE_IP_DATA_DIR, else ipdb's default.
func ipDataDir(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	return os.Getenv(ipdb.EnvDir)
}

// DefaultTorExitListURL is the Tor Project's published exit-addresses
// document (refreshed about hourly).
const DefaultTorExitListURL = "https://check.torproject.org/exit-addresses"

// maxTorListBytes bounds the download (the list is about 300 KB).
const maxTorListBytes = 8 << 20

func runIPUpdateTor(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ip update-tor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("data", "", "IP data directory (default IDGATE_IP_DATA_DIR, else ./var/data)")
	url := fs.String("url", DefaultTorExitListURL, "where the exit list is published (exit-addresses or bulk format)")
	timeout := fs.Duration("timeout", 30*time.Second, "longest time for the download")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return errors.New("usage: idgate ip update-tor [--data DIR] [--url URL]")
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	n, path, err := updateTor(ctx, http.DefaultClient, *url, ipDataDir(*dir))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Tor exit list: %d addresses from %s into %s\n", n, *url, path)
	return nil
}

// updateTor downloads the list, checks it parses as an exit list (an error
// page or captive portal never replaces a good list), and replaces the
// installed file atomically; serve picks it up within torRefreshInterval.
func updateTor(ctx context.Context, client *http.Client, url, dir string) (int, string, error) {
	if dir == "" {
		dir = ipdb.DefaultDir()
	}
	if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
		return 0, "", fmt.Errorf("update Tor exit list: %q is not an http(s) URL", url)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, "", fmt.Errorf("update Tor exit list: %w", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", fmt.Errorf("update Tor exit list: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, "", fmt.Errorf("update Tor exit list: %s answered %s", url, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxTorListBytes+1))
	if err != nil {
		return 0, "", fmt.Errorf("update Tor exit list: %w", err)
	}
	if len(body) > maxTorListBytes {
		return 0, "", fmt.Errorf("update Tor exit list: more than %d bytes", maxTorListBytes)
	}
	list, err := ipintel.ParseExitList(strings.NewReader(string(body)))
	if err != nil {
		return 0, "", fmt.Errorf("update Tor exit list from %s: %w", url, err)
	}
	path := filepath.Join(dir, ipdb.TorFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, "", fmt.Errorf("update Tor exit list: %w", err)
	}
	header := fmt.Sprintf("# Tor exit list fetched from %s at %s by idgate ip update-tor\n", url, time.Now().UTC().Format(time.RFC3339))
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append([]byte(header), body...), 0o644); err != nil {
		return 0, "", fmt.Errorf("update Tor exit list: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return 0, "", fmt.Errorf("update Tor exit list: %w", err)
	}
	return list.Len(), path, nil
}
