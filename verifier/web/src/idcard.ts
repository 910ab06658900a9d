// The ID card's two steps (ICAO 9303 TD1: a passport card, a national ID
// card). The front is a card with a portrait, as a license's front is, so
// it has the license front's capture: the card guide, its live guidance
// and the photo taken by itself. The back carries the three lines of the
// machine-readable zone, which the server reads; the page cannot read
// them, so, as on the passport's page, the shutter takes the photo and the
// server's reasons say what to change. Its guide is the card with the
// zone's band marked (app.css).
import type { App } from "./app";
import { photoStep, type Other } from "./capture";

type Side = "front" | "back";

// maxSide: the front as the license's; the back's zone characters
// (2.54 mm apart) get about 19 px each when the card fills 5/8 of a
// 2400 px frame, over the reader's need of 1 px a stroke
// (docs/engines.md), as the license's back gives its barcode.
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
          find: "guide.find.idcard",
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
          problems: "problem.idback.",
        },
    done,
    others,
  );
}
