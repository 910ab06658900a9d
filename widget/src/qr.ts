// A QR code encoder for the verification link (ISO/IEC 18004): byte mode,
// error-correction level M, versions 1-10 (up to 213 bytes, far more than a
// verification URL). Returns the module grid, true = dark, or null when the
// text does not fit.

// Level M block structure per version: [EC codewords per block,
// blocks of the short kind, data codewords per short block, long blocks].
// A long block holds one more data codeword than a short one.
const BLOCKS: [number, number, number, number][] = [
  [10, 1, 16, 0], [16, 1, 28, 0], [26, 1, 44, 0], [18, 2, 32, 0], [24, 2, 43, 0],
  [16, 4, 27, 0], [18, 4, 31, 0], [22, 2, 38, 2], [22, 3, 36, 2], [26, 4, 43, 1],
];
const ALIGN: number[][] = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];

// GF(256) over x^8+x^4+x^3+x^2+1, by log/antilog tables.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++, x = x & 0x80 ? (x << 1) ^ 0x11d : x << 1) {
  EXP[i] = EXP[i + 255] = x;
  LOG[x] = i;
}
const mul = (a: number, b: number): number => (a && b ? EXP[LOG[a] + LOG[b]] : 0);

// ecc returns the Reed-Solomon remainder of data for n EC codewords.
function ecc(data: number[], n: number): number[] {
  let gen = [1];
  for (let i = 0; i < n; i++) {
    const next = new Array<number>(gen.length + 1).fill(0);
    gen.forEach((g, j) => {
      next[j] ^= g;
      next[j + 1] ^= mul(g, EXP[i]);
    });
    gen = next;
  }
  const rem = new Array<number>(n).fill(0);
  for (const d of data) {
    const f = d ^ (rem.shift() as number);
    rem.push(0);
    for (let j = 0; j < n; j++) rem[j] ^= mul(gen[j + 1], f);
  }
  return rem;
}

function codewords(bytes: Uint8Array, v: number): number[] | null {
  const [ec, short, shortLen, long] = BLOCKS[v - 1];
  const capacity = short * shortLen + long * (shortLen + 1);
  const bits: number[] = [];
  const put = (val: number, n: number): void => {
    for (let i = n - 1; i >= 0; i--) bits.push((val >>> i) & 1);
  };
  put(4, 4);
  put(bytes.length, v < 10 ? 8 : 16);
  bytes.forEach((b) => put(b, 8));
  if (bits.length > capacity * 8) return null;
  put(0, Math.min(4, capacity * 8 - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  const data: number[] = [];
  for (let i = 0; i < bits.length; i += 8) data.push(parseInt(bits.slice(i, i + 8).join(""), 2));
  for (let pad = 0xec; data.length < capacity; pad ^= 0xec ^ 0x11) data.push(pad);
  const blocks: number[][] = [];
  for (let b = 0, at = 0; b < short + long; b++) {
    const len = shortLen + (b < short ? 0 : 1);
    blocks.push(data.slice(at, at + len));
    at += len;
  }
  const out: number[] = [];
  for (let i = 0; i <= shortLen; i++) blocks.forEach((blk) => i < blk.length && out.push(blk[i]));
  const eccs = blocks.map((blk) => ecc(blk, ec));
  for (let i = 0; i < ec; i++) eccs.forEach((e) => out.push(e[i]));
  return out;
}

const MASKS: ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

// penalty scores a masked grid by the standard's four rules.
function penalty(m: boolean[][]): number {
  const n = m.length;
  let score = 0;
  let dark = 0;
  for (let a = 0; a < n; a++) {
    for (const line of [m[a], m.map((row) => row[a])]) {
      let run = 1;
      for (let i = 1; i <= n; i++) {
        if (i < n && line[i] === line[i - 1]) run++;
        else {
          if (run >= 5) score += run - 2;
          run = 1;
        }
      }
      const s = line.map((c) => (c ? "1" : "0")).join("");
      for (let i = s.indexOf("1011101"); i >= 0; i = s.indexOf("1011101", i + 1)) {
        if (s.slice(Math.max(0, i - 4), i) === "0000" || s.slice(i + 7, i + 11) === "0000") score += 40;
      }
    }
    for (let b = 0; b < n; b++) {
      if (m[a][b]) dark++;
      if (a < n - 1 && b < n - 1 && m[a][b] === m[a][b + 1] && m[a][b] === m[a + 1][b] && m[a][b] === m[a + 1][b + 1]) score += 3;
    }
  }
  return score + Math.floor(Math.abs((dark * 20) / (n * n) - 10)) * 10;
}

export function qr(text: string): boolean[][] | null {
  const bytes = new TextEncoder().encode(text);
  let v = 1;
  let data: number[] | null = null;
  for (; v <= BLOCKS.length && !(data = codewords(bytes, v)); v++);
  if (!data) return null;
  const n = v * 4 + 17;
  const grid = Array.from({ length: n }, () => new Array<boolean>(n).fill(false));
  const fixed = Array.from({ length: n }, () => new Array<boolean>(n).fill(false));
  const set = (x: number, y: number, dark: boolean): void => {
    grid[y][x] = dark;
    fixed[y][x] = true;
  };
  // Finders with separators, timing, alignment, dark module.
  for (const [fx, fy] of [[3, 3], [n - 4, 3], [3, n - 4]]) {
    for (let dy = -4; dy <= 4; dy++)
      for (let dx = -4; dx <= 4; dx++) {
        const x = fx + dx, y = fy + dy, d = Math.max(Math.abs(dx), Math.abs(dy));
        if (x >= 0 && y >= 0 && x < n && y < n) set(x, y, d !== 2 && d !== 4);
      }
  }
  for (let i = 8; i < n - 8; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  const al = ALIGN[v - 1];
  const last = al.length - 1;
  al.forEach((ax, i) =>
    al.forEach((ay, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return; // the finders' corners
      for (let dy = -2; dy <= 2; dy++)
        for (let dx = -2; dx <= 2; dx++) set(ax + dx, ay + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }),
  );
  set(8, n - 8, true);
  // Reserve the format areas; version info from version 7.
  for (let i = 0; i < 9; i++) {
    if (!fixed[8][i]) set(i, 8, false);
    if (!fixed[i][8]) set(8, i, false);
  }
  for (let i = 0; i < 8; i++) {
    set(n - 1 - i, 8, false);
    set(8, n - 1 - i, fixed[n - 1 - i][8] ? grid[n - 1 - i][8] : false);
  }
  if (v >= 7) {
    let rem = v;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (v << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      set(n - 11 + (i % 3), Math.floor(i / 3), dark);
      set(Math.floor(i / 3), n - 11 + (i % 3), dark);
    }
  }
  // Data in the zigzag, two columns at a time, right to left.
  let bit = 0;
  for (let right = n - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let vert = 0; vert < n; vert++)
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        const y = ((right + 1) & 2) === 0 ? n - 1 - vert : vert;
        if (!fixed[y][x] && bit < data.length * 8) {
          grid[y][x] = ((data[bit >>> 3] >>> (7 - (bit & 7))) & 1) === 1;
          bit++;
        }
      }
  }
  let best: boolean[][] = grid;
  let bestScore = Infinity;
  MASKS.forEach((mask, k) => {
    const m = grid.map((row, y) => row.map((c, x) => (fixed[y][x] ? c : c !== mask(x, y))));
    // Format: level M (00) and the mask, BCH(15,5), XOR 0x5412.
    let rem = k;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    const f = ((k << 10) | rem) ^ 0x5412;
    const fb = (i: number): boolean => ((f >>> i) & 1) === 1;
    for (let i = 0; i <= 5; i++) m[i][8] = fb(i);
    m[7][8] = fb(6);
    m[8][8] = fb(7);
    m[8][7] = fb(8);
    for (let i = 9; i < 15; i++) m[8][14 - i] = fb(i);
    for (let i = 0; i < 8; i++) m[8][n - 1 - i] = fb(i);
    for (let i = 8; i < 15; i++) m[n - 15 + i][8] = fb(i);
    const score = penalty(m);
    if (score < bestScore) {
      best = m;
      bestScore = score;
    }
  });
  return best;
}
