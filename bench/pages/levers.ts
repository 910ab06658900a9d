// The levers' harness (levers.go): the page's tracker configuration
// (humantrack.ts) and pose code (facepose.ts) driven frame by frame on the
// page's thread, each frame with or without the detector and the eyelids
// as a lever's plan says, timed one detect() at a time; and the page's
// tracker itself (humantrack.ts's track, its own step: meshstep.ts),
// asked as the page asks during a step.
import { humanConfig, track, type Files, type Frame, type HumanLib, type Tracker } from "./src/humantrack";
import { eyeAspect, pose, type Mesh } from "./src/facepose";
import { eyelidsOn, findBox, frameTensor, meshOn, type StepHuman, type Tensor } from "./src/meshstep";

// A face as Human's detect() gives it.
interface HumanFace {
  box: [number, number, number, number];
  mesh: [number, number, number][];
  score: number;
}

// meshOf is Human's face's mesh as facepose.ts reads it. The mesh's depth
// is in units of the square crop it was computed on: Human's box is that
// crop, re-centred on the mesh and clamped to the frame, so its longer
// side is the crop's unless the crop overflows the frame both ways.
function meshOf(f: HumanFace): Mesh {
  return { points: f.mesh, side: Math.max(f.box[2], f.box[3]) };
}

interface Human {
  load(config?: object): Promise<void>;
  detect(input: HTMLCanvasElement | Tensor, config?: object): Promise<{ face: HumanFace[] }>;
  image(input: HTMLCanvasElement, getTensor: true): Promise<{ tensor: Tensor | null }>;
}

let human: Human | null = null;
// probe makes a 2D context to read, as the page's tracker does (tracker.ts).
const probe = () => document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
let tracker: Tracker<Frame> | null = null;
const frames: HTMLCanvasElement[] = [];

// start loads Human with every model the page loads, one after the other.
export async function start(lib: HumanLib, files: Files): Promise<void> {
  const h = new lib.Human(humanConfig(files)) as unknown as Human;
  await h.load();
  await h.load({ face: { mesh: { enabled: true } } });
  await h.load({ face: { iris: { enabled: true } } });
  human = h;
  const t = await track(lib, files, probe);
  if (!(await t.mesh) || !(await t.iris)) throw new Error("levers: the tracker's models did not load");
  tracker = t;
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

// One frame's reading: ms of its detect(), found, yaw and eye ratio.
type Reading = [number, boolean, number, number];

// run tracks the decoded frames in order, frame i with the detector when
// det[i] (else on the box Human kept from the last frame's mesh) and the
// eyelids when eyes[i].
export async function run(det: boolean[], eyes: boolean[]): Promise<Reading[]> {
  const out: Reading[] = [];
  for (let i = 0; i < frames.length; i++) {
    const t0 = performance.now();
    const r = await human!.detect(frames[i], { cacheSensitivity: det[i] ? 0 : 1e9, face: { mesh: { enabled: true }, iris: { enabled: eyes[i] } } });
    const ms = performance.now() - t0;
    const f = r.face[0];
    if (!f || !f.mesh || f.mesh.length < 468) {
      out.push([ms, false, NaN, NaN]);
      continue;
    }
    const m = meshOf(f);
    out.push([ms, true, pose(m).yaw, eyes[i] ? eyeAspect(m) : NaN]);
  }
  return out;
}

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
    out.push(s.pose ? [ms, true, s.pose.yaw, s.eyes] : [ms, false, NaN, NaN]);
  }
  return out;
}

// stages times each stage of the tracker's own step on every decoded
// frame, one after the other on the page's thread: the frame made a
// tensor through Human's image input (the step before) and directly
// (meshstep.ts, frameTensor), BlazeFace through Human's detect() (the
// step before) and run directly (blazebox.ts), the mesh on the box, and
// the eyelids. ms per frame and stage, in that order.
export async function stages(): Promise<number[][]> {
  const h = human as unknown as Human & StepHuman;
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
    h.tf.dispose((await lap(() => h.image(f, true))).tensor!);
    const input = await lap(() => frameTensor(h.tf, f, scratch));
    await lap(() => h.detect(input, { cacheSensitivity: 0, face: { mesh: { enabled: false }, iris: { enabled: false } } }));
    const box = await lap(() => findBox(h, input, 0.3));
    const m = box && (await lap(() => meshOn(h, input, box)));
    if (m) await lap(() => eyelidsOn(h, input, m));
    h.tf.dispose(input);
    if (ms.length === 6) out.push(ms);
  }
  return out;
}
