package license

import (
	"fmt"
	"time"
)

// UnmarshalJSON reads what MarshalJSON writes ("YYYY-MM-DD" or null), so
// a License survives a JSON round trip (the end-user flow stores the
// scanned license, sealed, between steps).
func (d *Date) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*d = Date{}
		return nil
	}
	t, err := time.Parse(`"2006-01-02"`, string(b))
	if err != nil {
		return fmt.Errorf("license date %s: want \"YYYY-MM-DD\" or null", b)
	}
	*d = DateOf(t)
	return nil
}
