package widget_test

import (
	"bytes"
	"fmt"
	pngpkg "image/png"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit/chromium"
	"github.com/idgate/idgate/widget"
	"github.com/idgate/idgate/widget/internal/qrread"
)

// The encoder, run in Chromium, draws codes that zxing-cpp reads back, at
// lengths spanning versions 1 to 10 (version information from 7 on), with
// non-ASCII bytes; text beyond version 10 gets no code.
func TestQRCodesScan(t *testing.T) {
	ctx := chromium.New(t)
	b, err := widget.BuildEntry("qr.ts", "idgateQRTest")
	if err != nil {
		t.Fatal(err)
	}
	page := `data:text/html,<!doctype html><body style="margin:0;background:#fff"></body>`
	if err := chromedp.Do(ctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](string(b.JS)+";true")); err != nil {
		t.Fatal(err)
	}
	draw := `(text) => { const m = idgateQRTest.qr(text); document.body.replaceChildren();
		if (!m) return 0; const n = m.length + 8, c = document.createElement("canvas"); c.width = c.height = n * 4;
		const g = c.getContext("2d"); g.fillStyle = "#fff"; g.fillRect(0, 0, c.width, c.height); g.fillStyle = "#000";
		m.forEach((row, y) => row.forEach((d, x) => d && g.fillRect((x + 4) * 4, (y + 4) * 4, 4, 4)));
		document.body.append(c); return m.length; }`
	for _, n := range []int{1, 14, 26, 42, 62, 84, 106, 122, 152, 180, 213} {
		text := strings.Repeat("x", n)
		if n >= 26 {
			text = "https://v.example/" + strings.Repeat("x", n-18-2) + "é"
		}
		size, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf("(%s)(%q)", draw, text)))
		if err != nil {
			t.Fatal(err)
		}
		if size == 0 {
			t.Fatalf("%d bytes: no code", len(text))
		}
		png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("canvas")))
		if err != nil {
			t.Fatal(err)
		}
		img, err := pngpkg.Decode(bytes.NewReader(png))
		if err != nil {
			t.Fatal(err)
		}
		got, err := qrread.Read(img)
		if err != nil || got != text {
			t.Fatalf("%d bytes (version %d): read %q, %v", len([]byte(text)), (size-17)/4, got, err)
		}
		t.Logf("%3d bytes: version %d scans", len([]byte(text)), (size-17)/4)
	}
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf("(%s)(%q)", draw, strings.Repeat("x", 214)))); err != nil || n != 0 {
		t.Fatalf("214 bytes drew a %d-module code (%v), want none", n, err)
	}
}
