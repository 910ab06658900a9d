// The browser's Back button inside the flow. The flow is one page, so Back
// from any step used to leave it (to the shop, the mail app, a blank tab)
// half done. Entering the steps now adds one history entry above the first
// screen's: Back returns to the first screen and Forward (or its Start)
// goes on from the step where the person was. Both reload the page, which
// releases the camera and drops whatever the step was doing; the server's
// session says where the link is.
const key = "idgate";

type Place = "start" | "steps";

// place is which of the flow's entries this is (null: the page as opened).
function place(): Place | null {
  const s = history.state;
  return s && (s[key] === "start" || s[key] === "steps") ? s[key] : null;
}

// inSteps: the person was in the steps when this entry was left (Forward,
// a reload) or opens a link part way done; back at the first screen
// (Back) they see it again.
export function inSteps(partWay: boolean): boolean {
  const at = place();
  return at === "steps" || (at === null && partWay);
}

// enterSteps marks this entry the first screen's and adds the steps' one
// above it (once). Both keep the referrer the page was opened with: the
// pages send Referrer-Policy: no-referrer, so after the reload of a Back
// document.referrer is empty, and the done page's way back to the site
// (finish.ts) needs it.
export function enterSteps(): void {
  if (place() === "steps") return;
  const from = referrer();
  history.replaceState({ [key]: "start", from }, "");
  history.pushState({ [key]: "steps", from }, "");
}

// referrer is the page's referrer when it was first opened in this tab.
export function referrer(): string {
  const s = history.state;
  return document.referrer || (s && typeof s.from === "string" ? s.from : "");
}

// watchBack reloads the page when Back or Forward moves between the two.
export function watchBack(): void {
  window.addEventListener("popstate", () => location.reload());
}

// added is how many entries the flow put above the page's first: the site
// that opened the link is that many and one more back.
export function added(): number {
  return place() === "steps" ? 1 : 0;
}
