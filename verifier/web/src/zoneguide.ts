// The machine-readable zone of a passport's data page (ICAO 9303 TD3: two
// lines of 44 OCR-B characters at the page's foot) found in a small grey
// frame of the live video, so the passport step can guide the page as the
// card steps guide a card. An open passport's data page has its facing
// page above it, whose edges the card finder would take for the page's;
// the zone is the one thing every data page prints in the same place, in
// the same font, as the server's reader finds it (verifier/mrz/reader:
// print darker than its neighbourhood, the turn at which its rows are
// sharpest, two long bands of one height and spacing). This only has to
// find the zone, measure its size and tell it from an ID card's (TD1:
// three lines of 30, two of which pair as a page's do), held up at the
// passport's step; the server reads it.
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
const zonePitches = 43.5;
const minSpacing = 1.35;
const maxSpacing = 2.9;

// Kind is what the zone is printed on: a passport's data page (TD3), or
// an ID card (TD1: three lines of 30, Doc 9303 Part 5), which the passport
// step must not take for a page (two of its lines pair as a page's do).
export type Kind = "passport" | "card";

// The document around the zone, in millimetres: its size, its zone's
// characters a line (centred across it) and the lower line's baseline
// above its foot (TD3: 125 × 88 mm, 5.5 mm; TD1: ID-1, 85.6 × 53.98 mm,
// as the rendered cards print it, mrztest).
const documents: Record<Kind, { w: number; h: number; chars: number; foot: number }> = {
  passport: { w: 125, h: 88, chars: 44, foot: 5.5 },
  card: { w: 85.6, h: 53.98, chars: 30, foot: 4.5 },
};

// Zone is the zone found in a frame: the band of its lines, their
// character pitch and turn, what it is printed on and where that
// document should be around it.
export interface Zone {
  kind: Kind;
  band: Quad; // top-left, top-right, bottom-right, bottom-left
  page: Quad; // the data page (or card) predicted from the zone
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
  cols: number[]; // the columns (along the rows) holding ink, ascending
  prof: Float64Array; // ink per column, cols[0] at index 1
}

// findZone returns the zone in g: a passport's two lines, or a card's
// three (TD1); null when no pair of lines of either shape is seen.
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
      const zone = pair(bands, i, j, angle);
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
    const seen = new Set<number>();
    const at: number[] = [];
    let wy = 0;
    for (let i = 0; i < xs.length; i++) {
      const yr = Math.round(ys[i] * c - xs[i] * s);
      if (yr < y0 || yr > y1) continue;
      const xr = xs[i] * c + ys[i] * s;
      seen.add(Math.round(xr));
      at.push(xr);
      wy += ys[i] * c - xs[i] * s;
    }
    const cols = [...seen].sort((a, b) => a - b);
    // A gap between characters is under a pitch, and a line is about 1.33
    // pitches high in the profile (capitals 0.75, blur and turn).
    const [xa, xb] = longestRun(cols, Math.max(4, 2.5 * height));
    if (xb - xa < minLength) continue;
    // The ink along the band, each pixel shared between the two columns
    // about it (index 0: the column before cols[0]).
    const prof = new Float64Array(cols[cols.length - 1] - cols[0] + 3);
    for (const x of at) {
      const k = x - cols[0] + 1;
      const f = Math.floor(k);
      prof[f] += 1 - (k - f);
      prof[f + 1] += k - f;
    }
    bands.push({ y0, y1, yc: wy / at.length, xa, xb, cols, prof });
  }
  return bands;
}

// longestRun is the longest stretch of cols (ascending) whose gaps are at
// most gap.
function longestRun(cols: number[], gap: number): [number, number] {
  let bestA = 0;
  let bestB = -1;
  for (let i = 0; i < cols.length; ) {
    let k = i;
    while (k + 1 < cols.length && cols[k + 1] - cols[k] <= gap) k++;
    if (cols[k] - cols[i] > bestB - bestA) {
      bestA = cols[i];
      bestB = cols[k];
    }
    i = k + 1;
  }
  return [bestA, bestB];
}

// The second pass measures the pitch by the lines' own period: the
// characters stand a pitch apart, so the ink along a line repeats every
// pitch. The first pass's pitch, a line's length over 43.5, is off where
// the ink runs on into print beside the zone (a signature, a frame drawn
// round it, perspective: up to 14% over the server reader's on the
// real pages), and on a card's line of 30 characters, which it takes for
// 44 (0.68 of the pitch). The period is sought from 20 to 60 repeats over
// the first pass's length (a card's line with a third of run-on to a
// page's with 40%), every quarter repeat, then around the best every
// twentieth (the peak is a repeat wide). It is taken when its peak's
// power is at least minStrength times the scan's mean. Measured
// 2026-11-29 (in Node, on the same frames downscaled in Go) on
// TestPassportGuideOnRenderedPages' grid of 84 camera settings rendered
// as pages and as cards, and on the real pictures of
// TestZoneGuideOnRealPictures: the 140 rendered zones found had their
// period within 1% of the truth, scoring 17.4-36.7; on
// the real pictures the right ones scored 25.8-35.1, but for a phone
// photo seen at a slant (10.5, within 3%); the wrong ones at most 11.5
// (a card's back printed in another font than OCR-B 6.6, paragraphs
// without a zone 5.0 and 11.5). Under it, the first pass stands.
const minRepeats = 20;
const maxRepeats = 60;
const minStrength = 15;

// power is the power of the ink of lines (each between its first pass's
// extents, less its mean) at n repeats over len.
function power(lines: Band[], len: number, n: number): number {
  const w = (2 * Math.PI * n) / len;
  let p = 0;
  for (const b of lines) {
    const a = b.xa - b.cols[0] + 1;
    const e = b.xb - b.cols[0] + 1;
    let mean = 0;
    for (let x = a; x <= e; x++) mean += b.prof[x];
    mean /= e - a + 1;
    // cos and sin of w·x by turning a unit vector a step at a time.
    const cw = Math.cos(w);
    const sw = Math.sin(w);
    let c = Math.cos(w * a);
    let s = Math.sin(w * a);
    let re = 0;
    let im = 0;
    for (let x = a; x <= e; x++) {
      const v = b.prof[x] - mean;
      re += v * c;
      im += v * s;
      const t = c * cw - s * sw;
      s = s * cw + c * sw;
      c = t;
    }
    p += re * re + im * im;
  }
  return p;
}

// period returns the pitch at which the ink of lines repeats most
// strongly, and how strongly (its power over the scan's mean power).
function period(lines: Band[], len: number): { pitch: number; strength: number } {
  let sum = 0;
  let count = 0;
  let best = minRepeats;
  let bestP = -1;
  for (let n = minRepeats; n <= maxRepeats; n += 0.25) {
    const p = power(lines, len, n);
    sum += p;
    count++;
    if (p > bestP) {
      bestP = p;
      best = n;
    }
  }
  for (let n = best - 0.2; n <= best + 0.2; n += 0.05) {
    const p = power(lines, len, n);
    if (p > bestP) {
      bestP = p;
      best = n;
    }
  }
  return { pitch: len / best, strength: bestP / (sum / count) };
}

// The zone's lines in characters, by the second pass's pitch: a page's
// 44 measured 44.0-48.9 on the real pages (ink run on past the last
// character), 44.0-44.3 rendered; a card's 30, 30.0-31.8 and 29.9-30.2;
// a visa's 36 (TD2, which neither step takes) 37.3. A line of 27-34 is a
// card's when a third line stands with it; 40 and over, a page's; any
// other length, neither.
const pageChars = 40;
const cardChars: [number, number] = [27, 34];

// pair returns the zone made of bands[i] (upper) and bands[j] (lower)
// when they have the shape of a page's zone (TD3: the same length and
// start, a line's height apart), or of two of a card's three lines.
function pair(bands: Band[], i: number, j: number, angle: number): Zone | null {
  const a = bands[i];
  const b = bands[j];
  const len = Math.max(a.xb - a.xa, b.xb - b.xa);
  if (!alike(a, b, len)) return null;
  const third = bands.find((k, n) => n !== i && n !== j && alike(k, a, len) && Math.abs(Math.abs(k.yc - (a.yc + b.yc) / 2) - 1.5 * (b.yc - a.yc)) <= 0.25 * (b.yc - a.yc));
  const per = period([a, b], len);
  let kind: Kind;
  let pitch: number;
  let lines = [a, b];
  if (per.strength >= minStrength) {
    pitch = per.pitch;
    // Cut the lines again where a gap is wider than a character's
    // (within a line the gaps are under 0.6 pitch; 1.2 leaves room for
    // blur and a dropped stroke).
    lines = lines.map((l) => {
      const [xa, xb] = longestRun(l.cols, 1.2 * pitch);
      return { ...l, xa, xb };
    });
    const chars = Math.max(...lines.map((l) => l.xb - l.xa)) / pitch + 0.5;
    if (chars >= pageChars) kind = "passport";
    else if (chars >= cardChars[0] && chars <= cardChars[1] && third) kind = "card";
    else return null;
  } else {
    // Without the period, three lines alike are text (a paragraph) as
    // often as a card's zone: neither is taken.
    if (third) return null;
    kind = "passport";
    pitch = len / zonePitches;
  }
  const spacing = (b.yc - a.yc) / pitch;
  if (spacing < minSpacing || spacing > maxSpacing) return null;
  for (const band of [a, b]) if ((band.y1 - band.y0 + 1) / pitch > 1.5) return null;
  if (kind === "card" && third) lines = third.yc < a.yc ? [third, ...lines] : [...lines, third];
  return zoneOf(kind, lines, pitch, angle);
}

// alike: band k has band a's length (len, the pair's, within 15%) and
// start (within 3 of a page's pitches).
function alike(k: Band, a: Band, len: number): boolean {
  return Math.abs(k.xb - k.xa - (a.xb - a.xa)) <= 0.15 * len && Math.abs(k.xa - a.xa) <= (3 * len) / zonePitches;
}

// zoneOf is the zone of kind whose lines (top to bottom) are found at
// pitch, turned by angle: its band, and the document predicted around it.
function zoneOf(kind: Kind, lines: Band[], pitch: number, angle: number): Zone {
  const top = lines[0];
  const last = lines[lines.length - 1];
  const xa = Math.min(...lines.map((l) => l.xa));
  const xb = Math.max(...lines.map((l) => l.xb));
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  // Back from rotated (xr along the rows, yr across) to the frame's pixels.
  const at = (xr: number, yr: number): Point => ({ x: xr * c - yr * s, y: xr * s + yr * c });
  const quad = (x0: number, y0: number, x1: number, y1: number): Quad => [at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1)];
  // In pitches from the zone's ink: the zone centred across the
  // document, the lower line's middle (0.375 pitch above its baseline)
  // foot + 0.375 above the document's foot.
  const d = documents[kind];
  const side = ((d.w - d.chars * 2.54) / 2 / 2.54) * pitch;
  const bottom = last.yc + (d.foot / 2.54 + 0.375) * pitch;
  return {
    kind,
    band: quad(xa, top.yc - 0.6 * pitch, xb, last.yc + 0.6 * pitch),
    page: quad(xa - side, bottom - (d.h / 2.54) * pitch, xb + side, bottom),
    pitch,
    angle,
  };
}

// scaleZone is z in a frame s times as large (the video's pixels from
// the small frame's), less (dx, dy): in a crop of it from there.
export function scaleZone(z: Zone, s: number, dx = 0, dy = 0): Zone {
  const k = (q: Quad): Quad => q.map((p) => ({ x: p.x * s - dx, y: p.y * s - dy })) as Quad;
  return { ...z, band: k(z.band), page: k(z.page), pitch: z.pitch * s };
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
