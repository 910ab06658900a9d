// The face tracker of the liveness step, loaded from our origin only when
// the step starts (verifier/web/tracker serves Human's files; the page is
// built knowing their paths). Its model work runs in a dedicated worker
// (trackerworker.ts): a tracked frame takes about 250 ms of CPU at 4×
// slowdown, during which, on the page's thread, the recorder could not
// take its 12 frames a second (docs/end-user-flow.md). Where no worker can
// run it (no Worker, createImageBitmap or OffscreenCanvas, or the worker
// failed to start) the same work (humantrack.ts) runs on the page's
// thread, as before; without WebAssembly or the files there is no tracker
// and the page paces the step.
import { track, type Files, type HumanLib, type Need, type Seen, type Tracker as Core } from "./humantrack";

export type { Need, Seen } from "./humantrack";

// Tracker is the page's tracker, and where its models run (the page
// shows it on the stage, data-tracker-in, for tests and benchmarks).
export type Tracker = Core & { where: "worker" | "page" };

// Where the tracker's files are (set at build time, null without them).
declare const IDGATE_TRACKER: Files | null;

declare global {
  interface Window {
    idgateHuman?: HumanLib;
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
  await script(files.lib);
  const lib = window.idgateHuman;
  if (!lib) return null;
  const probe = document.createElement("canvas");
  probe.width = probe.height = 64;
  return { ...(await track(lib, files, probe.getContext("2d", { willReadFrequently: true })!)), where: "page" };
}

// inWorker starts the worker and resolves once its detector is in, or
// rejects when it cannot start (then the page tracks on its own thread).
// Each frame is copied into an ImageBitmap at once (the page reuses its
// canvases) and transferred, not cloned.
function inWorker(files: Files): Promise<Tracker> {
  const w = new Worker(files.worker);
  const pending = new Map<number, { resolve: (s: Seen) => void; reject: (e: Error) => void }>();
  let next = 0;
  let meshIn: (ok: boolean) => void = () => {};
  let irisIn: (ok: boolean) => void = () => {};
  const mesh = new Promise<boolean>((r) => (meshIn = r));
  const iris = new Promise<boolean>((r) => (irisIn = r));
  return new Promise<Tracker>((resolve, reject) => {
    let started = false;
    // A worker that dies leaves the step without readings: pending frames
    // fail (the recorder goes on; ready() is told) and models not yet in
    // never will be.
    const fail = (why: string) => {
      const e = new Error("face tracker worker: " + why);
      if (!started) reject(e);
      for (const p of pending.values()) p.reject(e);
      pending.clear();
      meshIn(false);
      irisIn(false);
      w.terminate();
    };
    w.onerror = (ev) => (ev.preventDefault(), fail(ev.message || "error"));
    w.onmessageerror = () => fail("message error");
    w.onmessage = (ev: MessageEvent<FromWorker>) => {
      const m = ev.data;
      switch (m.type) {
        case "ready":
          started = true;
          resolve({
            where: "worker",
            mesh,
            iris,
            async see(frame, need) {
              const bitmap = await createImageBitmap(frame);
              const id = next++;
              return new Promise<Seen>((resolve, reject) => {
                pending.set(id, { resolve, reject });
                w.postMessage({ type: "see", id, frame: bitmap, need } satisfies ToWorker, [bitmap]);
              });
            },
          });
          return;
        case "failed":
          return fail(m.error);
        case "mesh":
          return meshIn(m.ok);
        case "iris":
          return irisIn(m.ok);
        case "seen":
        case "unseen": {
          const p = pending.get(m.id);
          pending.delete(m.id);
          if (m.type === "seen") p?.resolve(m.seen);
          else p?.reject(new Error(m.error));
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
