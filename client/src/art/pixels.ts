/**
 * Drawing the world's pixel art on canvases: a pen of 2-pixel "pixels" (a tile is 16 of them, as
 * 32 screen pixels), shading helpers, and game-icons drawn as hard-edged silhouettes with a dark
 * outline (no smoothing: they sit with the hand-drawn pixels in one style).
 */
import { GAME_ICONS } from "./gameIcons.generated.ts";

/** Screen pixels per art pixel. */
export const PX = 2;

export type Ctx = CanvasRenderingContext2D;

export function canvas(w: number, h: number): { c: HTMLCanvasElement; g: Ctx } {
  const c = document.createElement("canvas");
  c.width = w;
  c.height = h;
  const g = c.getContext("2d", { willReadFrequently: true })!;
  g.imageSmoothingEnabled = false;
  return { c, g };
}

/** A rectangle of art pixels (x, y, w, h in art pixels from ox, oy screen pixels). */
export function px(g: Ctx, color: string, x: number, y: number, w = 1, h = 1, ox = 0, oy = 0): void {
  g.fillStyle = color;
  g.fillRect(ox + x * PX, oy + y * PX, w * PX, h * PX);
}

/** A filled disc of art pixels (centre and radius in art pixels). */
export function disc(g: Ctx, color: string, cx: number, cy: number, r: number, ox = 0, oy = 0): void {
  for (let y = Math.floor(cy - r); y <= Math.ceil(cy + r); y++) {
    for (let x = Math.floor(cx - r); x <= Math.ceil(cx + r); x++) {
      if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r) px(g, color, x, y, 1, 1, ox, oy);
    }
  }
}

/** An ellipse of art pixels. */
export function ellipse(g: Ctx, color: string, cx: number, cy: number, rx: number, ry: number, ox = 0, oy = 0): void {
  for (let y = Math.floor(cy - ry); y <= Math.ceil(cy + ry); y++) {
    for (let x = Math.floor(cx - rx); x <= Math.ceil(cx + rx); x++) {
      if (((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2 <= 1) px(g, color, x, y, 1, 1, ox, oy);
    }
  }
}

/** A colour made lighter (amount > 0) or darker (< 0), as CSS. */
export function shade(color: string, amount: number): string {
  const [r, g, b] = rgb(color);
  const f = (v: number) => Math.round(Math.max(0, Math.min(255, amount >= 0 ? v + (255 - v) * amount : v * (1 + amount))));
  return `rgb(${f(r)}, ${f(g)}, ${f(b)})`;
}

const probe = typeof document === "undefined" ? undefined : document.createElement("canvas").getContext("2d");
/** A CSS colour's red, green and blue (0..255). */
export function rgb(color: string): [number, number, number] {
  if (probe === undefined || probe === null) return [128, 128, 128];
  probe.fillStyle = "#000";
  probe.fillStyle = color;
  const s = probe.fillStyle;
  if (s.startsWith("#")) return [parseInt(s.slice(1, 3), 16), parseInt(s.slice(3, 5), 16), parseInt(s.slice(5, 7), 16)];
  const m = /(\d+),\s*(\d+),\s*(\d+)/.exec(s);
  return m === null ? [128, 128, 128] : [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** A small deterministic hash of a string (looks that differ by id, not at random). */
export function hash(s: string): number {
  let h = 2166136261;
  for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h;
}

/**
 * A game-icon drawn at (x, y) screen pixels, `size` across, in `color`, hard-edged (alpha cut at
 * half) with a one-pixel `outline` around it: the silhouette reads on grass and on stone alike.
 */
export function icon(g: Ctx, name: string, x: number, y: number, size: number, color: string, outline = "#1a120b"): void {
  const paths = GAME_ICONS[name];
  if (paths === undefined) return;
  const pad = 1;
  const { c, g: t } = canvas(size + 2 * pad, size + 2 * pad);
  t.translate(pad, pad);
  t.scale(size / 512, size / 512);
  t.fillStyle = "#fff";
  for (const d of paths) t.fill(new Path2D(d));
  t.setTransform(1, 0, 0, 1, 0, 0);
  const img = t.getImageData(0, 0, c.width, c.height);
  const w = c.width;
  const h = c.height;
  const on = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) on[i] = img.data[i * 4 + 3]! >= 110 ? 1 : 0;
  const [r, gg, b] = rgb(color);
  const [or, og, ob] = rgb(outline);
  for (let yy = 0; yy < h; yy++) {
    for (let xx = 0; xx < w; xx++) {
      const i = yy * w + xx;
      const k = i * 4;
      if (on[i] === 1) {
        img.data[k] = r;
        img.data[k + 1] = gg;
        img.data[k + 2] = b;
        img.data[k + 3] = 255;
        continue;
      }
      const near = (xx > 0 && on[i - 1] === 1) || (xx < w - 1 && on[i + 1] === 1) || (yy > 0 && on[i - w] === 1) || (yy < h - 1 && on[i + w] === 1);
      img.data[k] = or;
      img.data[k + 1] = og;
      img.data[k + 2] = ob;
      img.data[k + 3] = near ? 255 : 0;
    }
  }
  t.putImageData(img, 0, 0);
  g.drawImage(c, x - pad, y - pad);
}

/** A letter on a coloured tile: what a thing the art does not know looks like (its name's first letter). */
export function letterTile(g: Ctx, letter: string, x: number, y: number, size: number, color: string): void {
  g.fillStyle = "#1a120b";
  g.fillRect(x, y, size, size);
  g.fillStyle = color;
  g.fillRect(x + 2, y + 2, size - 4, size - 4);
  g.fillStyle = "#ffffff33";
  g.fillRect(x + 2, y + 2, size - 4, 2);
  g.fillStyle = "#fff";
  g.font = `bold ${Math.round(size * 0.62)}px sans-serif`;
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(letter, x + size / 2, y + size / 2 + 1);
}
