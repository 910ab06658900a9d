// The passport's one step: a photo of its data page (ICAO 9303 TD3, the
// page with the portrait and the two lines of the machine-readable zone),
// from which the server reads the zone, the portrait and the page's
// checks together. The guide is framed to the page (125 × 88 mm) with the
// portrait's place and the zone's band marked (app.css). Its live
// guidance finds the page by its zone, not by its edges (zoneguide.ts: an
// open passport's facing page above it has edges too), says when the
// zone is too small, blurred or under glare for the server's reader, or
// the page is cut off, and takes the photo once the page has been right
// and still for a moment; the server judges it.
import type { App } from "./app";
import { photoStep, type Other } from "./capture";

// maxSide: the page is held at the distance of a license's front, whose
// 1600 px give the zone's characters (2.54 mm apart) about 20 px each when
// the page fills half the frame's width, over the reader's need of 1 px a
// stroke (docs/engines.md). The guide asks for 1.5 px a stroke at this
// size (autocapture.ts, pageLimits).
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
      live: "page",
      words: { find: "guide.find.passport", closer: "guide.closer.passport", corners: "guide.corners.passport", glare: "guide.glare.passport" },
      auto: "guide.auto.passport",
      problems: "problem.passport.",
    },
    done,
    others,
  );
}
