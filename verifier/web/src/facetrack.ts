// The face tracker's work on frames, the same in the page's worker
// (trackerworker.ts) and, where no worker can run it, on the page's own
// thread (tracker.ts): the BlazeFace, face mesh and iris models (the
// server's own) on TensorFlow.js's WebAssembly backend. It looks at a copy
// of the very canvas whose pixels are sent, so what it saw is what the
// server judges. Everything here is guidance: the server re-checks every
// frame.
import { eyeAspect, pose, type Pose } from "./facepose";
import { eyelidsOn, findBox, frameTensor, irisInput, meshOn, type Box, type GraphModel, type Meshed, type Nets } from "./meshstep";
import { firstRun, warmKernels, type WarmTF } from "./warmup";

// Where the tracker's files are (the page is built knowing them:
// tracker.ts). worker is the worker's script (trackerworker.ts).
export interface Files {
  lib: string;
  worker: string;
  wasm: Record<string, string>;
  models: { detector: string; mesh: string; iris: string };
}

// A frame to track: the page's canvas, or the worker's copy of it.
export type Frame = HTMLCanvasElement | ImageBitmap;

// The tracker's library as its script defines it (the global idgateTF:
// verifier/web/tracker/tf.ts): TensorFlow.js's core, its WebAssembly
// backend and its graph-model loader.
export interface TFLib extends WarmTF {
  setWasmPaths(paths: Record<string, string>): void;
  setBackend(name: string): Promise<boolean>;
  enableProdMode(): void;
  env(): { set(flag: string, value: boolean): void };
  loadGraphModel(url: string): Promise<GraphModel>;
}

// simdProbe is the smallest module with a SIMD instruction (a function
// that splats 0 into a v128 and drops it): TensorFlow.js's own test of
// the same name, run here before its script is in, so that the
// WebAssembly it will ask for is already on its way (wasmFile).
const simdProbe = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 9, 1, 7, 0, 65, 0, 253, 15, 26, 11]);

// wasmFile is the WebAssembly the backend runs here: the SIMD build where
// the browser has SIMD, else the plain one (the threaded builds need a
// cross-origin isolated page, which ours is not).
function wasmFile(): string {
  return WebAssembly.validate(simdProbe) ? "tfjs-backend-wasm-simd.wasm" : "tfjs-backend-wasm.wasm";
}

// prefetch asks for what the first guidance needs, the WebAssembly and
// the detector's model (its JSON, then the weights it names), before the
// library's script: the backend asks for the WebAssembly only once that
// script has run, and the loader for the model once the backend is up.
// All three downloads then share the link from the start (on Fast 4G the
// detector's 332 KB of weights had taken 0.6 s after the 0.7 s to get
// there), and the script's run overlaps them. The assets are cached for
// good, so the backend's and the loader's own requests are answered by
// the cache, or wait for these in flight. Called where the script is
// loaded, in the worker or on the page.
export function prefetch(files: Files): void {
  const drain = (r: Response) => r.arrayBuffer();
  void fetch(files.wasm[wasmFile()]).then(drain, () => null);
  const model = new URL(files.models.detector, location.href);
  void fetch(model)
    .then((r) => r.json())
    .then((m: { weightsManifest: { paths: string[] }[] }) => Promise.all(m.weightsManifest.flatMap((g) => g.paths.map((p) => fetch(new URL(p, model)).then(drain)))))
    .catch(() => null);
}

// A 2D context made to be read (willReadFrequently), on a canvas of its
// own: a canvas's in the page, an OffscreenCanvas's in the worker. The
// tracker reads the frame's pixels with one and the face's light with
// another.
export type Probe = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

// What the tracker saw on one frame.
export interface Seen {
  // face: the face's extent (the mesh's bounding box) in frame pixels,
  // null when none was found. Before the mesh model is in, it is
  // estimated from the detector's box (detectorBox).
  face: { x: number; y: number; w: number; h: number } | null;
  // pose: the head's pose from the mesh, null while only the detector
  // is loaded.
  pose: Pose | null;
  // eyes: the eye aspect ratio (pose.EyeAspect's mean), NaN when the
  // eyelids were not refined on this frame (the iris model skipped).
  eyes: number;
  // light: the face's mean luma, 0..255.
  light: number;
  // exact: the detector ran on this frame (no reused box: Need.exact).
  exact: boolean;
  // anchor: the yaw of the frame whose detector box this one was read on
  // (its own yaw where exact; NaN without a pose): what a carried frame
  // counts with towards straight-ahead (trackersteps.ts, settle). The
  // page tracks the later of two frames first and observes the earlier
  // first (liveness.ts, pair): without it, the earlier counted with the
  // yaw of the detector frame before the pair.
  anchor: number;
}

// What a frame needs tracked.
export interface Need {
  // eyes asks for the eyelids (the iris model, 45% of a frame's time)
  // as well, once that model is in.
  eyes: boolean;
  // exact asks for the detector's own box on this frame, as the server
  // crops every frame (see carry below): where the yaw decides something.
  exact: boolean;
  // at is when the frame was taken (ms, on the recording's clock: the
  // recorder's frames). Without it (the guidance before the first cue)
  // the frame is taken now, on performance.now()'s clock, and the person
  // is asked to hold still (see carry below).
  at?: number;
}

// Tracker is what the page uses: F is the page's canvas, the core tracks
// any Frame.
export interface Tracker<F = HTMLCanvasElement> {
  // see tracks one frame.
  see(frame: F, need: Need): Promise<Seen>;
  // mesh and iris resolve when those models are in (or could not load:
  // then to false, and the tracker goes on without them).
  mesh: Promise<boolean>;
  iris: Promise<boolean>;
}

// detectorBox: the detector's box is BlazeFace's, enlarged 1.4× and made
// square (blazebox.ts); the face's own extent (the mesh's, which the ready
// checks are calibrated on) is about the box before that enlargement, so
// the first guidance uses box / 1.4 about the box's centre until the mesh
// is in.
const detectorBox = 1.4;

// Carrying the detector's box to the next frame (the tracker's own step,
// meshstep.ts). The server crops every frame at its own detector box; the
// mesh on the previous frame's detector box, unmoved, reads the yaw as
// the server's pipeline does within 0.7° at the peaks of 16 real turns,
// at 10 frames a second (100 ms apart), but two frames on (200 ms apart)
// 2 of the 16 peaks read 1.2–1.9° further than the server's, past the 1°
// the page's "done" allows (bench/pages -levers, the Go rows; 2026-11-29).
// Human's own kept box (the last detector box's size re-centred on the
// last mesh) put 5 of those peaks 1.2–5.3° past the server's, and a box
// fitted to the detector's from the last mesh's landmarks 1, by 2.7°: so
// the box carried is the detector's, unmoved.
// A turn's box is carried only to the frame taken next to it, after it
// or before it (the page tracks two frames at a time, the later with the
// detector: liveness.ts, pairMs; carried back 100 ms, the box put no peak
// of those turns over the server's by more than 1°, worst +0.8°), at most
// carryMs from the detector's frame (the page's recorder takes one every
// 83 ms), and only once: then the detector runs again. Nor is it trusted where the
// face has moved more than carryMove of the box's side since (the two
// meshes' centres): on those clips a face moved at most 0.065 of it in
// 100 ms, and a face that jumps (a jerk, a camera that skips) would
// leave the mesh a crop it was not made for; the detector then runs on
// that frame.
// The eyelids' frames (the blink's) and the guidance before the first cue
// may carry it longer, up to reuseMs, while the head holds still (the
// carried frame's yaw within stillDegrees of the detector's frame): there
// no turn is judged, the eyelids are read on a crop of each eye cut about
// the mesh's own eye corners, not the box, and a frame read on a carried
// box counts towards straight-ahead with the detector frame's yaw
// (trackersteps.ts, settle). So carried, Human's kept box had read the
// eyelids as with the detector (median 0.022 from the server's eye ratio,
// against 0.023) but the yaw 0–4° off the server's (median 1.5°): fine to
// say "look straight" (15°), too far for a turn. On the page's thread the
// next frame comes 140 ms and more after a detector frame at 4× (a frame
// with the eyelids there takes 250–300 ms), so without this every frame of
// the blink ran the detector.
const carryMs = 110;
const carryMove = 0.1;
const stillDegrees = 3;
const reuseMs = 1000;

// minScore is the least score of a face, the detector's and the mesh
// model's alike, as Human takes it (face.detector.minConfidence).
const minScore = 0.3;

// track is a tracker on the library lib, once its detector is in (the
// mesh and iris models follow: Tracker.mesh, .iris); probe makes a new
// Probe each time it is called.
export async function track(lib: TFLib, files: Files, probe: () => Probe): Promise<Tracker<Frame>> {
  const ctx = probe();
  [ctx.canvas.width, ctx.canvas.height] = [64, 64];
  const pixels = probe();
  // A map by file name. The backend wants an entry for the threaded build
  // too, which it loads only on a cross-origin isolated page (ours is not:
  // threads need SharedArrayBuffer), so that entry names the SIMD file;
  // and it asks for the build prefetch asked for (wasmFile).
  lib.setWasmPaths({ ...files.wasm, "tfjs-backend-wasm-threaded-simd.wasm": files.wasm["tfjs-backend-wasm-simd.wasm"] });
  lib.env().set("WASM_HAS_SIMD_SUPPORT", wasmFile() === "tfjs-backend-wasm-simd.wasm");
  if (!(await lib.setBackend("wasm"))) throw new Error("face tracker: the WebAssembly backend did not start");
  // No checks on every op's arguments and results (Human, the loader
  // before, did the same).
  lib.enableProdMode();
  const nets: Nets = { tf: lib };
  // The detector alone first (BlazeFace, 335 KB of the 4.6 MB): the first
  // guidance (no face, closer, centre, dark) needs only its box. Then the
  // mesh (1.3 MB: the head's pose, for the turns and "look straight"),
  // then the iris model (2.4 MB: the eyelids, for the blink baseline and
  // the blink step), one after the other so each has the whole link. A
  // frame tracked meanwhile uses the models in when it gets to them
  // (meshstep.ts). The kernels are warmed while the detector's weights
  // download (warmup.ts).
  const detector = lib.loadGraphModel(files.models.detector);
  warmKernels(lib);
  nets.detector = await detector;
  let meshIn = false;
  let irisIn = false;
  // Each runs once on black frames before a frame of the person's may use
  // it (warmup.ts, firstRun): the iris model on both eyes' crops at once.
  const later = (key: "mesh" | "iris") =>
    lib
      .loadGraphModel(files.models[key])
      .then(async (m) => {
        await firstRun(lib, m, key === "mesh" ? m.inputs[0]?.shape?.[2] || 192 : irisInput, key === "mesh" ? 1 : 2);
        nets[key] = m;
        return true;
      })
      .catch((e) => (console.warn("face tracker: a model did not load:", e), false));
  const mesh = later("mesh").then((ok) => (meshIn = ok));
  const iris = mesh.then((ok) => ok && later("iris")).then((ok) => (irisIn = ok));
  // kept: the detector's box of the frame tracked last, when that frame
  // was taken, the centre of its face (the mesh's extent) and its yaw;
  // null once carried, or after any other frame.
  let kept: { box: Box; at: number; centre: [number, number]; yaw: number } | null = null;
  const lightOf = (frame: Frame, x: number, y: number, w: number, h: number) => {
    ctx.drawImage(frame, x, y, w, h, 0, 0, 64, 64);
    return meanLuma(ctx.getImageData(0, 0, 64, 64).data);
  };
  const none: Seen = { face: null, pose: null, eyes: NaN, light: 0, exact: true, anchor: NaN };
  // boxOnly is the first guidance, before the mesh is in: the detector's
  // box alone.
  const boxOnly = async (frame: Frame): Promise<Seen> => {
    const input = frameTensor(lib, frame, pixels);
    try {
      const b = await findBox(nets, input, minScore);
      if (!b) return none;
      const [bw, bh] = [b.x1 - b.x0, b.y1 - b.y0];
      const [w, h] = [bw / detectorBox, bh / detectorBox];
      const [x, y] = [b.x0 + (bw - w) / 2, b.y0 + (bh - h) / 2];
      return { face: { x, y, w, h }, pose: null, eyes: NaN, light: lightOf(frame, x, y, w, h), exact: true, anchor: NaN };
    } finally {
      lib.dispose(input);
    }
  };
  // own is the tracker's own step: the detector's box, or the last
  // frame's carried (still: up to reuseMs while the head holds still); a
  // carried box that finds no face gives way to the detector on the same
  // frame; then, where eyes, the eyelids on the mesh.
  const own = async (frame: Frame, need: Need, at: number, eyes: boolean, still: boolean): Promise<Seen> => {
    const input = frameTensor(lib, frame, pixels);
    try {
      const within = still ? reuseMs : carryMs;
      const from = !need.exact && kept !== null && at !== kept.at && Math.abs(at - kept.at) <= within ? kept : null;
      // long: carried past a turn's carryMs, so only while still.
      const long = from !== null && Math.abs(at - from.at) > carryMs;
      const carry = from && from.box;
      let box = carry;
      let m = box && (await meshOn(nets, input, box));
      const moved = (got: Meshed) => {
        const c = centreOf(extentOf(got.points));
        return Math.hypot(c[0] - from!.centre[0], c[1] - from!.centre[1]) / got.side;
      };
      if (!m || !(m.score >= minScore) || moved(m) > carryMove || (long && !(Math.abs(pose(m).yaw - from!.yaw) <= stillDegrees))) {
        box = await findBox(nets, input, minScore);
        // A task boundary between the detector and the mesh: on the page's
        // thread the detector (about 70 ms at 4× CPU slowdown) keeps the
        // recorder's timer from running; here its frame is taken when
        // due, and the recording keeps its rate.
        await new Promise((r) => setTimeout(r, 0));
        m = box && (await meshOn(nets, input, box));
      }
      const exact = m !== null && box !== carry;
      kept = exact && box && m ? { box, at, centre: centreOf(extentOf(m.points)), yaw: pose(m).yaw } : null;
      if (!m || !(m.score >= minScore)) return none;
      const lids = eyes && (await eyelidsOn(nets, input, m));
      // The face is the mesh's extent (the box is the model's crop, about
      // twice as wide).
      const { x, y, w, h } = extentOf(m.points);
      const p = pose(m);
      return { face: { x, y, w, h }, pose: p, eyes: lids ? eyeAspect(m) : NaN, light: lightOf(frame, x, y, w, h), exact, anchor: exact ? p.yaw : from!.yaw };
    } finally {
      lib.dispose(input);
    }
  };
  return {
    mesh,
    iris,
    async see(frame, need) {
      const eyes = meshIn && need.eyes && irisIn;
      return !meshIn ? boxOnly(frame) : own(frame, need, need.at ?? performance.now(), eyes, eyes || need.at === undefined);
    },
  };
}

// extentOf is the bounding box of a mesh's points (at least 1 px a side).
function extentOf(points: ArrayLike<ArrayLike<number>>): { x: number; y: number; w: number; h: number } {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    [x0, x1] = [Math.min(x0, p[0]), Math.max(x1, p[0])];
    [y0, y1] = [Math.min(y0, p[1]), Math.max(y1, p[1])];
  }
  return { x: x0, y: y0, w: Math.max(1, x1 - x0), h: Math.max(1, y1 - y0) };
}

const centreOf = (e: { x: number; y: number; w: number; h: number }): [number, number] => [e.x + e.w / 2, e.y + e.h / 2];

// meanLuma is the mean luma of a 64×64 RGBA crop, 0..255.
function meanLuma(px: Uint8ClampedArray): number {
  let sum = 0;
  for (let i = 0; i < px.length; i += 4) sum += 0.299 * px[i] + 0.587 * px[i + 1] + 0.114 * px[i + 2];
  return sum / (px.length / 4);
}
