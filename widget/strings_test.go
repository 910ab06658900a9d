package widget

import (
	"encoding/json"
	"testing"

	"github.com/idgate/idgate/internal/testkit/strtable"
)

// The widget's table (src/strings.json) speaks the same languages as the
// end user's pages, each with English's keys and placeholders, and uses the
// glossary's terms (docs/glossary.md).
func TestWidgetStrings(t *testing.T) {
	b, err := sources.ReadFile("src/strings.json")
	if err != nil {
		t.Fatal(err)
	}
	var tab strtable.Table
	if err := json.Unmarshal(b, &tab); err != nil {
		t.Fatal(err)
	}
	strtable.Complete(t, tab)
	for _, l := range []string{"en", "ar", "de", "es", "fr", "ko", "pt", "tl", "vi", "zh"} {
		if tab[l] == nil {
			t.Errorf("no %s strings", l)
		}
	}
	if n := strtable.Consistent(t, tab, strtable.ReadGlossary(t, "../docs/glossary.md")); n == 0 {
		t.Error("no widget string uses a glossary term: is the glossary read?")
	}
}
