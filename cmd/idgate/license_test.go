package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// A version 8 barcode: DCS/DAC/DAD names, MMDDCCYY dates.
const cliSample = "@\n\x1e\rANSI 636014080002DL00410120ZC01610011DLDAQD1234567\nDCSPUBLIC\nDACJOHN\nDADQUINCY\nDBB01311970\nDBA01312035\nDBD08242015\nDAJCA\nDAK902230000  \nDAU069 in\rZCZCAN\r"

func TestLicenseParseCommand(t *testing.T) {
	defer func(old func() time.Time) { licenseNow = old }(licenseNow)
	licenseNow = func() time.Time { return time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC) }

	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"license", "parse", "-"}, strings.NewReader(cliSample), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep struct {
		License struct {
			LastName string `json:"last_name"`
			Warnings []struct {
				Code string `json:"code"`
			} `json:"warnings"`
		} `json:"license"`
		Checks      map[string]any `json:"checks"`
		LicenseData map[string]any `json:"license_data"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	if rep.License.LastName != "PUBLIC" || rep.LicenseData["dob"] != "1970-01-31" || rep.LicenseData["height_cm"] != 175.0 {
		t.Errorf("parse: %+v %v", rep.License, rep.LicenseData)
	}
	if rep.Checks["over_21"] != true || rep.Checks["license_expired"] != false || rep.Checks["age"] != 54.0 {
		t.Errorf("checks %v", rep.Checks)
	}
	// The sample's designator lengths are not exact: reported, not fatal.
	if len(rep.License.Warnings) == 0 {
		t.Error("no warnings reported")
	}
}

func TestLicenseParseCommandFileAndErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "barcode.txt")
	if err := os.WriteFile(path, []byte(cliSample), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"license", "parse", path}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), `"PUBLIC"`) {
		t.Errorf("file: exit %d %s", code, errOut.String())
	}
	errOut.Reset()
	if code := run(context.Background(), []string{"license", "parse", "-"}, strings.NewReader("not a license"), &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "not AAMVA") {
		t.Errorf("garbage: exit %d %q", code, errOut.String())
	}
	errOut.Reset()
	if code := run(context.Background(), []string{"license", "parse"}, nil, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "usage") {
		t.Errorf("no argument: exit %d %q", code, errOut.String())
	}
}

func TestLicenseScanCommand(t *testing.T) {
	raw, err := license.ParseAAMVA([]byte(cliSample))
	if err != nil {
		t.Fatal(err)
	}
	c := synth.Case{Name: "cli", Payload: license.Encode(raw, 8), EC: 4, Module: 3, Seed: 3, Degradation: synth.Degradation{}} // clean: the first strategy reads it, whatever the load
	img, err := c.Render()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "back.png")
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"license", "scan", path}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep struct {
		LicenseData map[string]any `json:"license_data"`
		Scan        struct {
			Strategy string `json:"strategy"`
			Total    int64  `json:"total_ns"`
		} `json:"scan"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.LicenseData["last_name"] != "PUBLIC" || rep.LicenseData["document_number"] != "D1234567" || rep.Scan.Strategy == "" || rep.Scan.Total <= 0 {
		t.Errorf("scan output %s", out.String())
	}
	errOut.Reset()
	if code := run(context.Background(), []string{"license", "scan", filepath.Join(t.TempDir(), "missing.png")}, nil, &out, &errOut); code != 1 {
		t.Errorf("missing file: exit %d", code)
	}
}
