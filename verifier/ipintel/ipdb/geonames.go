package ipdb

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// zipPlace is one US ZIP code's post office name, state and centroid.
type zipPlace struct {
	city, state string
	lat, lon    float32
}

// ErrZIPData: the ZIP file is not GeoNames' postal code format.
var ErrZIPData = errors.New("malformed GeoNames postal code data")

// maxZIPRows bounds the file (the US file has about 41,000 rows).
const maxZIPRows = 1_000_000

// parseZIPs reads GeoNames' postal code dump (tab-separated: country code,
// postal code, place name, admin1 name, admin1 code, admin2 name, admin2
// code, admin3 name, admin3 code, latitude, longitude, accuracy). Only US
// rows with a five-digit code are kept; a malformed row is an error naming
// it.
func parseZIPs(r io.Reader) (map[string]zipPlace, error) {
	out := map[string]zipPlace{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 4096)
	for row := 1; sc.Scan(); row++ {
		if row > maxZIPRows {
			return nil, fmt.Errorf("%w: more than %d rows", ErrZIPData, maxZIPRows)
		}
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 12 {
			return nil, fmt.Errorf("%w: row %d: %d fields, want 12", ErrZIPData, row, len(f))
		}
		if f[0] != "US" || !isZIP5(f[1]) {
			continue
		}
		lat, err1 := strconv.ParseFloat(f[9], 64)
		lon, err2 := strconv.ParseFloat(f[10], 64)
		if err := errors.Join(err1, err2); err != nil || !(lat >= -90 && lat <= 90) || !(lon >= -180 && lon <= 180) {
			return nil, fmt.Errorf("%w: row %d: bad coordinates %q, %q", ErrZIPData, row, f[9], f[10])
		}
		out[f[1]] = zipPlace{city: f[2], state: f[4], lat: float32(lat), lon: float32(lon)}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrZIPData, err)
	}
	return out, nil
}

func isZIP5(s string) bool {
	if len(s) != 5 {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
