// The passport's one step: a photo of its data page (ICAO 9303 TD3, the
// page with the portrait and the two lines of the machine-readable zone),
// from which the server reads the zone, the portrait and the page's
// checks together. The guide is framed to the page (125 × 88 mm) with the
// portrait's place and the zone's band marked (app.css). It has no live
// guidance: the card guide finds a document by its outer edges, and an
// open passport's data page has its facing page above it, whose edges
// would be taken for the page's, on no real passport photos to calibrate
// on; so the shutter takes the photo, and the server's reasons say what
// to change.
import type { App } from "./app";
import { photoStep, type Other } from "./capture";

// maxSide: the page is held at the distance of a license's front, whose
// 1600 px give the zone's characters (2.54 mm apart) about 20 px each when
// the page fills half the frame's width, over the reader's need of 1 px a
// stroke (docs/engines.md).
const maxSide = 1600;

export function passport(app: App, done: () => void, others: Other[] = []): void {
  photoStep(
    app,
    {
      screen: "passport",
      title: "passport.title",
      hint: "passport.hint",
      frame: "passport.guide",
      fallback: "passport.fallback",
      maxSide,
      send: (img) => app.api.passportPage(img),
      problems: "problem.passport.",
    },
    done,
    others,
  );
}
