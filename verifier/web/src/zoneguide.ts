// The machine-readable zone of a passport's data page (ICAO 9303 TD3: two
// lines of 44 OCR-B characters at the page's foot) found in a small grey
// frame of the live video, so the passport step can guide the page as the
// card steps guide a card. An open passport's data page has its facing
// page above it, whose edges the card finder would take for the page's;
// the zone is the one thing every data page prints in the same place, in
// the same font, as the server's reader finds it (verifier/mrz/reader:
// print darker than its neighbourhood, the turn at which its rows are
// sharpest, two long bands of one height and spacing). This only has to
// find the zone and measure its size; the server reads it.
import type { Gray, Point, Quad } from "./cardguide";

// TD3's zone in pitches (Doc 9303 Parts 3 and 4): characters 2.54 mm
// apart, capitals about 0.75 pitch high; the ink of a line of 44 runs from
// the first glyph's left edge to the last one's right, about 43.5
// pitches. The lines' spacing is taken from 1.35 to 2.9 pitches: the
// rendered pages (verifier/mrz/mrztest) print them 4.23 mm apart, 1.67
// pitches, real data pages further (TestZoneGuideOnRealPictures: the Irish
// specimen's scan 2.4; with the rendered pages' spacing alone the finder
// found 5 of the 27 real pages, none placed as the server's reader
// places it).
export const zonePitches = 43.5;
const minSpacing = 1.35;
const maxSpacing = 2.9;

// The page around the zone, in pitches from the zone's ink: 125 × 88 mm,
// the zone centred across it (6.6 mm either side of its 44 characters),
// the lower line's baseline 5.5 mm above the page's foot, so its middle
// (0.375 pitch above the baseline) is 2.54 pitches above the foot.
const pageSide = (125 - 44 * 2.54) / 2 / 2.54;
const pageBelow = 5.5 / 2.54 + 0.375;
const pageHeight = 88 / 2.54;

// Zone is the zone found in a frame: the band of its two lines, their
// character pitch and turn, and where the page around it should be.
export interface Zone {
  band: Quad; // top-left, top-right, bottom-right, bottom-left
  page: Quad; // the page predicted from the zone
  pitch: number; // frame pixels from one character to the next
  angle: number; // radians; the lines run along (cos, sin)
}

// Finder parameters, in the small frame's pixels (pageLimits.side long).
// A pixel is print when it is darker, by 15% (inkShare) and by at least
// minInk grey levels, than the paper both above and below it within reach
// pixels: the brightest pixel of each side, the darker of the two (the
// server's fifth and 16 levels lost a blurred zone's thin strokes, σ 1.5 px
// in a 1280 px frame, which then got "find" where "hold still" is the
// advice; 15% and 12 found them, and the sharp zones as before). A
// capital at the nearest page the guide sees (~15 px a pitch) is 12 px
// high, so reach finds paper on both sides of every stroke; the desk
// beside the page's edge, or inside a dark patch (the portrait's), has
// desk or patch on one side and is not print (a plain neighbourhood mean
// took the desk along the page's foot for the longest line of all).
const reach = 14;
const minInk = 12;
const inkShare = 0.85;
const maxTurn = 12; // degrees, as the server's finder
const minLength = 60; // the shortest line taken: a pitch of 1.4 px

// ink marks the print in g.
function ink(g: Gray): Uint8Array {
  const { w, h, px } = g;
  const up = new Uint8Array(w * h); // the brightest of the reach pixels above
  const down = new Uint8Array(w * h); // and below
  const q = new Int32Array(h);
  for (let x = 0; x < w; x++) {
    for (const dir of [1, -1]) {
      const out = dir === 1 ? up : down;
      // A window maximum by a deque of rows, decreasing in value.
      let head = 0;
      let tail = 0;
      for (let k = 0; k < h; k++) {
        const y = dir === 1 ? k : h - 1 - k;
        while (head < tail && Math.abs(q[head] - y) > reach) head++;
        out[y * w + x] = head < tail ? px[q[head] * w + x] : 0;
        const v = px[y * w + x];
        while (head < tail && px[q[tail - 1] * w + x] <= v) tail--;
        q[tail++] = y;
      }
    }
  }
  const out = new Uint8Array(w * h);
  for (let i = 0; i < out.length; i++) {
    const paper = Math.min(up[i], down[i]);
    const v = px[i];
    if (v < paper * inkShare && paper - v >= minInk) out[i] = 1;
  }
  return out;
}

// Band is a run of rotated rows dense with ink, and the longest stretch
// of it along the rows whose gaps are print's.
interface Band {
  y0: number;
  y1: number;
  yc: number; // ink-weighted middle row
  xa: number;
  xb: number;
}

// findZone returns the zone's two lines in g, or null when no pair of
// lines of TD3's shape is seen.
export function findZone(g: Gray): Zone | null {
  const mask = ink(g);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < mask.length; i++)
    if (mask[i]) {
      xs.push(i % g.w);
      ys.push((i / g.w) | 0);
    }
  if (xs.length < 50) return null;
  const diag = Math.ceil(Math.hypot(g.w, g.h));
  const rows = new Float64Array(2 * diag + 2);
  // profile bins the ink by rotated row (y·cos − x·sin) at angle a; its
  // sum of squares is largest where the text's rows line up.
  const profile = (a: number): number => {
    rows.fill(0);
    const c = Math.cos(a);
    const s = Math.sin(a);
    for (let i = 0; i < xs.length; i++) rows[Math.round(ys[i] * c - xs[i] * s) + diag]++;
    let e = 0;
    for (let i = 0; i < rows.length; i++) e += rows[i] * rows[i];
    return e;
  };
  let best = 0;
  let bestE = -1;
  const deg = Math.PI / 180;
  for (let d = -maxTurn; d <= maxTurn; d++) {
    const e = profile(d * deg);
    if (e > bestE) {
      bestE = e;
      best = d;
    }
  }
  for (const d of [best - 0.5, best - 0.25, best + 0.25, best + 0.5]) {
    const e = profile(d * deg);
    if (e > bestE) {
      bestE = e;
      best = d;
    }
  }
  const angle = best * deg;
  profile(angle);
  const bands = findBands(rows, diag, xs, ys, angle);
  // The bottom-most pair of bands of the zone's shape.
  for (let j = bands.length - 1; j > 0; j--) {
    for (let i = j - 1; i >= 0; i--) {
      const zone = pair(bands[i], bands[j], angle);
      if (zone) return zone;
    }
  }
  return null;
}

// findBands cuts the profile into bands (rows with at least a third of
// the busiest row's ink) and measures each one's longest stretch.
function findBands(rows: Float64Array, diag: number, xs: number[], ys: number[], angle: number): Band[] {
  let max = 0;
  for (let i = 1; i < rows.length - 1; i++) max = Math.max(max, rows[i]);
  const thr = Math.max(8, max / 3);
  const runs: [number, number][] = [];
  for (let i = 0; i < rows.length; i++) {
    if (rows[i] < thr) continue;
    let k = i;
    while (k + 1 < rows.length && rows[k + 1] >= thr) k++;
    runs.push([i - diag, k - diag]);
    i = k;
  }
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const bands: Band[] = [];
  for (const [y0, y1] of runs) {
    const height = y1 - y0 + 1;
    // Columns (along the rows) holding ink within the band.
    const cols = new Map<number, number>();
    let wy = 0;
    let n = 0;
    for (let i = 0; i < xs.length; i++) {
      const yr = Math.round(ys[i] * c - xs[i] * s);
      if (yr < y0 || yr > y1) continue;
      const xr = Math.round(xs[i] * c + ys[i] * s);
      cols.set(xr, (cols.get(xr) ?? 0) + 1);
      wy += ys[i] * c - xs[i] * s;
      n++;
    }
    const keys = [...cols.keys()].sort((a, b) => a - b);
    // A gap between characters is under a pitch, and a line is about 1.33
    // pitches high in the profile (capitals 0.75, blur and turn).
    const gap = Math.max(4, 2.5 * height);
    let bestA = 0;
    let bestB = -1;
    for (let i = 0; i < keys.length; ) {
      let k = i;
      while (k + 1 < keys.length && keys[k + 1] - keys[k] <= gap) k++;
      if (keys[k] - keys[i] > bestB - bestA) {
        bestA = keys[i];
        bestB = keys[k];
      }
      i = k + 1;
    }
    if (bestB - bestA >= minLength) bands.push({ y0, y1, yc: wy / n, xa: bestA, xb: bestB });
  }
  return bands;
}

// pair returns the zone made of bands a (upper) and b (lower) when they
// have TD3's shape: the same length and start, a line's height apart.
function pair(a: Band, b: Band, angle: number): Zone | null {
  const la = a.xb - a.xa;
  const lb = b.xb - b.xa;
  const pitch = Math.max(la, lb) / zonePitches;
  if (Math.abs(la - lb) > 0.15 * Math.max(la, lb) || Math.abs(a.xa - b.xa) > 3 * pitch) return null;
  const spacing = (b.yc - a.yc) / pitch;
  if (spacing < minSpacing || spacing > maxSpacing) return null;
  for (const band of [a, b]) if ((band.y1 - band.y0 + 1) / pitch > 1.5) return null;
  const xa = Math.min(a.xa, b.xa);
  const xb = Math.max(a.xb, b.xb);
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  // Back from rotated (xr along the rows, yr across) to the frame's pixels.
  const at = (xr: number, yr: number): Point => ({ x: xr * c - yr * s, y: xr * s + yr * c });
  const quad = (x0: number, y0: number, x1: number, y1: number): Quad => [at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1)];
  const bottom = b.yc + pageBelow * pitch;
  return {
    band: quad(xa, a.yc - 0.6 * pitch, xb, b.yc + 0.6 * pitch),
    page: quad(xa - pageSide * pitch, bottom - pageHeight * pitch, xb + pageSide * pitch, bottom),
    pitch,
    angle,
  };
}

// scaleZone is z in a frame s times as large (the video's pixels from
// the small frame's), less (dx, dy): in a crop of it from there.
export function scaleZone(z: Zone, s: number, dx = 0, dy = 0): Zone {
  const k = (q: Quad): Quad => q.map((p) => ({ x: p.x * s - dx, y: p.y * s - dy })) as Quad;
  return { band: k(z.band), page: k(z.page), pitch: z.pitch * s, angle: z.angle };
}

// bandSamples is the zone's band of g cut out upright, perPitch samples a
// character (bilinear; g should hold at least that many pixels a
// character, or the cut is no sharper than g): the zone's look at a fixed
// size, so its sharpness means the same at every distance.
export function bandSamples(g: Gray, z: Zone, perPitch: number): Gray {
  const [tl, tr, , bl] = z.band;
  const step = z.pitch / perPitch;
  const len = Math.hypot(tr.x - tl.x, tr.y - tl.y);
  const hgt = Math.hypot(bl.x - tl.x, bl.y - tl.y);
  const w = Math.max(3, Math.round(len / step));
  const h = Math.max(3, Math.round(hgt / step));
  const ux = (tr.x - tl.x) / w;
  const uy = (tr.y - tl.y) / w;
  const vx = (bl.x - tl.x) / h;
  const vy = (bl.y - tl.y) / h;
  const px = new Uint8ClampedArray(w * h);
  for (let j = 0; j < h; j++)
    for (let i = 0; i < w; i++) {
      const x = Math.min(g.w - 1.001, Math.max(0, tl.x + i * ux + j * vx));
      const y = Math.min(g.h - 1.001, Math.max(0, tl.y + i * uy + j * vy));
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const fx = x - x0;
      const fy = y - y0;
      const k = y0 * g.w + x0;
      px[j * w + i] = (1 - fy) * ((1 - fx) * g.px[k] + fx * g.px[k + 1]) + fy * ((1 - fx) * g.px[k + g.w] + fx * g.px[k + g.w + 1]);
    }
  return { w, h, px };
}
