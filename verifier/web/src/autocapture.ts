// Live guidance and auto-capture on the document steps (the license's and
// the ID card's sides, an ID card's back judged as a front; the passport's
// data page by its machine-readable zone): while the camera runs, each
// frame is judged here (card outline, size, corners, sharpness, glare; on
// the back, the barcode read by zxing-cpp's WebAssembly; on the data page,
// the zone's size, sharpness and glare, zoneguide.ts), what
// is wrong is said in words (and announced once per change), the outline
// found is drawn over the video, and the photo is taken by itself when the
// front (or page) has been right and still for a moment, or as soon as the back's
// barcode reads. The server judges the photo as before; the shutter stays.
import type { BarcodeReader, Seen } from "./barcode";
import { findCard, gray, innerBox, measureCard, sharpnessAndGlare, id1Aspect, type Gray, type Point, type Quad, type Region } from "./cardguide";
import { h } from "./dom";
import { t, type Key } from "./i18n";
import { canvasOf } from "./image";
import { bandSamples, findZone, scaleZone, type Zone } from "./zoneguide";

// What the page says, one state at a time.
// "idcard" is said on the data page's step only: the zone found is an ID
// card's (TD1), not a passport's.
export type Advice = "find" | "closer" | "corners" | "blur" | "glare" | "hold" | "barcode" | "reading" | "idcard";

const words: Record<Advice, Key> = {
  find: "guide.find",
  closer: "guide.closer",
  corners: "guide.corners",
  blur: "guide.blur",
  glare: "guide.glare",
  hold: "guide.hold",
  barcode: "guide.barcode",
  reading: "guide.reading",
  idcard: "guide.idcard",
};

// Thresholds, measured on the small frame (smallSide px wide). They sit
// inside the server's (verifier/license/card: coverage ≥ 10%, aspect
// within 10% on the full photo, glare ≤ 5% of the card, sharpness ≈ a
// defocus of σ 2.5 px): a photo taken by itself should pass the server's
// check, not skim its limits. Calibrated by TestCardGuideOnRenderedScenes
// (cardtest fronts with Foreman's face, 1280×960, 2026-11-28), synthetic
// scenes only, no real phone video yet:
//   - sharpness: sharp cards 0.30–0.86 (0.86 of the frame wide: 0.30;
//     smaller cards measure higher), defocus σ 2 px 0.23, σ 3 px 0.17,
//     σ 4 px 0.14, σ 6 px 0.10: 0.2 refuses σ ≥ 2.5 px, as the server does;
//   - glare: clean cards 0.017–0.022 (Foreman's bright background in the
//     portrait is saturated), the server-refused hotspot (1/14 of the card
//     wide) 0.035, the accepted one (1/20) 0.021: 0.03;
//   - coverage: the server needs 10%; 22% is a card ~600 px wide in a
//     1280×960 frame, enough for the portrait and the barcode's modules.
export const limits = {
  smallSide: 480,
  minCoverage: 0.22,
  aspectTolerance: 0.12,
  maxGlare: 0.03,
  minSharpness: 0.2,
  // The back: a symbol seen but not read, narrower than this share of the
  // frame, is too far. TestBarcodeReaderAgainstServer, the synthetic back
  // from far to close: unread symbols measured 0.21–0.36 of the frame, and
  // reading held from 0.28 (1.3 px a module) on; 0.4 asks for a margin.
  minSymbolWidth: 0.4,
  // Turning the decoder's frame back by less than 1.5° gains nothing: 2° read.
  minTilt: (1.5 * Math.PI) / 180,
  // Held still: every corner within this share of the frame's diagonal
  // for holdMs.
  still: 0.02,
  holdMs: 700,
  // After a refused photo (Refused below), the card counts as moved when
  // a corner went 2.5 times the still tolerance, as taken away when no
  // card was seen in goneFrames frames in a row, and as turned over or
  // changed when its look (a grid of its grey levels) differs by more
  // than changed (look's units: a grey level's spread over the card).
  // TestRefusedCardLookInChromium, rendered cards (2026-11-29): the same
  // license front blurred (σ 1.5, 3 px), nearer, farther or turned 8°
  // differs by 0.03–0.15; turned over, a license 1.25 and an ID card
  // 1.10; a glare hotspot appearing 0.35, so a photo refused for glare is
  // taken again once the glare is gone. Two frames with no card: a
  // card turned over in the hand shows its edge for longer.
  moved: 0.05,
  goneFrames: 2,
  changed: 0.25,
  // The least time one piece of advice stays up before another replaces it.
  minDwellMs: 1200,
};

// The data page's limits (judgePage). The server's reader (verifier/mrz/
// reader) reads zones by their strokes in the photo it gets and their
// defocus (docs/engines.md, bench/mrz's 408 photos by stroke band,
// 2026-11-30, with the fine reading): over 2.5 px 136/136; 1.5-2.5 px
// 115/115 defocused under a stroke; 1.0-1.5 px 98/98 so; 39 of 59
// defocused over a stroke (the sharpness limit below). The page asks for
// strokes of 1.5 px (OCR-B's 0.35 mm in a 2.54 mm pitch: a pitch of 10.9 px) in the
// photo it sends: on a 1920×1080 camera sent at 1600 px, a page a third
// of the frame wide; on a 1280×960 one, 42%. The finder's pitch, by the
// lines' period (zoneguide.ts), is within 1% of the server reader's on
// 21 of the 23 real data pages both find and under it on the other two
// (TestZoneGuideOnRealPictures), so the strokes it asks for are there.
//   - sharpness: the zone cut out at perPitch samples a character from
//     the video's own pixels (bandSamples), its Laplacian over its
//     spread (sharpnessAndGlare). TestPassportGuideOnRenderedPages's
//     calibration in Chromium (84 mrztest data pages, 1280×960, the
//     page 20-80% of the frame, turned -8° to 5°, defocus σ 0.5-4 px,
//     each read by the server's reader; 2026-11-29): of the 54 zones
//     large enough, those the reader failed on measured at most 0.64
//     (defocus 0.14 pitch: "a character is unclear"), those it read 0.58
//     and up, every one over 0.64 read; 0.75 took 24 pages, all read, and
//     asked 10 that read to be held still (0.58-0.74; with the first
//     pass's pitch, 0.2-0.7% longer, 25 and 9): a margin over the worst
//     failure, as the video's own blur and compression are not the
//     renderer's;
//   - glare: as the card's, of the zone's band and of the page around it
//     (the server refuses a page over 5%, verifier/engines.MaxGlare);
//   - side: the small frame's long side; at 800 px the nearest zone the
//     server needs has a 5.5 px pitch (1920×1080) or 6.8 px (1280×960),
//     the finder's lines are found from a 3.2 px pitch, and it takes
//     25-30 ms a frame in Node on this loaded machine.
export const pageLimits = {
  side: 800,
  minStroke: 1.5,
  strokeShare: 0.35 / 2.54,
  perPitch: 8,
  minSharpness: 0.75,
  maxGlare: 0.03,
};

export interface Judgement {
  advice: Advice | null; // null: the front is right
  quad: Quad | null;
}

// judgeFront decides what to say about a front frame.
export function judgeFront(g: Gray): Judgement {
  const quad = findCard(g);
  // A reflection can wash out a corner and the outline with it.
  if (!quad) return { advice: sharpnessAndGlare(g, centre(g)).glare > limits.maxGlare ? "glare" : "find", quad };
  const m = measureCard(quad, g.w, g.h);
  if (!m.inView || Math.abs(m.aspect / id1Aspect - 1) > limits.aspectTolerance) return { advice: "corners", quad };
  if (m.coverage < limits.minCoverage) return { advice: "closer", quad };
  const q = sharpnessAndGlare(g, innerBox(quad, g.w, g.h));
  if (q.glare > limits.maxGlare) return { advice: "glare", quad };
  if (q.sharpness < limits.minSharpness) return { advice: "blur", quad };
  return { advice: null, quad };
}

// judgePage decides what to say about a data page's frame g (the small
// frame): toSent is the photo's pixels a pixel of g (the photo is the
// video frame downscaled to the step's maxSide), band cuts the zone out of
// the video's own pixels (bandSamples). The outline drawn is the zone's.
export function judgePage(g: Gray, toSent: number, band: (z: Zone) => Gray): Judgement {
  const z = findZone(g);
  if (!z) return { advice: sharpnessAndGlare(g, centre(g)).glare > pageLimits.maxGlare ? "glare" : "find", quad: null };
  // An ID card's zone: the card's outline is drawn, and it is never taken.
  if (z.kind === "card") return { advice: "idcard", quad: z.page };
  const quad = z.band;
  if (!z.page.every((p) => p.x >= 0 && p.y >= 0 && p.x <= g.w - 1 && p.y <= g.h - 1)) return { advice: "corners", quad };
  // Glare first: a reflection cutting the zone's lines short makes it
  // look small.
  const b = band(z);
  const zone = sharpnessAndGlare(b, { x0: 1, y0: 1, x1: b.w - 1, y1: b.h - 1 });
  const xs = z.page.map((p) => p.x);
  const ys = z.page.map((p) => p.y);
  const page = sharpnessAndGlare(g, { x0: Math.max(1, Math.round(Math.min(...xs))), y0: Math.max(1, Math.round(Math.min(...ys))), x1: Math.min(g.w - 2, Math.round(Math.max(...xs))), y1: Math.min(g.h - 2, Math.round(Math.max(...ys))) });
  if (zone.glare > pageLimits.maxGlare || page.glare > pageLimits.maxGlare) return { advice: "glare", quad };
  if (z.pitch * toSent * pageLimits.strokeShare < pageLimits.minStroke) return { advice: "closer", quad };
  if (zone.sharpness < pageLimits.minSharpness) return { advice: "blur", quad };
  return { advice: null, quad };
}

// judgeBack decides what to say about a back frame the decoder did not
// read (seen: what it saw, in the small frame's pixels).
export function judgeBack(g: Gray, seen: Seen[]): { advice: Advice; quad: Quad | null } {
  const quad = findCard(g);
  const q = sharpnessAndGlare(g, quad ? innerBox(quad, g.w, g.h) : centre(g));
  if (q.glare > limits.maxGlare) return { advice: "glare", quad };
  const symbol = seen.find((s) => s.corners.length === 4);
  if (symbol) {
    const xs = symbol.corners.map((p) => p.x);
    if ((Math.max(...xs) - Math.min(...xs)) / g.w < limits.minSymbolWidth) return { advice: "closer", quad };
    return { advice: q.sharpness < limits.minSharpness ? "blur" : "reading", quad };
  }
  if (quad && measureCard(quad, g.w, g.h).coverage < limits.minCoverage) return { advice: "closer", quad };
  if (q.sharpness < limits.minSharpness) return { advice: "blur", quad };
  return { advice: quad ? "barcode" : "find", quad };
}

// centre is the middle 70% of the frame, where the card is held.
function centre(g: Gray): Region {
  return { x0: Math.round(g.w * 0.15), y0: Math.round(g.h * 0.15), x1: Math.round(g.w * 0.85), y1: Math.round(g.h * 0.85) };
}

// edgeAngle is the angle of the edge from a to b off the nearest axis,
// in (-π/4, π/4]: how far a card or symbol is turned, whichever way up.
export function edgeAngle(a: Point, b: Point): number {
  let r = Math.atan2(b.y - a.y, b.x - a.x);
  while (r > Math.PI / 4) r -= Math.PI / 2;
  while (r <= -Math.PI / 4) r += Math.PI / 2;
  return r;
}

// still reports whether every corner of b is within share (of the
// frame's diagonal) of a's.
function still(a: Quad, b: Quad, w: number, h: number, share = limits.still): boolean {
  const tol = share * Math.hypot(w, h);
  return a.every((p, i) => Math.hypot(p.x - b[i].x, p.y - b[i].y) <= tol);
}

// Refused is where the card was, and how it looked, in the frame of a
// photo the server refused. The guide started again after it takes no
// photo by itself until the card was moved, taken away or turned over
// (changed): a card left where it was would be sent again every few
// seconds, the refusal read out each time (a front still shown at an ID
// card's back step). The shutter still takes it.
export interface Refused {
  quad: Quad;
  look: number[];
}

// look is the card's content as a grid of mean grey levels over the
// quad, 8 across and 5 down, each the mean of 3×3 points, normalized to
// zero mean and unit spread: exposure and light changes do not count,
// turning the card over does.
export function look(g: Gray, q: Quad): number[] {
  const cols = 8;
  const rows = 5;
  const at = (u: number, v: number): number => {
    // Bilinear in the quad: u along the top and bottom edges, v down.
    const x = (1 - v) * ((1 - u) * q[0].x + u * q[1].x) + v * ((1 - u) * q[3].x + u * q[2].x);
    const y = (1 - v) * ((1 - u) * q[0].y + u * q[1].y) + v * ((1 - u) * q[3].y + u * q[2].y);
    const xi = Math.min(g.w - 1, Math.max(0, Math.round(x)));
    const yi = Math.min(g.h - 1, Math.max(0, Math.round(y)));
    return g.px[yi * g.w + xi];
  };
  const cells: number[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      let sum = 0;
      for (let j = 1; j <= 3; j++) for (let i = 1; i <= 3; i++) sum += at((c + i / 4) / cols, (r + j / 4) / rows);
      cells.push(sum / 9);
    }
  const mean = cells.reduce((a, b) => a + b, 0) / cells.length;
  const spread = Math.sqrt(cells.reduce((a, b) => a + (b - mean) ** 2, 0) / cells.length) || 1;
  return cells.map((v) => (v - mean) / spread);
}

// lookDiff is the mean absolute difference of two looks (0: the same).
export function lookDiff(a: number[], b: number[]): number {
  return a.reduce((acc, v, i) => acc + Math.abs(v - b[i]), 0) / a.length;
}

export interface Guide {
  // The elements to show: the outline over the video (inside the stage)
  // and the words under it.
  overlay: SVGSVGElement;
  words: HTMLElement;
  stop(): void;
  // seen is the card in the last frame judged, for a photo taken now:
  // if the server refuses it, the next guide is started after it.
  seen(): Refused | null;
}

// GuideOptions: words replace the advice's words where the step names
// its document its own way (the shared ones name a license, or a card);
// after is a refused photo's card (Refused); maxSide is the photo's long
// side (the page's zone is judged at the size it is sent).
export interface GuideOptions {
  words?: Partial<Record<Advice, Key>>;
  after?: Refused | null;
  maxSide?: number;
}

// Side is what a guide judges: a card's front, a license's back (its
// barcode), or a passport's data page (its zone).
export type Side = "front" | "back" | "page";

// capture is handed the frame to send: the canvas the back's barcode read
// in, or null on the front (the page takes the full-resolution frame).
export type Capture = (frame: HTMLCanvasElement | null) => void;

const svgNS = "http://www.w3.org/2000/svg";

// guide runs the loop on video until stopped, captured, or the video
// leaves the page. loading is the back's barcode reader (null on the
// front): the back guides from its first frame and reads barcodes once the
// reader has loaded; if it fails to load, the back only guides.
export function guide(video: HTMLVideoElement, side: Side, loading: Promise<BarcodeReader> | null, capture: Capture, opts: GuideOptions = {}): Guide {
  const own = opts.words ?? {};
  // locate finds the card, or on the data page the zone's band.
  const locate = (g: Gray): Quad | null => (side === "page" ? (findZone(g)?.band ?? null) : findCard(g));
  let after = opts.after ?? null;
  let gone = 0;
  let judged = 0;
  let lastSeen: { g: Gray; quad: Quad } | null = null;
  let reader: BarcodeReader | null = null;
  loading?.then((r) => (reader = r)).catch(() => undefined);
  const overlay = document.createElementNS(svgNS, "svg");
  overlay.setAttribute("class", "outline");
  overlay.setAttribute("aria-hidden", "true");
  overlay.setAttribute("preserveAspectRatio", "xMidYMid slice"); // as the video's object-fit: cover
  const poly = document.createElementNS(svgNS, "polygon");
  overlay.append(poly);
  // role=status is polite: a change is read once, after what is being
  // read; the text changes only when the advice does (and has held for
  // two frames), so a screen reader is not flooded.
  const say = h("p", { class: "guidance", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  let stopped = false;
  let shown: Advice | "capture" | undefined;
  let pending: Advice | undefined;
  let steadySince = 0;
  let last: Quad | null = null;
  const small = canvasOf(1, 1);
  const full = canvasOf(1, 1);

  // show changes what is said only when the new advice held for two
  // frames in a row and the old one has been up for minDwellMs: a state
  // that flickers (the back's two binarizers seeing the symbol in turn, a
  // hand on the edge of "closer") is not read out again and again.
  let shownAt = 0;
  const show = (a: Advice) => {
    const now = performance.now();
    if (a === shown) {
      pending = undefined;
      return;
    }
    if (shown !== undefined && (a !== pending || now - shownAt < limits.minDwellMs)) {
      pending = a;
      return;
    }
    shown = a;
    shownAt = now;
    say.dataset.advice = a;
    say.textContent = t(own[a] ?? words[a]);
    if (!performance.getEntriesByName("idgate:guide:" + side).length) performance.mark("idgate:guide:" + side);
  };

  const draw = (quad: Quad | null, ok: boolean, w: number, hh: number) => {
    overlay.setAttribute("viewBox", `0 0 ${w} ${hh}`);
    poly.setAttribute("points", quad ? quad.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ") : "");
    overlay.classList.toggle("ok", ok);
  };

  // tilt is the angle the decoder's copy of the frame is turned back by:
  // zxing-cpp reads a PDF417 only within a few degrees of upright (a
  // synthetic back turned 4° went unread, 2° read), so the page turns the
  // frame by the angle of the last symbol seen, or of the card's outline.
  let tilt = 0;

  // grab draws the current frame into the small canvas (its grey levels
  // for the measures and the outline) and, on the back, the full one,
  // turned back by tilt (for the decoder, and the photo sent if it reads).
  const grab = (): { g: Gray; frame: ImageData | null } | null => {
    const vw = video.videoWidth;
    const vh = video.videoHeight;
    if (!vw || !vh) return null;
    const s = (side === "page" ? pageLimits.side : limits.smallSide) / Math.max(vw, vh);
    small.width = Math.round(vw * s);
    small.height = Math.round(vh * s);
    const sc = small.getContext("2d", { willReadFrequently: true })!;
    // The zone's thin strokes need the good downscaling: Chromium's
    // default lost the specimen render's zone (passport-td3.jpg) to the
    // signature's lines (TestZoneGuideOnRealPictures).
    if (side === "page") sc.imageSmoothingQuality = "high";
    sc.drawImage(video, 0, 0, small.width, small.height);
    let frame: ImageData | null = null;
    if (reader) {
      full.width = vw;
      full.height = vh;
      const fc = full.getContext("2d", { willReadFrequently: true })!;
      fc.translate(vw / 2, vh / 2);
      fc.rotate(-tilt);
      fc.drawImage(video, -vw / 2, -vh / 2, vw, vh);
      frame = fc.getImageData(0, 0, vw, vh);
    }
    const d = sc.getImageData(0, 0, small.width, small.height);
    return { g: gray(d.data, d.width, d.height), frame };
  };

  // sentScale is the photo's pixels a video pixel: the page's photo is
  // the video frame downscaled to maxSide (capture.ts).
  const sentScale = () => Math.min(1, (opts.maxSide ?? Infinity) / Math.max(video.videoWidth, video.videoHeight));

  // bandOf cuts the zone z (in the small frame's pixels) out of the
  // video's own pixels: the small frame's downscaling blurs a far zone as
  // much as the defocus the reader fails on (a 5.5 px pitch).
  const bandOf = (z: Zone): Gray => {
    const zf = scaleZone(z, video.videoWidth / small.width);
    const xs = zf.band.map((p) => p.x);
    const ys = zf.band.map((p) => p.y);
    const x0 = Math.max(0, Math.floor(Math.min(...xs)) - 2);
    const y0 = Math.max(0, Math.floor(Math.min(...ys)) - 2);
    const w = Math.max(1, Math.min(video.videoWidth, Math.ceil(Math.max(...xs)) + 2) - x0);
    const hh = Math.max(1, Math.min(video.videoHeight, Math.ceil(Math.max(...ys)) + 2) - y0);
    full.width = w;
    full.height = hh;
    const fc = full.getContext("2d", { willReadFrequently: true })!;
    fc.drawImage(video, x0, y0, w, hh, 0, 0, w, hh);
    const d = fc.getImageData(0, 0, w, hh);
    return bandSamples(gray(d.data, w, hh), scaleZone(zf, 1, x0, y0), pageLimits.perPitch);
  };

  const done = (frame: HTMLCanvasElement | null) => {
    stopped = true;
    shown = "capture";
    say.dataset.advice = "capture";
    say.textContent = t("guide.capturing");
    overlay.classList.add("ok");
    performance.mark("idgate:capture:" + side);
    capture(frame);
  };

  // holdBack reports whether the guide still holds back after a refusal
  // (after), given the card seen now, and says so on the page (no words:
  // the refusal's reasons are what to read; data-advice "refused").
  const holdBack = (g: Gray, quad: Quad | null): boolean => {
    if (!after) return false;
    gone = quad ? 0 : gone + 1;
    if (gone >= limits.goneFrames || (quad && (!still(after.quad, quad, g.w, g.h, limits.moved) || lookDiff(after.look, look(g, quad)) > limits.changed))) {
      after = null;
      return false;
    }
    draw(quad, false, g.w, g.h);
    shown = undefined;
    say.dataset.advice = "refused";
    say.textContent = "";
    return true;
  };

  const tick = async () => {
    if (stopped || !video.isConnected) return;
    const got = video.paused ? null : grab();
    if (got) {
      const { g, frame } = got;
      say.dataset.judged = String(++judged);
      if (after) {
        const quad = locate(g);
        lastSeen = quad ? { g, quad } : null;
        if (holdBack(g, quad)) {
          setTimeout(() => void tick(), 120);
          return;
        }
      }
      if (side !== "back") {
        const j = side === "page" ? judgePage(g, sentScale() / (g.w / video.videoWidth), bandOf) : judgeFront(g);
        const now = performance.now();
        if (j.advice === null && j.quad && last && still(last, j.quad, g.w, g.h)) {
          if (!steadySince) steadySince = now;
        } else steadySince = 0;
        last = j.quad;
        lastSeen = j.quad ? { g, quad: j.quad } : null;
        draw(j.quad, j.advice === null, g.w, g.h);
        show(j.advice === null ? "hold" : j.advice);
        if (j.advice === null && steadySince && now - steadySince >= limits.holdMs) return done(null);
      } else {
        let seen: Seen[] = [];
        if (reader && frame) {
          try {
            seen = await reader.read(frame);
          } catch {
            seen = [];
          }
          if (stopped) return;
          if (seen.some((s) => s.valid)) return done(full);
        }
        const scale = g.w / full.width;
        const j = judgeBack(g, seen.map((s) => ({ ...s, corners: s.corners.map((p) => ({ x: p.x * scale, y: p.y * scale })) })));
        lastSeen = j.quad ? { g, quad: j.quad } : null;
        draw(j.quad, false, g.w, g.h);
        show(j.advice);
        const symbol = seen.find((x) => x.corners.length === 4);
        tilt = symbol ? tilt + edgeAngle(symbol.corners[0], symbol.corners[1]) : j.quad ? edgeAngle(j.quad[0], j.quad[1]) : 0;
        if (Math.abs(tilt) < limits.minTilt) tilt = 0;
      }
    }
    // The front's measures take a few milliseconds: ~8 a second is
    // plenty to see it held still. The back runs as fast as the decoder.
    setTimeout(() => void tick(), side === "back" ? 30 : 120);
  };
  void tick();
  return {
    overlay,
    words: say,
    stop: () => {
      stopped = true;
    },
    seen: () => (lastSeen ? { quad: lastSeen.quad, look: look(lastSeen.g, lastSeen.quad) } : null),
  };
}
