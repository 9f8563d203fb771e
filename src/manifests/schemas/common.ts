/**
 * Building blocks of the manifest schemas. Objects are "loose": fields the server does not use
 * (models, icons, colours, prose) pass through untouched, so a content set can carry more than the
 * server reads; every field the game does use is typed and checked.
 */
import { z } from "zod";

/** Content ids: lower-case words joined by `_` or `-` (e.g. `bronze_hatchet`, `tree-oak`). */
export const id = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*$/i, "expected an id (letters, digits, _ and -)")
  .max(64);
export const text = z.string();
export const nonNegativeInt = z.int().min(0);
export const positiveInt = z.int().min(1);
export const level = z.int().min(1).max(99);
export const probability = z.number().min(0).max(1);
/** Paths to models and icons; null where the fixture has no model. */
export const assetPath = z.string().nullable().optional();

export const dimensions = z.looseObject({ width: z.number().positive(), depth: z.number().positive(), height: z.number().positive() });

export const position = z.looseObject({ x: z.number().finite(), y: z.number().finite().optional(), z: z.number().finite() });

export const bounds = z
  .looseObject({ minX: z.number().finite(), maxX: z.number().finite(), minZ: z.number().finite(), maxZ: z.number().finite() })
  .refine((b) => b.minX <= b.maxX && b.minZ <= b.maxZ, "min must not exceed max");

/** Skill names as content spells them (`defence`), mapped to the character columns elsewhere. */
export const skillName = z.string().regex(/^[a-z]+$/, "expected a skill name");
export const skillLevels = z.record(skillName, level);

export const itemStack = z.looseObject({ itemId: id, quantity: positiveInt });
