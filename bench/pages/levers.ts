// The levers' harness (levers.go): the page's tracker configuration
// (humantrack.ts) and pose code (facepose.ts) driven frame by frame on the
// page's thread, each frame with or without the detector and the eyelids
// as a lever's plan says, timed one detect() at a time; and the page's
// tracker itself (humantrack.ts's track, its own step: meshstep.ts),
// asked as the page asks during a step.
import { humanConfig, meshOf, track, type Files, type Frame, type HumanFace, type HumanLib, type Tracker } from "./src/humantrack";
import { eyeAspect, pose } from "./src/facepose";

interface Human {
  load(config?: object): Promise<void>;
  detect(input: HTMLCanvasElement, config?: object): Promise<{ face: HumanFace[] }>;
}

let human: Human | null = null;
let tracker: Tracker<Frame> | null = null;
const frames: HTMLCanvasElement[] = [];

// start loads Human with every model the page loads, one after the other.
export async function start(lib: HumanLib, files: Files): Promise<void> {
  const h = new lib.Human(humanConfig(files)) as unknown as Human;
  await h.load();
  await h.load({ face: { mesh: { enabled: true } } });
  await h.load({ face: { iris: { enabled: true } } });
  human = h;
  const probe = document.createElement("canvas");
  probe.width = probe.height = 64;
  const t = await track(lib, files, probe.getContext("2d", { willReadFrequently: true })!);
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
