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
// On a phone with cores to spare a second worker joins once the first has
// every model in (lanes below).
import { prefetch, track, type Files, type TFLib, type Need, type Seen } from "./facetrack";

export type { Need, Seen } from "./facetrack";

// Tracker is the page's tracker, and where its models run (the page
// shows it on the stage, data-tracker-in, for tests and benchmarks):
// "worker" (also while a lost worker hands over), "page", or "none" once
// a lost worker left no tracker behind (every see() then fails, and the
// page paces what is left of the attempt).
export interface Tracker {
  where: "worker" | "page" | "none";
  // lanes: how many frames may be tracked at once, each lane a tracker
  // of its own (a worker, with its own carried box: facetrack.ts), 1 or
  // maxLanes. see() on a lane that is not there (one lost) takes lane 0.
  readonly lanes: number;
  see(frame: HTMLCanvasElement, need: Need, lane?: number): Promise<Seen>;
  // mesh and iris resolve when those models are in (or could not load:
  // then to false, and the tracker goes on without them).
  mesh: Promise<boolean>;
  iris: Promise<boolean>;
}

// maxLanes: a second worker, where the phone has the cores (spareCores).
// One worker at 4× CPU slowdown tracks 4–5 frames a second of the
// recorder's 12, two 8.6–9.2 (bench/pages -only-liveness, worker held
// back, session 26: docs/end-user-flow.md); the pairs
// the page tracks (liveness.ts, pair) stand alone (each pair's earlier
// frame is read on its later one's box), so two workers take pairs in
// turn and the page observes them in order. TensorFlow.js's own threads
// would use the cores too but need blob: workers, which the page's CSP
// refuses (docs/end-user-flow.md, lever (a)).
export const maxLanes = 2;

// spareCores: four cores or more leave one to each worker beside the
// page's thread and the compositor (mid-range Android phones have 8;
// navigator.hardwareConcurrency is what the browser says it may use).
// On fewer, a second worker would only take turns with the first on a
// core.
function spareCores(): boolean {
  return (navigator.hardwareConcurrency || 1) >= 4;
}

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
      return await inWorkers(files);
    } catch (e) {
      console.warn("face tracker worker unavailable, tracking on the page:", e);
    }
  }
  return inPage(files);
}

// inWorkers is the first worker's tracker, joined by a second worker
// (spareCores) once the first has all three models in (so that it does
// not compete with the first guidance for the link or a core; its files
// then come from the cache) and once its own are in, so that both lanes
// read the same. A second worker that cannot start, or is lost, leaves
// the first alone (lanes back to 1), the frames it had failing as a lost
// worker's do. A first worker lost while the second is up leaves the
// second alone in the same way (alone: it has every model in, and the
// page's thread stays the recorder's); lost with no second, the page's
// thread tracks, on one lane.
async function inWorkers(files: Files): Promise<Tracker> {
  let second: Tracker | null = null;
  let alone = false;
  const first = await inWorker(files, false, () => (alone = second !== null && second.where === "worker"));
  const up = () => !alone && first.where === "worker" && second !== null && second.where === "worker";
  if (spareCores())
    void first.iris
      .then((ok) => (ok ? inWorker(files, true) : null))
      .then(async (w) => {
        if (w && (await w.mesh) && (await w.iris)) second = w;
      })
      .catch((e) => console.warn("face tracker: no second worker:", e));
  return {
    get where() {
      return alone ? second!.where : first.where;
    },
    get lanes() {
      return up() ? maxLanes : 1;
    },
    mesh: first.mesh,
    iris: first.iris,
    see(frame, need, lane = 0) {
      return (alone || (lane > 0 && up()) ? second! : first).see(frame, need);
    },
  };
}

// inPage is the tracker on the page's own thread, null when the library's
// script does not define it.
async function inPage(files: Files): Promise<Tracker | null> {
  prefetch(files);
  await script(files.lib);
  const lib = window.idgateTF;
  if (!lib) return null;
  const probe = () => document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
  return { ...(await track(lib, files, probe)), where: "page", lanes: 1 };
}

// inWorker starts the worker and resolves once its detector is in, or
// rejects when it cannot start (then the page tracks on its own thread).
// Each frame is copied into an ImageBitmap at once (the page reuses its
// canvases) and transferred, not cloned. A second worker (inWorkers),
// lost, hands over to nothing: its where turns "none" and the first
// goes on alone. A first worker, lost, hands over to the second where
// spare says it took the lane over, else to the page's thread.
function inWorker(files: Files, second: boolean, spare?: () => boolean): Promise<Tracker> {
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
      if (second) {
        console.warn(e.message + "; the first worker goes on alone");
        started.where = "none";
        meshIn(false);
        irisIn(false);
        return;
      }
      if (spare?.()) return console.warn(e.message + "; the second worker goes on alone");
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
            lanes: 1,
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
