package idgate_test

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// mdLink is a markdown link's target: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// headingAnchor is the anchor GitHub gives a heading: lower case, every
// character but letters, digits, spaces, hyphens and underscores dropped,
// spaces turned into hyphens.
func headingAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestDocsLinks: every relative link in README.md, DEVELOPERS.md and docs/
// names a file that exists and, with a #fragment into a markdown file, a
// heading it has, so moving a section between pages cannot leave a link
// behind.
func TestDocsLinks(t *testing.T) {
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	docs = append([]string{"README.md", "DEVELOPERS.md"}, docs...)
	anchors := map[string]map[string]bool{}
	headings := func(file string) map[string]bool {
		if a, ok := anchors[file]; ok {
			return a
		}
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		a := map[string]bool{}
		fence := false
		for _, line := range strings.Split(string(raw), "\n") {
			if strings.HasPrefix(line, "```") {
				fence = !fence
			}
			if !fence && strings.HasPrefix(line, "#") {
				a[headingAnchor(strings.TrimLeft(line, "#"))] = true
			}
		}
		anchors[file] = a
		return a
	}
	links := 0
	for _, doc := range docs {
		raw, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(raw), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			file, frag, _ := strings.Cut(target, "#")
			if file == "" {
				file = doc
			} else {
				file = path.Join(path.Dir(doc), file)
			}
			if _, err := os.Stat(filepath.FromSlash(file)); err != nil {
				t.Errorf("%s links to %s, which does not exist", doc, target)
				continue
			}
			if frag != "" && strings.HasSuffix(file, ".md") && !headings(file)[frag] {
				t.Errorf("%s links to %s: %s has no heading with that anchor", doc, target, file)
			}
		}
	}
	if links < 50 {
		t.Errorf("found %d relative links in the docs, expected the README's and the pages' cross-links (50 or more)", links)
	}
}
