// The levers' harness (levers.go): the page's tracker itself
// (facetrack.ts's track, its own step: meshstep.ts) driven frame by frame
// on the page's thread, asked as the page asks during a step, each frame
// with or without the detector and the eyelids as a lever's plan says;
// and each stage of that step timed alone (stages).
import { track, type Files, type Frame, type TFLib, type Tracker } from "./src/facetrack";
import { eyelidsOn, findBox, frameTensor, meshOn, type Nets } from "./src/meshstep";

// probe makes a 2D context to read, as the page's tracker does (tracker.ts).
const probe = () => document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
let tracker: Tracker<Frame> | null = null;
// nets: the same models loaded apart, for the stages.
let nets: Nets | null = null;
const frames: HTMLCanvasElement[] = [];

// start loads the page's tracker with every model the page loads.
export async function start(lib: TFLib, files: Files): Promise<void> {
  const t = await track(lib, files, probe);
  if (!(await t.mesh) || !(await t.iris)) throw new Error("levers: the tracker's models did not load");
  tracker = t;
  const [detector, mesh, iris] = await Promise.all([files.models.detector, files.models.mesh, files.models.iris].map((u) => lib.loadGraphModel(u)));
  nets = { tf: lib, detector, mesh, iris };
}

// decode draws JPEG data URLs into canvases, off the clock.
export async function decode(urls: string[]): Promise<number> {
  frames.length = 0;
  for (const u of urls) {
    const img = new Image();
    img.src = u;
    await img.decode();
    const c = document.createElement("canvas");
    [c.width, c.height] = [img.naturalWidth, img.naturalHeight];
    c.getContext("2d")!.drawImage(img, 0, 0);
    frames.push(c);
  }
  return frames.length;
}

// One frame's reading: ms of its step, found, yaw, eye ratio, and
// whether the detector ran on it (asked, or a carried box that failed
// its checks: facetrack.ts, carry).
type Reading = [number, boolean, number, number, boolean];

// runTracker tracks the decoded frames in order with the page's tracker,
// asking the detector's own box on frame i when det[i] (else letting it
// carry the last frame's box) and the eyelids when eyes[i]; frames are
// taken at msApart (the clips' rate).
export async function runTracker(det: boolean[], eyes: boolean[], msApart: number): Promise<Reading[]> {
  const out: Reading[] = [];
  for (let i = 0; i < frames.length; i++) {
    const t0 = performance.now();
    const s = await tracker!.see(frames[i], { eyes: eyes[i], exact: det[i], at: i * msApart });
    const ms = performance.now() - t0;
    out.push(s.pose ? [ms, true, s.pose.yaw, s.eyes, s.exact] : [ms, false, NaN, NaN, s.exact]);
  }
  return out;
}

// stages times each stage of the tracker's own step on every decoded
// frame, one after the other on the page's thread: the frame made a
// tensor (meshstep.ts, frameTensor), BlazeFace (blazebox.ts), the mesh on
// its box, and the eyelids. ms per frame and stage, in that order.
export async function stages(): Promise<number[][]> {
  const h = nets!;
  const scratch = probe();
  const out: number[][] = [];
  for (const f of frames) {
    const ms: number[] = [];
    const lap = async <T>(work: () => T | Promise<T>): Promise<T> => {
      const t0 = performance.now();
      const r = await work();
      ms.push(performance.now() - t0);
      return r;
    };
    const input = await lap(() => frameTensor(h.tf, f, scratch));
    const box = await lap(() => findBox(h, input, 0.3));
    const m = box && (await lap(() => meshOn(h, input, box)));
    if (m) await lap(() => eyelidsOn(h, input, m));
    h.tf.dispose(input);
    if (ms.length === 4) out.push(ms);
  }
  return out;
}
