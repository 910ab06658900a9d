package ipdb

import (
	"errors"
	"fmt"
	"net/netip"
	"time"
)

// How old the data may be before readiness calls it stale.
const (
	// MaxCityAge: DB-IP publishes the Lite city data monthly and addresses
	// move between networks and places all the time; data built more than
	// a year ago (data.sha256 pins one build, so this is the age of the
	// pin) locates too many addresses wrongly to be left alone.
	MaxCityAge = 365 * 24 * time.Hour
	// TorStaleAfter: exits come and go within hours, and `idgate ip
	// update-tor` is meant to run hourly.
	TorStaleAfter = 6 * time.Hour
)

// probes are the addresses Ready looks up, one per database (any public
// address would do: the lookup must decode, not find).
var probes = [2]netip.Addr{netip.MustParseAddr("1.1.1.1"), netip.MustParseAddr("2606:4700:4700::1111")}

// Built is when the city databases were built (the older of the two, from
// their MMDB metadata).
func (db *DB) Built() time.Time {
	a := time.Unix(int64(db.city4.Metadata.BuildEpoch), 0).UTC()
	if b := time.Unix(int64(db.city6.Metadata.BuildEpoch), 0).UTC(); b.Before(a) {
		return b
	}
	return a
}

// Ready is the readiness check of the open data at now: both city
// databases answer a lookup, the ASN ranges and ZIP centroids are loaded,
// the city data is no older than MaxCityAge, and the Tor exit list, when one
// is loaded (tor may be nil), no older than TorStaleAfter. An absent Tor
// list is not a failure: it is optional (serve warns at start).
func (db *DB) Ready(now time.Time, tor *TorList) error {
	var errs []error
	for _, ip := range probes {
		if _, err := db.Locate(ip); err != nil {
			errs = append(errs, err)
		}
	}
	if len(db.asn.ranges) == 0 {
		errs = append(errs, errors.New("no ASN ranges loaded"))
	}
	if len(db.zips) == 0 {
		errs = append(errs, errors.New("no ZIP centroids loaded"))
	}
	if built := db.Built(); now.Sub(built) > MaxCityAge {
		errs = append(errs, fmt.Errorf("the city data was built %s, more than %s ago: update the pin (make ipdata)",
			built.Format(time.DateOnly), MaxCityAge))
	}
	if tor != nil {
		if at := tor.Updated(); !at.IsZero() && now.Sub(at) > TorStaleAfter {
			errs = append(errs, fmt.Errorf("the Tor exit list was written %s, more than %s ago: run idgate ip update-tor hourly",
				at.UTC().Format(time.RFC3339), TorStaleAfter))
		}
	}
	return errors.Join(errs...)
}
