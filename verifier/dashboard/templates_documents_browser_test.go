package dashboard_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
)

// The template form's choice of accepted_documents offers exactly the
// kinds a verification may accept (verifier.AvailableDocuments), and only
// when there is more than one; saving the default, the driver's license
// alone, leaves the member out, as templates saved before the choice have
// it. Ticked kinds are stored in the order of the template, new ones
// after, and none ticked is refused on the page.
func TestTemplateDocumentsInChromium(t *testing.T) {
	testkit.TakesTurns(t, 2)
	e := start(t)
	tb := newTab(t, e)
	tb.signIn(e.a)
	tb.goToPage("#/templates/new", "New template")
	tb.Wait(`!!document.querySelector("form.template")`)
	offered := eval[[]string](tb, `[...document.querySelectorAll("input[name=accepted_documents]")].map(c => c.labels[0].textContent.match(/\(([a-z_]+)\)$/)[1])`)
	avail := make([]string, len(verifier.AvailableDocuments))
	for i, k := range verifier.AvailableDocuments {
		avail[i] = string(k)
	}
	if len(avail) == 1 {
		if len(offered) != 0 {
			t.Fatalf("one kind is available (%v), yet the form offers a choice of %v", avail, offered)
		}
	} else if !slices.Equal(offered, avail) {
		t.Fatalf("the form offers %v, the server accepts %v", offered, avail)
	}

	// stored reads the template's accepted_documents ("absent" when left out).
	stored := func(id string) string {
		t.Helper()
		var got map[string]any
		e.call(e.a, "GET", "/templates/"+id, "", 200, &got)
		v, ok := got["accepted_documents"]
		if !ok {
			return "absent"
		}
		return fmt.Sprint(v)
	}
	tb.fill("Name", "Any document")
	tb.click("Create template")
	tb.WaitText("Template created")
	id := strings.TrimPrefix(eval[string](tb, `location.hash.split("?")[0]`), "#/templates/")
	if got := stored(id); got != "absent" {
		t.Fatalf("a template saved with the default stores accepted_documents %s", got)
	}
	if len(avail) == 1 {
		return
	}
	if !slices.Contains(avail, "passport") {
		t.Fatalf("kinds %v: this test walks the passport beside the license", avail)
	}
	tb.Shoot("template-documents")
	tb.fitsPhone("template documents")
	save := func(want string) {
		t.Helper()
		eval[bool](tb, `(document.querySelector("form.template [role=status]").replaceChildren(), true)`)
		tb.click("Save changes")
		tb.WaitText("Saved.")
		if got := stored(id); got != want {
			t.Fatalf("accepted_documents stored %s, want %s", got, want)
		}
	}
	tb.fill("Passport", "on")
	save("[drivers_license passport]")
	tb.fill("Driver's license", "off")
	save("[passport]")
	// Reopened, the form shows what is stored; the license ticked again
	// comes after the passport, the template's first kind.
	tb.page("#/templates/"+id, "Edit template")
	want := make([]bool, len(avail)) // only the passport ticked
	want[slices.Index(avail, "passport")] = true
	if got := eval[[]bool](tb, `[...document.querySelectorAll("input[name=accepted_documents]")].map(c => c.checked)`); !slices.Equal(got, want) {
		t.Fatalf("reopened, the choices are ticked %v, want %v: the passport alone", got, want)
	}
	tb.fill("Driver's license", "on")
	save("[passport drivers_license]")
	tb.fill("Passport", "off")
	tb.fill("Driver's license", "off")
	tb.click("Save changes")
	tb.WaitText("The template was not saved", "Tick at least one document.")
	tb.fill("Driver's license", "on")
	save("absent")
	if !slices.Contains(avail, "id_card") {
		return
	}
	// The ID card, ticked beside the license, follows it.
	tb.fill("ID card", "on")
	save("[drivers_license id_card]")
}
