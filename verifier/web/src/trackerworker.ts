// The face tracker's worker (tracker.ts starts it; served as its own
// asset, /assets/tracker-worker-*.js, from our origin, so the page's CSP
// admits it: worker-src falls back to script-src 'self'). It loads the
// tracker's library (TensorFlow.js) and runs the models (facetrack.ts) off
// the page's thread, so the page's recorder keeps its rate while a frame
// is tracked.
import { prefetch, track, type TFLib, type Tracker, type Frame } from "./facetrack";
import type { FromWorker, ToWorker } from "./tracker";

// The worker's globals (tsconfig's lib is the DOM's, which lacks them).
declare function importScripts(...urls: string[]): void;
const scope = self as unknown as {
  onmessage: ((ev: MessageEvent<ToWorker>) => void) | null;
  postMessage(m: FromWorker): void;
  idgateTF?: TFLib;
};

const say = (m: FromWorker) => scope.postMessage(m);
let tracker: Promise<Tracker<Frame>> | null = null;

scope.onmessage = (ev) => {
  const m = ev.data;
  if (m.type === "init") {
    tracker = start(m.files);
    tracker.then(
      (t) => {
        say({ type: "ready" });
        void t.mesh.then((ok) => say({ type: "mesh", ok }));
        void t.iris.then((ok) => say({ type: "iris", ok }));
      },
      (e) => say({ type: "failed", error: String(e) }),
    );
    return;
  }
  const { id, frame, need } = m;
  if (!tracker) return say({ type: "unseen", id, error: "not started" });
  tracker
    .then((t) => t.see(frame, need))
    .then(
      (seen) => say({ type: "seen", id, seen }),
      (e) => say({ type: "unseen", id, error: String(e) }),
    )
    .finally(() => frame.close());
};

async function start(files: Parameters<typeof track>[1]): Promise<Tracker<Frame>> {
  if (typeof OffscreenCanvas !== "function" || typeof WebAssembly !== "object") throw new Error("no OffscreenCanvas or WebAssembly in a worker");
  prefetch(files);
  importScripts(files.lib);
  if (!scope.idgateTF) throw new Error("tracker script");
  return track(scope.idgateTF, files, () => new OffscreenCanvas(64, 64).getContext("2d", { willReadFrequently: true })!);
}
