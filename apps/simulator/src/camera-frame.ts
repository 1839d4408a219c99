import jpeg from 'jpeg-js';
import { hash32 } from './model/random.js';

/**
 * A generated camera frame: the aisle of a mining container seen from one end — racks of miners on
 * both walls with their status LEDs, ceiling lights, a marked floor — with the camera's name and
 * the time burnt in, as a JPEG. Each camera looks from its own angle; LEDs blink and a miner now
 * and then shows red, so consecutive snapshots differ as real ones do.
 */
export interface FrameOptions {
  /** Burnt in at the top left (letters, digits and `-_./:` shown; others as blanks). */
  label: string;
  /** Epoch ms, burnt in at the top right as UTC. */
  at: number;
  width?: number;
  height?: number;
  quality?: number;
}

/** A 3×5 pixel font: each glyph is five rows of three bits, top row first. */
const glyphs: Record<string, string> = {
  '0': '111101101101111',
  '1': '010110010010111',
  '2': '111001111100111',
  '3': '111001111001111',
  '4': '101101111001001',
  '5': '111100111001111',
  '6': '111100111101111',
  '7': '111001010010010',
  '8': '111101111101111',
  '9': '111101111001111',
  A: '010101111101101',
  B: '110101110101110',
  C: '011100100100011',
  D: '110101101101110',
  E: '111100110100111',
  F: '111100110100100',
  G: '011100101101011',
  H: '101101111101101',
  I: '111010010010111',
  J: '001001001101010',
  K: '101101110101101',
  L: '100100100100111',
  M: '101111111101101',
  N: '110101101101101',
  O: '010101101101010',
  P: '110101110100100',
  Q: '010101101110011',
  R: '110101110101101',
  S: '011100010001110',
  T: '111010010010010',
  U: '101101101101111',
  V: '101101101101010',
  W: '101101111111101',
  X: '101101010101101',
  Y: '101101010010010',
  Z: '111001010100111',
  '-': '000000111000000',
  ':': '000010000010000',
  '.': '000000000000010',
  '/': '001001010100100',
  _: '000000000000111',
};

type Rgb = [number, number, number];

class Canvas {
  readonly data: Buffer;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = Buffer.alloc(width * height * 4, 255);
  }

  set(x: number, y: number, [r, g, b]: Rgb): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    this.data[i] = r;
    this.data[i + 1] = g;
    this.data[i + 2] = b;
  }

  rect(x: number, y: number, w: number, h: number, colour: Rgb): void {
    for (let j = y; j < y + h; j++) for (let i = x; i < x + w; i++) this.set(i, j, colour);
  }

  /** Text in the 3×5 font at `scale` pixels per dot; answers the width drawn. */
  text(x: number, y: number, text: string, scale: number, colour: Rgb): number {
    let cx = x;
    for (const char of text.toUpperCase()) {
      const glyph = glyphs[char];
      if (glyph)
        for (let bit = 0; bit < 15; bit++)
          if (glyph[bit] === '1')
            this.rect(cx + (bit % 3) * scale, y + Math.floor(bit / 3) * scale, scale, scale, colour);
      cx += 4 * scale;
    }
    return cx - x;
  }
}

const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));
const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

/** What the aisle shows along one ray: the surface it meets and its colour there. */
const shade = (u: number, v: number, seed: number, tick: number, lights: number): Rgb => {
  const half = 1;
  const ceiling = 0.7;
  const floor = -0.8;
  const zWall = Math.abs(u) > 1e-6 ? half / Math.abs(u) : Infinity;
  const zFloor = v < -1e-6 ? floor / v : Infinity;
  const zCeil = v > 1e-6 ? ceiling / v : Infinity;
  const z = Math.min(zWall, zFloor, zCeil, 40);
  const fog = Math.exp(-z * 0.09) * lights;
  const dark: Rgb = [12, 14, 18];
  let colour: Rgb;
  if (z === zWall) {
    // A rack: miners in cells of 0.6 (deep) × 0.22 (high), each with a LED.
    const h = v * z;
    const cz = z / 0.6;
    const ch = (h - floor) / 0.22;
    const cellZ = Math.floor(cz);
    const cellH = Math.floor(ch);
    const fz = cz - cellZ;
    const fh = ch - cellH;
    const side = u < 0 ? 0 : 1;
    if (h > ceiling - 0.12 || cellH < 1) colour = [48, 52, 58];
    else if (fz < 0.06 || fh < 0.1) colour = [28, 30, 34];
    else {
      colour = [118, 124, 132];
      const fan = (fz - 0.35) ** 2 * 4 + (fh - 0.55) ** 2 < 0.09;
      if (fan) colour = [40, 42, 46];
      if (fz > 0.8 && fz < 0.9 && fh > 0.25 && fh < 0.4) {
        const cell = hash32(`${seed}:${side}:${cellZ}:${cellH}`);
        const fault = (cell + tick * 7) % 37 === 0;
        const on = ((cell >>> 3) + tick) % 3 !== 0;
        colour = fault ? [230, 40, 30] : on ? [40, 220, 90] : [20, 80, 40];
        return colour.map((c) => c * Math.max(fog, 0.35)) as Rgb;
      }
    }
  } else if (z === zFloor) {
    const x = u * z;
    const stripe = Math.abs(x) < 0.04 && Math.floor(z * 1.5) % 2 === 0;
    colour = stripe
      ? [200, 170, 40]
      : (Math.floor(z * 2) + Math.floor(x * 2)) % 2 === 0
        ? [70, 72, 76]
        : [62, 64, 68];
  } else {
    // Ceiling: a light strip every 2.5 units along the aisle.
    const lamp = Math.abs(u * z) < 0.12 && z % 2.5 < 0.5;
    colour = lamp ? [255, 250, 230] : [34, 36, 42];
    if (lamp) return colour;
  }
  return mix(dark, colour, fog);
};

/** Renders one frame of a camera as JPEG bytes. */
export const renderCameraFrame = (options: FrameOptions): Buffer => {
  const width = options.width ?? 480;
  const height = options.height ?? 270;
  const canvas = new Canvas(width, height);
  const seed = hash32(options.label);
  const tick = Math.floor(options.at / 2000);
  // Each camera's angle: where the aisle's vanishing point falls.
  const vx = width * (0.42 + ((seed % 17) / 17) * 0.16);
  const vy = height * (0.42 + (((seed >>> 5) % 11) / 11) * 0.1);
  const focal = width * 0.55;
  const lights = 0.9 + 0.1 * Math.sin(options.at / 7000);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = shade((x - vx) / focal, (vy - y) / focal, seed, tick, lights);
      const noise = (hash32(`${x},${y},${tick}`) % 13) - 6;
      canvas.set(x, y, [clamp(r + noise), clamp(g + noise), clamp(b + noise)]);
    }
  }
  const scale = Math.max(1, Math.round(height / 135));
  const band = 7 * scale + 4;
  canvas.rect(0, 0, width, band, [0, 0, 0]);
  canvas.text(4, 4, options.label.slice(0, 24), scale, [255, 255, 255]);
  const time = `${new Date(options.at).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  canvas.text(width - 4 - time.length * 4 * scale, 4, time, scale, [255, 255, 255]);
  if (tick % 2 === 0) canvas.rect(6, height - 6 - 4 * scale, 4 * scale, 4 * scale, [220, 30, 30]);
  canvas.text(8 + 5 * scale, height - 6 - 5 * scale, 'REC', scale, [255, 255, 255]);
  return jpeg.encode({ data: canvas.data, width, height }, options.quality ?? 72).data;
};
