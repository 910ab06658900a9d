// The ID card's two steps (ICAO 9303 TD1: a passport card, a national ID
// card). Both sides are an ID-1 card, so both have the license front's
// capture: the card guide, its live guidance and the photo taken by itself
// once the card is right and still. The back carries the three lines of
// the machine-readable zone, which only the server reads: the guide
// judges the card (outline, size, sharpness, glare), not the zone, and
// the server's reasons say when the zone is missing or unreadable. Its
// guide is the card with the zone's band marked (app.css).
import type { App } from "./app";
import { photoStep, type Other } from "./capture";

type Side = "front" | "back";

// maxSide: the front as the license's; the back's zone characters
// (2.54 mm apart) get about 19 px each when the card fills 5/8 of a
// 2400 px frame, over the reader's need of 1 px a stroke
// (docs/engines.md), as the license's back gives its barcode. The guide
// takes the back once the card covers 22% of the frame (autocapture.ts):
// on the 1920×1080 the camera asks for, a card ~850 px wide, ~28 px a
// character; on a 640×480 camera ~330 px, ~11 px a character, still over
// a stroke's pixel: verifier/engines' TestIDCardBackAccepted reads such
// cards at 1280×720 and 640×480.
const maxSide: Record<Side, number> = { front: 1600, back: 2400 };

// others are the step's ways off it: on the front of a link accepting
// several documents, choosing another one; on the back, retaking the
// front.
export function idCard(app: App, side: Side, done: () => void, others: Other[] = []): void {
  photoStep(
    app,
    side === "front"
      ? {
          screen: "idfront",
          title: "idcard.front.title",
          hint: "idcard.front.hint",
          frame: "idcard.guide",
          fallback: "idcard.fallback",
          maxSide: maxSide.front,
          send: (img) => app.api.idCardFront(img),
          live: "front",
          words: { find: "guide.find.idcard" },
          problems: "problem.idfront.",
        }
      : {
          screen: "idback",
          title: "idcard.back.title",
          hint: "idcard.back.hint",
          frame: "idcard.guide",
          fallback: "idcard.fallback",
          maxSide: maxSide.back,
          send: (img) => app.api.idCardBack(img),
          live: "front",
          words: { find: "guide.find.idcard" },
          problems: "problem.idback.",
        },
    done,
    others,
  );
}
