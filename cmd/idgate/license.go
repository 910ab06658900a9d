package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/pdf417"
)

// licenseNow is the clock of the derived checks; tests replace it.
var licenseNow = time.Now

func init() {
	register(command{
		Name:    "license parse",
		Summary: "parse raw AAMVA barcode (or magstripe) text to JSON with warnings and checks: FILE|-",
		Run:     runLicenseParse,
	})
	register(command{
		Name:    "license scan",
		Summary: "decode the PDF417 barcode in a photo of a license back (JPEG, PNG or WebP) and print it like license parse, with timings: IMAGE",
		Run:     runLicenseScan,
	})
}

// licenseReport is what the license commands print.
type licenseReport struct {
	License     license.License `json:"license"`
	Checks      license.Checks  `json:"checks"`
	LicenseData map[string]any  `json:"license_data"`
	// Scan is the decode report (strategies tried, timings); scan only.
	Scan *pdf417.Report `json:"scan,omitempty"`
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
	return printLicense(stdout, l, nil)
}

func runLicenseScan(ctx context.Context, args []string, _ io.Reader, stdout, _ io.Writer) error {
	if len(args) != 1 {
		return errors.New("usage: idgate license scan IMAGE")
	}
	img, err := readImage(args[0])
	if err != nil {
		return err
	}
	l, rep, err := engines.Scan(ctx, pdf417.Decoder{}, img)
	if err != nil {
		return err
	}
	return printLicense(stdout, l, &rep)
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

// printLicense writes the parse, its derived checks, every catalog field
// as license_data would carry them and, for a scan, the decode report.
func printLicense(w io.Writer, l license.License, scan *pdf417.Report) error {
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
	return enc.Encode(licenseReport{License: l, Checks: l.Check(licenseNow()), LicenseData: data, Scan: scan})
}
