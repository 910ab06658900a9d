// Head pose and eye openness from one 468-point face mesh, computed as the
// server computes them (verifier/face/pose, ported): the same landmarks,
// the same axes and the same depth scale, so a turn the page shows as
// "20°" is 20° to the server too. Yaw > 0: the person turned to their own
// left, on the unmirrored frame the page sends.

// A mesh as the tracker gives it: points [x, y, z] with x, y in image
// pixels and z in the mesh model's 192 px crop units, and side the crop's
// width in image pixels (the server's Mesh.Max.X − Mesh.Min.X).
export interface Mesh {
  points: ArrayLike<ArrayLike<number>>;
  side: number;
}

export interface Pose {
  yaw: number;
  pitch: number;
  roll: number;
}

// Rigid landmarks spanning the head's own axes (pose.go).
const forehead = 10;
const chin = 152;
const rightCheek = 234;
const leftCheek = 454;

type Vec = [number, number, number];

// pose builds the head's frame from forehead→chin (y) and cheek→cheek made
// orthogonal to it (x), z = x × y, with depth rescaled to pixels first, and
// reads yaw, pitch, roll from it as pose.Estimate does.
export function pose(m: Mesh): Pose {
  const zs = m.side / 192;
  const pt = (i: number): Vec => {
    const p = m.points[i];
    return [p[0], p[1], p[2] * zs];
  };
  const y = unit(sub(pt(chin), pt(forehead)));
  const z = unit(cross(unit(sub(pt(leftCheek), pt(rightCheek))), y));
  const x = cross(y, z);
  return {
    yaw: deg(Math.atan2(x[2], z[2])),
    pitch: deg(Math.asin(Math.max(-1, Math.min(1, y[2])))),
    roll: deg(Math.atan2(-y[0], y[1])),
  };
}

// Eyelid landmarks (pose/eyes.go): the corners and three upper/lower
// pairs facing each other across the eye.
const eyes: { outer: number; inner: number; lids: [number, number][] }[] = [
  { outer: 33, inner: 133, lids: [[160, 144], [159, 145], [158, 153]] },
  { outer: 263, inner: 362, lids: [[387, 373], [386, 374], [385, 380]] },
];

// eyeAspect is the two eyes' mean aspect ratio (mean lid gap over the
// corner-to-corner width, in 3-D), as pose.EyeAspect(...).Mean().
export function eyeAspect(m: Mesh): number {
  const zs = m.side / 192;
  const dist = (a: number, b: number) => {
    const p = m.points[a];
    const q = m.points[b];
    return Math.hypot(p[0] - q[0], p[1] - q[1], (p[2] - q[2]) * zs);
  };
  let sum = 0;
  for (const e of eyes) {
    const w = dist(e.outer, e.inner);
    if (!(w > 0)) continue;
    sum += e.lids.reduce((g, [u, l]) => g + dist(u, l), 0) / e.lids.length / w;
  }
  return sum / eyes.length;
}

const sub = (a: Vec, b: Vec): Vec => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

// unit scales to length 1; a degenerate vector stays zero (angles 0, never NaN).
function unit(a: Vec): Vec {
  const l = Math.hypot(a[0], a[1], a[2]);
  return l > 0 && Number.isFinite(l) ? [a[0] / l, a[1] / l, a[2] / l] : [0, 0, 0];
}

const deg = (r: number) => (r * 180) / Math.PI;
