/**
 * Looks (looks.ts) drawn as textures, once each and shared: every rat is one more quad of the same
 * texture, which the renderer batches. Drawn on canvases in the pixel style of pixels.ts; the
 * fishing spot and the fire have frames side by side (frames "0", "1", …), which motion.ts steps.
 */
import type * as Phaser from "phaser";
import type { Look, TreeKind } from "./looks.ts";
import { canvas, disc, ellipse, icon, letterTile, px, shade, type Ctx } from "./pixels.ts";
import { drawObstacle } from "./obstacles.ts";

interface Drawing {
  w: number;
  h: number;
  frames: number;
  draw(g: Ctx, frame: number, ox: number): void;
}

const SHADOW = "#00000059";

function personDrawing(l: Extract<Look, { type: "person" }>): Drawing {
  return {
    w: 32,
    h: 32,
    frames: 1,
    draw(g) {
      const gear = l.gear;
      ellipse(g, SHADOW, 8, 14.6, 5, 1.4);
      if (gear.cape !== undefined) px(g, shade(gear.cape, -0.2), 4, 7, 8, 6);
      // Legs and boots, or a robe to the ground.
      const trousers = gear.legs ?? l.trousers;
      if (l.robe === true) {
        px(g, l.shirt, 4, 10, 8, 4);
        px(g, shade(l.shirt, -0.25), 10, 10, 2, 4);
      } else {
        px(g, trousers, 5, 11, 2, 2);
        px(g, trousers, 9, 11, 2, 2);
        px(g, shade(trousers, -0.3), 6, 11, 1, 2);
        px(g, gear.boots ?? "#2a201a", 5, 13, 2, 1);
        px(g, gear.boots ?? "#2a201a", 9, 13, 2, 1);
      }
      // Body and arms, lit from the left.
      const body = gear.body ?? l.shirt;
      px(g, body, 5, 7, 6, 4);
      px(g, shade(body, 0.25), 5, 7, 1, 4);
      px(g, shade(body, -0.25), 10, 7, 1, 4);
      px(g, "#00000040", 5, 10, 6, 1);
      px(g, shade(body, -0.15), 4, 7, 1, 3);
      px(g, shade(body, -0.3), 11, 7, 1, 3);
      px(g, l.skin, 4, 10, 1, 1);
      px(g, l.skin, 11, 10, 1, 1);
      // Head.
      px(g, l.skin, 6, 2, 4, 5);
      px(g, shade(l.skin, -0.2), 9, 2, 1, 5);
      px(g, "#1a120b", 6, 4, 1, 1);
      px(g, "#1a120b", 8, 4, 1, 1);
      const head = gear.head;
      if (head === undefined) {
        px(g, l.hair, 6, 1, 4, 2);
        px(g, l.hair, 5, 2, 1, 3);
        px(g, l.hair, 10, 2, 1, 3);
      } else if (head.kind === "helm") {
        px(g, head.color, 5, 1, 6, 3);
        px(g, head.color, 5, 4, 1, 3);
        px(g, head.color, 10, 4, 1, 3);
        px(g, shade(head.color, 0.35), 6, 1, 2, 1);
        px(g, "#1a120b", 6, 4, 4, 1);
      } else if (head.kind === "hood") {
        px(g, head.color, 5, 1, 6, 2);
        px(g, head.color, 5, 3, 1, 4);
        px(g, head.color, 10, 3, 1, 4);
        px(g, shade(head.color, 0.2), 6, 1, 3, 1);
      } else {
        px(g, head.color, 4, 2, 8, 1);
        px(g, head.color, 6, 0, 4, 2);
        px(g, shade(head.color, 0.3), 7, 0, 1, 2);
      }
      // What is held: the weapon in the right hand, the shield on the left arm.
      if (gear.weapon !== undefined) icon(g, gear.weapon.icon, 20, 9, 13, gear.weapon.color);
      if (gear.shield !== undefined) icon(g, gear.shield.icon, 1, 13, 11, gear.shield.color);
      // A role's sign over the shoulder: the banker's bank, the keeper's bag, the quest giver's scroll.
      if (l.badge !== undefined) icon(g, l.badge.icon, 21, 0, 11, l.badge.color);
    },
  };
}

const TREES: Record<TreeKind, { crown: string; trunk: string }> = {
  tree: { crown: "#3f8f3a", trunk: "#6b4a2a" },
  oak: { crown: "#2f6f2a", trunk: "#5a3a1f" },
  willow: { crown: "#8ab04a", trunk: "#6b5a3a" },
  maple: { crown: "#c8642a", trunk: "#5a3a22" },
  yew: { crown: "#1f4a2a", trunk: "#4a2f1f" },
  magic: { crown: "#3fb8b0", trunk: "#3a3a5a" },
  pine: { crown: "#2a5a3a", trunk: "#5a3a22" },
  dead: { crown: "#6a5a4a", trunk: "#4a3a2a" },
};

function treeDrawing(kind: TreeKind, depleted: boolean): Drawing {
  const { crown, trunk } = TREES[kind];
  return {
    w: 48,
    h: 48,
    frames: 1,
    draw(g) {
      // Drawn on a 20-pixel grid, then centred on the 24-pixel texture (a tree overhangs its tile).
      g.translate(4, 3);
      ellipse(g, SHADOW, 10, 17.5, 7, 2);
      if (depleted) {
        // A stump: its rings show it was cut.
        ellipse(g, trunk, 10, 15, 4, 2.5);
        ellipse(g, "#c8a06a", 10, 14.5, 3, 1.6);
        ellipse(g, "#a07a4a", 10, 14.5, 1.6, 0.8);
        return;
      }
      px(g, trunk, 9, 11, 3, 7);
      px(g, shade(trunk, -0.3), 11, 11, 1, 7);
      if (kind === "pine") {
        for (let row = 0; row < 12; row++) {
          const half = Math.min(8, 1 + row * 0.7);
          px(g, row % 3 === 2 ? shade(crown, -0.25) : crown, Math.round(10.5 - half), row + 1, Math.round(half * 2), 1);
        }
        px(g, shade(crown, 0.3), 10, 1, 1, 3);
        return;
      }
      if (kind === "dead") {
        px(g, trunk, 9, 3, 3, 9);
        px(g, trunk, 5, 5, 4, 1);
        px(g, trunk, 12, 4, 4, 1);
        px(g, trunk, 4, 3, 1, 2);
        px(g, trunk, 15, 2, 1, 2);
        return;
      }
      const r = kind === "oak" ? 9.5 : kind === "willow" ? 9 : 8.5;
      disc(g, "#10200c", 10.5, 8, r + 0.6);
      disc(g, shade(crown, -0.3), 10.5, 8.5, r);
      disc(g, crown, 10, 7.6, r - 1.2);
      disc(g, shade(crown, 0.15), 8.5, 6, r - 4);
      disc(g, shade(crown, 0.32), 7, 4.5, 1.8);
      // Clumps of leaves break the round edge.
      for (const [x, y] of [
        [4, 6],
        [15, 5],
        [6, 12],
        [14, 11],
        [10, 2],
      ] as const)
        disc(g, shade(crown, -0.12), x + 0.5, y + 0.5, 1.6);
      if (kind === "willow") for (const x of [3, 6, 9, 12, 15, 17]) px(g, shade(crown, -0.2), x, 11, 1, 5);
      if (kind === "oak")
        for (const [x, y] of [
          [5, 9],
          [13, 5],
          [12, 11],
          [7, 12],
        ] as const)
          px(g, shade(crown, -0.25), x, y, 2, 1);
      if (kind === "maple")
        for (const [x, y] of [
          [6, 8],
          [12, 6],
          [10, 11],
        ] as const)
          px(g, "#f2a03a", x, y, 1, 1);
      if (kind === "magic")
        for (const [x, y] of [
          [6, 5],
          [13, 7],
          [9, 11],
          [11, 3],
        ] as const)
          px(g, "#e8ffff", x, y, 1, 1);
    },
  };
}

function rockDrawing(ore: string | undefined, depleted: boolean): Drawing {
  return {
    w: 32,
    h: 32,
    frames: 1,
    draw(g) {
      ellipse(g, SHADOW, 8, 13.6, 6.5, 1.8);
      const stone = "#8a8480";
      if (depleted) {
        ellipse(g, shade(stone, -0.25), 8, 11.5, 5, 2.5);
        ellipse(g, shade(stone, -0.1), 7.5, 11, 3.5, 1.6);
        for (const [x, y] of [
          [4, 12],
          [11, 11],
          [8, 13],
        ] as const)
          px(g, shade(stone, -0.4), x, y, 1, 1);
        return;
      }
      ellipse(g, shade(stone, -0.35), 8.3, 9.3, 6.8, 5);
      ellipse(g, stone, 8, 8.8, 6.2, 4.6);
      ellipse(g, shade(stone, 0.2), 6.5, 7, 3.5, 2.2);
      px(g, shade(stone, -0.3), 9, 6, 1, 3);
      px(g, shade(stone, -0.3), 5, 10, 3, 1);
      if (ore !== undefined) {
        // Veins of the ore, lit on their top left: what a rock gives reads from its colour.
        for (const [x, y] of [
          [4, 7],
          [9, 7],
          [6, 10],
          [11, 10],
          [8, 4],
        ] as const) {
          px(g, shade(ore, -0.35), x, y, 2, 2);
          px(g, ore, x, y, 2, 1);
          px(g, shade(ore, 0.45), x, y, 1, 1);
        }
      }
    },
  };
}

function fishingDrawing(): Drawing {
  return {
    w: 32,
    h: 32,
    frames: 4,
    draw(g, f, ox) {
      // Dark water, rings that widen frame by frame, and a fish that turns under them.
      ellipse(g, "#1f5a8a", 8, 8, 7.5, 5.5, ox);
      ellipse(g, "#2f74b0", 8, 8, 6.5, 4.5, ox);
      const rings = [1.5 + f * 1.2, 4.5 + f * 1.2] as const;
      for (const r of rings) {
        const a = r > 7 ? "#ffffff70" : "#ffffffd8";
        for (let i = 0; i < 32; i++) {
          const t = (i / 32) * Math.PI * 2;
          px(g, a, Math.round(8 + Math.cos(t) * r - 0.5), Math.round(8 + Math.sin(t) * r * 0.65 - 0.5), 1, 1, ox);
        }
      }
      px(g, "#1f4a6a", 6 + (f % 2), 8, 3, 1, ox);
      px(g, "#1f4a6a", 9 + (f % 2), 7, 1, 1, ox);
      px(g, "#ffffffd0", 3 + f, 4, 1, 1, ox);
    },
  };
}

const BASES: Record<"brick" | "wood" | "stone" | "iron", string> = { brick: "#8a3f2a", wood: "#7a5230", stone: "#7d7975", iron: "#3a3a40" };

function stationDrawing(l: Extract<Look, { type: "station" }>): Drawing {
  return {
    w: 32,
    h: 32,
    frames: 1,
    draw(g) {
      const base = BASES[l.base];
      px(g, SHADOW, 1, 14, 15, 1);
      px(g, shade(base, -0.45), 0, 1, 16, 14);
      px(g, base, 1, 1, 14, 12);
      px(g, shade(base, 0.25), 1, 1, 14, 1);
      px(g, shade(base, -0.2), 1, 12, 14, 1);
      if (l.base === "brick") for (let y = 2; y < 12; y += 2) for (let x = (y / 2) % 2; x < 14; x += 3) px(g, shade(base, -0.25), x + 1, y, 1, 1);
      if (l.base === "wood") for (let y = 3; y < 12; y += 3) px(g, shade(base, -0.2), 1, y, 14, 1);
      if (l.icon === undefined) letterTile(g, l.letter, 6, 6, 20, l.color);
      else icon(g, l.icon, 5, 4, 22, l.color);
      if (l.icon === "furnace") px(g, "#ffcf40", 6, 11, 4, 1);
    },
  };
}

function fireDrawing(): Drawing {
  return {
    w: 40,
    h: 40,
    frames: 2,
    draw(g, f, ox) {
      px(g, "#5a3a22", 5, 15, 10, 2, ox);
      px(g, "#3a2414", 7, 16, 6, 1, ox);
      const flame = (x: number, h: number, c: string) => {
        for (let y = 0; y < h; y++) px(g, c, x - Math.floor((h - y) / 4), 15 - y, 1 + Math.floor((h - y) / 2), 1, ox);
      };
      const sway = f === 0 ? 0 : 1;
      flame(6 + sway, 8, "#d84315");
      flame(11 - sway, 9, "#d84315");
      flame(8 + sway, 11, "#ff7043");
      flame(9, 7, "#ffb300");
      flame(9 + sway, 4, "#fff176");
      px(g, "#ffcc80", 4 + sway * 10, 3 + sway, 1, 1, ox);
    },
  };
}

function drawingOf(look: Look): Drawing {
  switch (look.type) {
    case "person":
      return personDrawing(look);
    case "creature":
      return {
        w: 40,
        h: 40,
        frames: 1,
        draw(g) {
          ellipse(g, SHADOW, 10, 17.6, look.size / 5, 1.5);
          icon(g, look.icon, 20 - look.size / 2, 36 - look.size, look.size, look.color);
        },
      };
    case "tree":
      return treeDrawing(look.kind, look.depleted);
    case "rock":
      return rockDrawing(look.ore, look.depleted);
    case "fishing":
      return fishingDrawing();
    case "station":
      return stationDrawing(look);
    case "fire":
      return fireDrawing();
    case "obstacle":
      return { w: 32, h: 32, frames: 1, draw: (g) => drawObstacle(g, look.kind) };
    case "item":
      return {
        w: 20,
        h: 20,
        frames: 1,
        draw(g) {
          if (look.item.icon === undefined) letterTile(g, look.item.letter, 2, 2, 16, look.item.color);
          else icon(g, look.item.icon, 2, 2, 16, look.item.color);
        },
      };
    case "letter":
      return {
        w: 32,
        h: 32,
        frames: 1,
        draw(g) {
          ellipse(g, SHADOW, 8, 14.4, 6, 1.4);
          letterTile(g, look.letter, 4, 3, 24, look.color);
        },
      };
  }
}

/** How many frames a look's texture has (1: still). */
export function framesOf(look: Look): number {
  return look.type === "fishing" ? 4 : look.type === "fire" ? 2 : 1;
}

/**
 * A look drawn on a canvas, its frames side by side (`w` × `h` each): shown centred on its tile, at
 * one pixel a screen pixel in the world view (32 a tile). The world view makes a texture of it; the
 * dashboard's Watch view draws it on its own canvas.
 */
export function lookCanvas(look: Look): { c: HTMLCanvasElement; w: number; h: number; frames: number } {
  const d = drawingOf(look);
  const { c, g } = canvas(d.w * d.frames, d.h);
  for (let f = 0; f < d.frames; f++) d.draw(g, f, f * d.w);
  return { c, w: d.w, h: d.h, frames: d.frames };
}

/** The texture of a look, drawn the first time it is asked for (frames "0", "1", … side by side). */
export function textureOf(scene: Phaser.Scene, look: Look): string {
  const key = `art:${JSON.stringify(look)}`;
  if (scene.textures.exists(key)) return key;
  const { c, w, h, frames } = lookCanvas(look);
  const tex = scene.textures.addCanvas(key, c)!;
  for (let f = 0; f < frames; f++) tex.add(String(f), 0, f * w, 0, w, h);
  return key;
}
