// Package axe runs axe-core's accessibility rules in a chromedp page, for
// the browser tests of the widget and the end-user pages. axe-core is an npm
// package pinned in the repository's package-lock.json and installed by
// `make npm` (npm ci); it is read from node_modules, never copied into the
// tree.
package axe

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit"
)

// Tags are the rule sets checked: WCAG 2.2 levels A and AA (which include
// the 2.0 and 2.1 rules), not axe's best practices, which judge the whole
// page's landmarks rather than the part under test.
var Tags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"}

// Violation is one failed rule with the elements that fail it.
type Violation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target json.RawMessage `json:"target"` // CSS selectors; arrays of arrays inside shadow roots
		HTML   string          `json:"html"`
	} `json:"nodes"`
}

func (v Violation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s", v.ID, v.Impact, v.Help)
	for _, n := range v.Nodes {
		fmt.Fprintf(&b, "\n    %s %s", n.Target, n.HTML)
	}
	return b.String()
}

// Check runs the rules on the elements matching selector, their open shadow
// roots included (the whole document when selector is empty), and returns
// the violations. axe-core is injected into the page on first use.
func Check(t testing.TB, ctx context.Context, selector string) []Violation {
	t.Helper()
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof window.axe === "object"`))
	if err != nil {
		t.Fatalf("axe: %v", err)
	}
	if !loaded {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](source(t)+";true")); err != nil {
			t.Fatalf("axe: inject axe-core: %v", err)
		}
	}
	target := "document"
	if selector != "" {
		sel, _ := json.Marshal(selector)
		target = fmt.Sprintf("{include: Array.from(document.querySelectorAll(%s))}", sel)
	}
	tags, _ := json.Marshal(Tags)
	expr := fmt.Sprintf(`axe.run(%s, {runOnly: {type: "tag", values: %s}, resultTypes: ["violations"]}).then(r => JSON.stringify(r.violations))`, target, tags)
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe: run: %v", err)
	}
	var vs []Violation
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		t.Fatalf("axe: results: %v", err)
	}
	return vs
}

// source reads axe-core from node_modules, with the fix in the failure.
func source(t testing.TB) string {
	t.Helper()
	file := filepath.Join(testkit.RepoRoot(t), "node_modules", "axe-core", "axe.min.js")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("axe: %v: run `make npm` (npm ci) to install the browser dependencies", err)
	}
	return string(b)
}
