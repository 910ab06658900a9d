package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/idgate/idgate/verifier/license"
)

// licenseNow is the clock of the derived checks; tests replace it.
var licenseNow = time.Now

func init() {
	register(command{
		Name:    "license parse",
		Summary: "parse raw AAMVA barcode (or magstripe) text to JSON with warnings and checks: FILE|-",
		Run:     runLicenseParse,
	})
}

// licenseReport is what the license commands print.
type licenseReport struct {
	License     license.License `json:"license"`
	Checks      license.Checks  `json:"checks"`
	LicenseData map[string]any  `json:"license_data"`
}

func runLicenseParse(_ context.Context, args []string, stdin io.Reader, stdout, _ io.Writer) error {
	if len(args) != 1 {
		return errors.New("usage: idgate license parse FILE|-")
	}
	raw, err := readLicenseInput(args[0], stdin)
	if err != nil {
		return err
	}
	l, err := license.ParseAAMVA(raw)
	if err != nil {
		return err
	}
	return printLicense(stdout, l)
}

// readLicenseInput reads FILE or standard input ("-"), refusing more than a
// barcode can hold.
func readLicenseInput(name string, stdin io.Reader) ([]byte, error) {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("read input: %w", err)
		}
		defer f.Close()
		r = f
	}
	raw, err := io.ReadAll(io.LimitReader(r, license.MaxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("read input: %w", err)
	}
	if len(raw) > license.MaxPayload {
		return nil, fmt.Errorf("read input: more than %d bytes", license.MaxPayload)
	}
	return raw, nil
}

// printLicense writes the parse, its derived checks and every catalog field
// as license_data would carry them.
func printLicense(w io.Writer, l license.License) error {
	names := make([]string, len(license.Catalog))
	for i, f := range license.Catalog {
		names[i] = f.Name
	}
	data, err := license.Extract(l, names)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(licenseReport{License: l, Checks: l.Check(licenseNow()), LicenseData: data})
}
