/**
 * `world-objects.json`: the places that change or join the map, beside the areas that place NPCs
 * and resources: doors (open and shut by anyone, shared by all), ladders and stairs (the only way
 * between the surface and an underground area) and agility obstacles (Agility xp, a level to try,
 * a chance to fail). Positions are whole tiles; see docs/content.md.
 */
import { z } from "zod";
import { id, level, nonNegativeInt, positiveInt } from "./common.ts";

const coordinate = z.int().min(-32_767).max(32_767);
export const tile = z.looseObject({ x: coordinate, z: coordinate });

export const doorDef = z.looseObject({
  id,
  name: z.string().min(1),
  x: coordinate,
  z: coordinate,
  /** How the door stands when the world starts (and after a restart): shut by default. */
  open: z.boolean().default(false),
  examine: z.string().optional(),
});
export type DoorDef = z.infer<typeof doorDef>;

export const ladderDef = z.looseObject({
  id,
  name: z.string().min(1),
  /** Drawn as a ladder or a stairway; climbed alike. */
  kind: z.enum(["ladder", "stairs"]).default("ladder"),
  /** The menu's verb: "Climb-down" or "Climb-up". */
  direction: z.enum(["up", "down"]),
  x: coordinate,
  z: coordinate,
  /** Where the climber lands (a walkable tile, usually beside the ladder at the other end). */
  to: tile,
  examine: z.string().optional(),
});
export type LadderDef = z.infer<typeof ladderDef>;

export const obstacleDef = z.looseObject({
  id,
  name: z.string().min(1),
  /** The menu's verb: "Walk-across", "Climb-over", "Swing-on". */
  verb: z.string().min(1).max(32),
  x: coordinate,
  z: coordinate,
  /** The tile an attempt starts from; absent: any tile next to the obstacle. */
  from: tile.optional(),
  /** Where a success lands. */
  to: tile,
  /** Where a failure lands; absent: where the attempt started. */
  failTo: tile.optional(),
  /** The Agility level needed to try it. */
  level: level.default(1),
  /** Agility xp for a success. */
  xp: z.number().positive(),
  /**
   * Chance to succeed, out of 256, at Agility 1 and 99 (the genre's skilling success rate; see
   * src/game/places/agility.ts); absent: the obstacle never fails.
   */
  successLow: z.int().min(0).max(256).optional(),
  successHigh: z.int().min(0).max(256).optional(),
  /** Hitpoints a failure costs, rolled evenly between the two. */
  failDamage: z
    .looseObject({ min: nonNegativeInt, max: positiveInt })
    .refine((d) => d.min <= d.max, "min must not exceed max")
    .optional(),
  /** The game's line after a success and after a failure (defaults name the obstacle). */
  successText: z.string().min(1).optional(),
  failText: z.string().min(1).optional(),
  examine: z.string().optional(),
});
export type ObstacleDef = z.infer<typeof obstacleDef>;

export const worldObjectsFile = z.looseObject({
  doors: z.array(doorDef).default([]),
  ladders: z.array(ladderDef).default([]),
  obstacles: z.array(obstacleDef).default([]),
});
export type WorldObjectsFile = z.infer<typeof worldObjectsFile>;
