/**
 * Agility obstacles (world-objects.json `obstacles`) drawn as what they are, in the pixel style of
 * pixels.ts: a log across the way, a net on its posts, a rope swing from a beam over a ditch, a
 * crumbling wall. Which one by a word of the obstacle's id, name or verb (a studio's "Fallen
 * beam" is a log, its "Cargo net" a net); one no word names is an amber A tile, as before.
 */
import { ellipse, letterTile, px, shade, type Ctx } from "./pixels.ts";

export type ObstacleKind = "log" | "net" | "rope" | "wall";

/** The main colour of each drawing (exported for the browser test that finds them on the canvas). */
export const OBSTACLE_COLORS: Readonly<Record<ObstacleKind, string>> = {
  log: "#7b5533",
  net: "#d8c08a",
  rope: "#c9a86a",
  wall: "#8f8a84",
};
/** The amber of an obstacle no word names (a letter tile, as places.ts drew every obstacle before). */
export const OBSTACLE_FALLBACK = "#c49000";

const KINDS: readonly [RegExp, ObstacleKind][] = [
  [/\b(log|beam|plank|trunk|balance)\b/, "log"],
  [/\bnet\b/, "net"],
  [/\b(rope|swing|vine|zipline)\b/, "rope"],
  [/\b(wall|fence|rockface|ledge|rubble)\b/, "wall"],
];

/** Which drawing an obstacle gets, by a word of its id, name or verb (undefined: the letter tile). */
export function obstacleKind(...said: string[]): ObstacleKind | undefined {
  const words = ` ${said
    .join(" ")
    .toLowerCase()
    .replace(/[^a-z]+/g, " ")} `;
  return KINDS.find(([re]) => re.test(words))?.[1];
}

const SHADOW = "#00000059";

/** Draws an obstacle on a 16 × 16 art-pixel tile. */
export function drawObstacle(g: Ctx, kind: ObstacleKind | undefined): void {
  switch (kind) {
    case "log": {
      // A log lying across the way, its cut end toward you, moss on its back.
      const bark = OBSTACLE_COLORS.log;
      px(g, SHADOW, 1, 11, 15, 2);
      px(g, shade(bark, -0.4), 0, 5, 16, 6);
      px(g, bark, 0, 5, 16, 5);
      px(g, shade(bark, 0.25), 1, 5, 14, 1);
      for (const [x, y] of [
        [3, 7],
        [8, 8],
        [12, 7],
      ] as const)
        px(g, shade(bark, -0.3), x, y, 2, 1);
      px(g, "#5f8a3a", 4, 4, 3, 1);
      px(g, "#5f8a3a", 10, 4, 2, 1);
      px(g, "#7aa84a", 5, 4, 1, 1);
      ellipse(g, shade(bark, -0.45), 1.5, 7.5, 1.6, 2.6);
      ellipse(g, "#d6b07a", 1.5, 7.5, 1.1, 2);
      px(g, shade("#d6b07a", -0.3), 1, 7, 1, 1);
      return;
    }
    case "net": {
      // A rope net stretched between two posts.
      const post = "#5a3a22";
      px(g, SHADOW, 1, 14, 15, 1);
      px(g, post, 1, 2, 2, 12);
      px(g, post, 13, 2, 2, 12);
      px(g, shade(post, 0.25), 1, 2, 1, 12);
      px(g, shade(post, 0.25), 13, 2, 1, 12);
      px(g, shade(post, -0.2), 1, 2, 14, 1);
      const rope = OBSTACLE_COLORS.net;
      for (let y = 3; y < 14; y++) for (let x = 3; x < 13; x++) if ((x + y) % 3 === 0 || (x - y + 30) % 3 === 0) px(g, rope, x, y, 1, 1);
      for (let x = 3; x < 13; x += 3) px(g, shade(rope, -0.35), x, 13, 1, 1);
      return;
    }
    case "rope": {
      // A rope hanging from a beam over a muddy ditch.
      ellipse(g, "#3e2c1c", 8, 12, 7, 2.6);
      ellipse(g, "#5a4128", 8, 11.6, 5.5, 1.6);
      px(g, "#4a2f1a", 0, 1, 16, 2);
      px(g, "#6b4a2b", 0, 1, 16, 1);
      const rope = OBSTACLE_COLORS.rope;
      px(g, rope, 8, 3, 1, 8);
      px(g, shade(rope, -0.35), 9, 3, 1, 8);
      px(g, rope, 7, 10, 3, 2);
      px(g, shade(rope, -0.35), 7, 11, 3, 1);
      return;
    }
    case "wall": {
      // Old stones, loosely mortared, the top broken away on the right and a stone fallen below.
      const stone = OBSTACLE_COLORS.wall;
      px(g, SHADOW, 0, 13, 16, 2);
      px(g, shade(stone, -0.45), 0, 4, 16, 9);
      px(g, shade(stone, -0.45), 0, 2, 10, 2);
      for (let row = 0; row < 4; row++) {
        const y = 3 + row * 2.5;
        const width = row === 0 ? 10 : 16;
        for (let x = row % 2 === 0 ? 0 : -2; x < width; x += 4) {
          const from = Math.max(0, x);
          const to = Math.min(width, x + 3);
          if (to <= from) continue;
          px(g, stone, from, Math.floor(y), to - from, 2);
          px(g, shade(stone, 0.25), from, Math.floor(y), to - from, 1);
        }
      }
      px(g, stone, 12, 13, 3, 2);
      px(g, shade(stone, 0.25), 12, 13, 3, 1);
      return;
    }
    case undefined:
      ellipse(g, SHADOW, 8, 14.4, 6, 1.4);
      letterTile(g, "A", 4, 3, 24, OBSTACLE_FALLBACK);
      return;
  }
}
