// The face tracker of the liveness step, loaded from our origin only when
// the step starts (verifier/web/tracker serves its library, TensorFlow.js,
// and the models; the page is built knowing their paths). Its model work
// runs in a dedicated worker (trackerworker.ts): a tracked frame takes about 250 ms of CPU at 4×
// slowdown, during which, on the page's thread, the recorder could not
// take its 12 frames a second (docs/end-user-flow.md). Where no worker can
// run it (no Worker, createImageBitmap or OffscreenCanvas, or the worker
// failed to start) the same work (facetrack.ts) runs on the page's
// thread, as before; without WebAssembly or the files there is no tracker
// and the page paces the step. A worker that dies or stops answering once
// started hands over to the same work on the page's thread (lost below).
import { prefetch, track, type Files, type TFLib, type Need, type Seen, type Tracker as Core } from "./facetrack";

export type { Need, Seen } from "./facetrack";

// Tracker is the page's tracker, and where its models run (the page
// shows it on the stage, data-tracker-in, for tests and benchmarks):
// "worker" (also while a lost worker hands over), "page", or "none" once
// a lost worker left no tracker behind (every see() then fails, and the
// page paces what is left of the attempt).
export type Tracker = Core & { where: "worker" | "page" | "none" };

// answerMs bounds the worker's answer to a frame. A frame takes 0.1–0.3 s
// in the worker here, and at most about 0.9 s was seen on the page's
// thread at 4× CPU slowdown on a loaded machine (docs/end-user-flow.md):
// a worker silent for 5 s has hung or died without saying so, and waiting
// longer would cost the step (8 s on the server) its guidance.
const answerMs = 5000;

// Where the tracker's files are (set at build time, null without them).
declare const IDGATE_TRACKER: Files | null;

declare global {
  interface Window {
    idgateTF?: TFLib;
  }
}

// What the worker says (trackerworker.ts): its detector is in (ready) or
// it could not start (failed); the mesh or iris model is in or not; a
// frame's reading, or why there is none.
export type FromWorker =
  | { type: "ready" }
  | { type: "failed"; error: string }
  | { type: "mesh" | "iris"; ok: boolean }
  | { type: "seen"; id: number; seen: Seen }
  | { type: "unseen"; id: number; error: string };

// What the page asks: start with these files; track this frame.
export type ToWorker = { type: "init"; files: Files } | { type: "see"; id: number; frame: ImageBitmap; need: Need };

let loading: Promise<Tracker | null> | null = null;

// available says whether this page was built with a tracker to load.
export function available(): boolean {
  return typeof IDGATE_TRACKER !== "undefined" && IDGATE_TRACKER !== null;
}

// load starts loading the tracker (once) and resolves to it, or to null
// when it cannot run here (no WebAssembly, a network error, a model that
// does not load): the page then paces the step without it.
export function load(): Promise<Tracker | null> {
  if (!loading)
    loading = start().catch((e) => {
      // Said in the console for whoever debugs a phone; the page goes on.
      console.warn("face tracker unavailable:", e);
      return null;
    });
  return loading;
}

async function start(): Promise<Tracker | null> {
  if (!available() || typeof WebAssembly !== "object") return null;
  const files = IDGATE_TRACKER!;
  if (typeof Worker === "function" && typeof createImageBitmap === "function") {
    try {
      return await inWorker(files);
    } catch (e) {
      console.warn("face tracker worker unavailable, tracking on the page:", e);
    }
  }
  return inPage(files);
}

// inPage is the tracker on the page's own thread, null when the library's
// script does not define it.
async function inPage(files: Files): Promise<Tracker | null> {
  prefetch(files);
  await script(files.lib);
  const lib = window.idgateTF;
  if (!lib) return null;
  const probe = () => document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
  return { ...(await track(lib, files, probe)), where: "page" };
}

// inWorker starts the worker and resolves once its detector is in, or
// rejects when it cannot start (then the page tracks on its own thread).
// Each frame is copied into an ImageBitmap at once (the page reuses its
// canvases) and transferred, not cloned.
function inWorker(files: Files): Promise<Tracker> {
  const w = new Worker(files.worker);
  const pending = new Map<number, { resolve: (s: Seen) => void; reject: (e: Error) => void; timer: number }>();
  let next = 0;
  let meshIn: (ok: boolean) => void = () => {};
  let irisIn: (ok: boolean) => void = () => {};
  const mesh = new Promise<boolean>((r) => (meshIn = r));
  const iris = new Promise<boolean>((r) => (irisIn = r));
  return new Promise<Tracker>((resolve, reject) => {
    let started: Tracker | null = null;
    // instead: the page's own tracker, once a started worker was lost.
    let instead: Tracker | null = null;
    let lost = false;
    // A worker that dies, or stops answering, before it started: the page
    // tracks on its own thread (start). After: its pending frames fail
    // (the recorder goes on untracked), and the same work starts on the
    // page's thread for the rest of the step, with nothing said on screen
    // (the person is doing the step; the console says it for whoever
    // debugs a phone). Should that not load either, the tracker is "none"
    // and the page paces what is left (liveness.ts, guided).
    const fail = (why: string) => {
      if (lost) return;
      lost = true;
      const e = new Error("face tracker worker: " + why);
      for (const p of pending.values()) (clearTimeout(p.timer), p.reject(e));
      pending.clear();
      w.terminate();
      if (!started) {
        meshIn(false);
        irisIn(false);
        return reject(e);
      }
      console.warn(e.message + "; tracking on the page");
      const t = started;
      void inPage(files)
        .catch((err) => (console.warn("face tracker unavailable:", err), null))
        .then((p) => {
          instead = p;
          t.where = p ? "page" : "none";
          // Models the worker had not loaded come with the page's tracker.
          void (p ? p.mesh : Promise.resolve(false)).then(meshIn);
          void (p ? p.iris : Promise.resolve(false)).then(irisIn);
        });
    };
    w.onerror = (ev) => (ev.preventDefault(), fail(ev.message || "error"));
    w.onmessageerror = () => fail("message error");
    w.onmessage = (ev: MessageEvent<FromWorker>) => {
      const m = ev.data;
      switch (m.type) {
        case "ready":
          started = {
            where: "worker",
            mesh,
            iris,
            async see(frame, need) {
              if (instead) return instead.see(frame, need);
              if (lost) throw new Error("face tracker: " + (started!.where === "none" ? "none" : "starting on the page"));
              const bitmap = await createImageBitmap(frame);
              const id = next++;
              return new Promise<Seen>((resolve, reject) => {
                const timer = window.setTimeout(() => fail(`no answer in ${answerMs} ms`), answerMs);
                pending.set(id, { resolve, reject, timer });
                w.postMessage({ type: "see", id, frame: bitmap, need } satisfies ToWorker, [bitmap]);
              });
            },
          };
          return resolve(started);
        case "failed":
          return fail(m.error);
        case "mesh":
          return meshIn(m.ok);
        case "iris":
          return irisIn(m.ok);
        case "seen":
        case "unseen": {
          const p = pending.get(m.id);
          if (!p) return;
          pending.delete(m.id);
          clearTimeout(p.timer);
          if (m.type === "seen") p.resolve(m.seen);
          else p.reject(new Error(m.error));
        }
      }
    };
    w.postMessage({ type: "init", files } satisfies ToWorker);
  });
}

// script loads a script of our origin (CSP script-src 'self').
function script(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = src;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error("tracker script"));
    document.head.append(s);
  });
}
