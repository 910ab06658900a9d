// The card's outline in a small grey frame of the live video, and how
// usable the card is (size, corners in view, sharpness, glare), so the
// license pages can say what is wrong while the camera runs and capture
// by themselves when nothing is. Our own small code: a well-kept library
// that finds quadrilaterals in the browser is OpenCV.js, about 8 MB of
// WebAssembly, far past a phone step's budget; this is a few kilobytes.
// The server still judges the photo (verifier/license/card), so this only
// has to agree with it on cards it would accept, not be as thorough.
//
// How: the hint asks for the card on a dark, plain surface, so its
// outline is the first strong edge met from each border of the frame
// inwards. Each side's edge points are fitted with a line by RANSAC
// (text and portrait edges inside the card, or a cluttered table, are
// outliers), and the four lines' crossings are the corners.

// Gray is a luminance image, one byte a pixel, row after row.
export interface Gray {
  w: number;
  h: number;
  px: Uint8ClampedArray;
}

export interface Point {
  x: number;
  y: number;
}

// A line n·p = d with |n| = 1.
interface Line {
  nx: number;
  ny: number;
  d: number;
}

export type Quad = [Point, Point, Point, Point]; // top-left, top-right, bottom-right, bottom-left

// gray converts RGBA pixels (canvas ImageData) to luminance (BT.601).
export function gray(rgba: Uint8ClampedArray, w: number, h: number): Gray {
  const px = new Uint8ClampedArray(w * h);
  for (let i = 0, j = 0; i < px.length; i++, j += 4) px[i] = (rgba[j] * 77 + rgba[j + 1] * 150 + rgba[j + 2] * 29) >> 8;
  return { w, h, px };
}

// edgeThreshold is the gradient a card's outline must exceed: a share of
// the strongest gradients in the frame (a dim frame has weaker edges),
// never below a floor that a table's grain stays under.
function edgeThreshold(g: Gray): number {
  const hist = new Uint32Array(256);
  let n = 0;
  for (let y = 1; y < g.h - 1; y += 2)
    for (let x = 1; x < g.w - 1; x += 2) {
      const i = y * g.w + x;
      const m = Math.min(255, Math.abs(g.px[i + 1] - g.px[i - 1]) + Math.abs(g.px[i + g.w] - g.px[i - g.w]));
      hist[m]++;
      n++;
    }
  // The 98th percentile: the outline is a small share of the pixels.
  let acc = 0;
  let p98 = 255;
  for (let v = 255; v >= 0; v--) {
    acc += hist[v];
    if (acc >= n * 0.02) {
      p98 = v;
      break;
    }
  }
  return Math.max(28, p98 * 0.45);
}

// scan collects, for each row (or column) of the frame, the first pixel
// from one border whose step across the scan direction exceeds thr.
function scan(g: Gray, thr: number, side: "left" | "right" | "top" | "bottom"): Point[] {
  const out: Point[] = [];
  const horizontal = side === "left" || side === "right";
  const lines = horizontal ? g.h : g.w;
  const len = horizontal ? g.w : g.h;
  const at = (u: number, v: number) => (horizontal ? g.px[v * g.w + u] : g.px[u * g.w + v]);
  const from = side === "left" || side === "top";
  for (let v = 1; v < lines - 1; v++) {
    for (let k = 2; k < len - 2; k++) {
      const u = from ? k : len - 1 - k;
      const step = Math.abs(at(u + 2, v) - at(u - 2, v));
      if (step > thr) {
        out.push(horizontal ? { x: u, y: v } : { x: v, y: u });
        break;
      }
    }
  }
  return out;
}

function lineThrough(a: Point, b: Point): Line | null {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy);
  if (len < 1e-6) return null;
  const nx = -dy / len;
  const ny = dx / len;
  return { nx, ny, d: nx * a.x + ny * a.y };
}

// fitLine fits a line to pts by RANSAC, then by least squares on its
// inliers; it returns null when fewer than minInliers points agree. The
// random source is a fixed-seed generator, so a frame always gives the
// same answer.
function fitLine(pts: Point[], minInliers: number, tol: number): { line: Line; inliers: number } | null {
  if (pts.length < minInliers || pts.length < 2) return null;
  let seed = 12345;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  let best: Line | null = null;
  let bestN = 0;
  for (let it = 0; it < 60; it++) {
    const l = lineThrough(pts[rnd(pts.length)], pts[rnd(pts.length)]);
    if (!l) continue;
    let n = 0;
    for (const p of pts) if (Math.abs(l.nx * p.x + l.ny * p.y - l.d) <= tol) n++;
    if (n > bestN) {
      bestN = n;
      best = l;
    }
  }
  if (!best || bestN < minInliers) return null;
  // Least squares on the inliers: the principal direction of their spread.
  let sx = 0;
  let sy = 0;
  const ins: Point[] = [];
  for (const p of pts) if (Math.abs(best.nx * p.x + best.ny * p.y - best.d) <= tol) ins.push(p);
  for (const p of ins) {
    sx += p.x;
    sy += p.y;
  }
  const mx = sx / ins.length;
  const my = sy / ins.length;
  let cxx = 0;
  let cxy = 0;
  let cyy = 0;
  for (const p of ins) {
    cxx += (p.x - mx) ** 2;
    cxy += (p.x - mx) * (p.y - my);
    cyy += (p.y - my) ** 2;
  }
  const angle = 0.5 * Math.atan2(2 * cxy, cxx - cyy); // direction of the line
  const nx = -Math.sin(angle);
  const ny = Math.cos(angle);
  return { line: { nx, ny, d: nx * mx + ny * my }, inliers: ins.length };
}

function cross(a: Line, b: Line): Point | null {
  const det = a.nx * b.ny - a.ny * b.nx;
  if (Math.abs(det) < 1e-6) return null;
  return { x: (a.d * b.ny - a.ny * b.d) / det, y: (a.nx * b.d - a.d * b.nx) / det };
}

// findCard returns the card's corners in g, or null when no four sides
// fit. Each side needs edge points along at least 12% of the frame.
export function findCard(g: Gray): Quad | null {
  const thr = edgeThreshold(g);
  const tol = Math.max(1.5, g.w / 200);
  const sides = (["top", "right", "bottom", "left"] as const).map((s) => {
    const span = s === "left" || s === "right" ? g.h : g.w;
    return fitLine(scan(g, thr, s), Math.round(span * 0.12), tol);
  });
  if (sides.some((s) => !s)) return null;
  const [top, right, bottom, left] = sides.map((s) => s!.line);
  const q = [cross(top, left), cross(top, right), cross(bottom, right), cross(bottom, left)];
  if (q.some((p) => !p)) return null;
  const quad = q as Quad;
  // A quadrilateral that folds over itself is no card.
  for (let i = 0; i < 4; i++) {
    const a = quad[i];
    const b = quad[(i + 1) % 4];
    const c = quad[(i + 2) % 4];
    if ((b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x) <= 0) return null;
  }
  return quad;
}

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

// ID-1 is 85.60 × 53.98 mm.
export const id1Aspect = 85.6 / 53.98;

// Measures of a found card.
export interface CardMeasure {
  // coverage is the card's share of the frame's area.
  coverage: number;
  // aspect is the long sides over the short sides, averaged.
  aspect: number;
  // inView: all four corners are inside the frame, off its very edge.
  inView: boolean;
}

export function measureCard(q: Quad, w: number, h: number): CardMeasure {
  let area = 0;
  for (let i = 0; i < 4; i++) {
    const a = q[i];
    const b = q[(i + 1) % 4];
    area += a.x * b.y - b.x * a.y;
  }
  const horiz = dist(q[0], q[1]) + dist(q[3], q[2]);
  const vert = dist(q[0], q[3]) + dist(q[1], q[2]);
  const margin = Math.max(w, h) * 0.01;
  return {
    coverage: Math.abs(area) / 2 / (w * h),
    aspect: Math.max(horiz, vert) / Math.min(horiz, vert),
    inView: q.every((p) => p.x >= margin && p.y >= margin && p.x <= w - 1 - margin && p.y <= h - 1 - margin),
  };
}

// Region is a box of g, in its pixels.
export interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

// innerBox is the box inside the quad's corners, shrunk by a tenth so the
// outline's own edge and the table stay out of the measures.
export function innerBox(q: Quad, w: number, h: number): Region {
  const xs = q.map((p) => p.x).sort((a, b) => a - b);
  const ys = q.map((p) => p.y).sort((a, b) => a - b);
  const x0 = xs[1];
  const x1 = xs[2];
  const y0 = ys[1];
  const y1 = ys[2];
  const mx = (x1 - x0) * 0.1;
  const my = (y1 - y0) * 0.1;
  return {
    x0: Math.max(1, Math.round(x0 + mx)),
    y0: Math.max(1, Math.round(y0 + my)),
    x1: Math.min(w - 2, Math.round(x1 - mx)),
    y1: Math.min(h - 2, Math.round(y1 - my)),
  };
}

// sharpness is the mean absolute Laplacian over the standard deviation of
// the grey levels in r: edge strength relative to contrast, so light and
// exposure cancel out (the idea of the server's card.Sharpness, measured
// here on the small frame). glare is the share of r's pixels at or near
// saturation (≥ 250), where print is washed out, as the server counts it
// (a share per patch would be more telling, but a portrait's white
// background is as saturated as a reflection, and the server counts both).
export function sharpnessAndGlare(g: Gray, r: Region): { sharpness: number; glare: number } {
  let n = 0;
  let sum = 0;
  let sum2 = 0;
  let lap = 0;
  let hot = 0;
  for (let y = r.y0; y < r.y1; y++)
    for (let x = r.x0; x < r.x1; x++) {
      const i = y * g.w + x;
      const v = g.px[i];
      n++;
      sum += v;
      sum2 += v * v;
      if (v >= 250) hot++;
      lap += Math.abs(4 * v - g.px[i - 1] - g.px[i + 1] - g.px[i - g.w] - g.px[i + g.w]);
    }
  if (n === 0) return { sharpness: 0, glare: 0 };
  const sd = Math.sqrt(Math.max(0, sum2 / n - (sum / n) ** 2));
  return { sharpness: sd > 0 ? lap / n / sd : 0, glare: hot / n };
}
