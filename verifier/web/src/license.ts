// The license steps: the front (card, portrait, printed zone) and the back
// (PDF417), each a photo step (capture.ts) with live guidance: the card's
// outline and what is wrong with it, and the photo taken by itself when
// the card is right (the back: when its barcode reads on the device).
import type { App } from "./app";
import { available, barcodeReader } from "./barcode";
import { photoStep, type Other } from "./capture";

type Side = "front" | "back";

// maxSide per side: the barcode's thin bars need more pixels than the
// card's edges and portrait do.
const maxSide: Record<Side, number> = { front: 1600, back: 2400 };

// others, given on a step, are its ways off it: on the back, retaking the
// front (an accepted photo may be replaced until the verification is
// submitted, and the person who saw a poor front should not have to start
// over); on the front of a link accepting several documents, choosing
// another one.
export function license(app: App, side: Side, done: () => void, others: Other[] = []): void {
  photoStep(
    app,
    {
      screen: side,
      title: side === "front" ? "front.title" : "back.title",
      hint: side === "front" ? "front.hint" : "back.hint",
      frame: "license.guide",
      fallback: "camera.fallback",
      maxSide: maxSide[side],
      send: (img) => (side === "front" ? app.api.front(img) : app.api.back(img)),
      live: side,
      // The back's reader starts loading with the step, beside the camera.
      reader: side === "back" && available() ? barcodeReader() : null,
    },
    done,
    others,
  );
}
