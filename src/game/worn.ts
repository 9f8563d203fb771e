/**
 * What others see of a player's equipment: the item worn in each slot that shows on a person
 * (weapon, shield, helmet, body, legs, cape, boots; not the amulet, ring, gloves or arrows, which
 * the sprite does not draw and whose quantity changes with every shot). Both transports carry it:
 * `/ws` as the player's `worn` object in `world:update`, Colyseus as the same object's JSON text in
 * the public `PlayerState.worn` (one string field, no schema object a player). It changes only when
 * the gear does, so a player who walks sends nothing more.
 */

/** The equipment slots others see, in the order the summary lists them. */
export const WORN_SLOTS = ["weapon", "shield", "helmet", "body", "legs", "cape", "boots"] as const;
export type WornSlot = (typeof WORN_SLOTS)[number];
/** Item id by slot; a slot with nothing worn is absent. */
export type Worn = Partial<Record<WornSlot, string>>;

/** The last summary of one player (see wornOf): the ids it was made from, the object and its JSON. */
export interface WornSummary {
  ids: string[];
  worn: Worn | undefined;
  /** The JSON of `worn`; "" when nothing shows. */
  text: string;
}

/**
 * The summary of `equipment`, the cached one when the shown slots hold the same items (a compare
 * of seven strings: no object is made while the gear stays the same, which is nearly always).
 */
export function wornOf(equipment: Readonly<Record<string, { readonly itemId: string; readonly quantity: number }>>, cache: WornSummary): WornSummary {
  let same = true;
  for (let i = 0; i < WORN_SLOTS.length; i++) {
    if ((equipment[WORN_SLOTS[i]!]?.itemId ?? "") !== cache.ids[i]) {
      same = false;
      break;
    }
  }
  if (same) return cache;
  const worn: Worn = {};
  let any = false;
  for (let i = 0; i < WORN_SLOTS.length; i++) {
    const slot = WORN_SLOTS[i]!;
    const id = equipment[slot]?.itemId ?? "";
    cache.ids[i] = id;
    if (id !== "") {
      worn[slot] = id;
      any = true;
    }
  }
  cache.worn = any ? worn : undefined;
  cache.text = any ? JSON.stringify(worn) : "";
  return cache;
}

/** A summary of nothing worn (every player's starting cache). */
export function noneWorn(): WornSummary {
  return { ids: WORN_SLOTS.map(() => ""), worn: undefined, text: "" };
}

/** Reads `PlayerState.worn` (the JSON text, "" for nothing) back into its object; anything unreadable is nothing worn. */
export function parseWorn(text: string | undefined): Worn {
  if (text === undefined || text === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null) return {};
    const worn: Worn = {};
    for (const slot of WORN_SLOTS) {
      const id = (value as Record<string, unknown>)[slot];
      if (typeof id === "string" && id !== "") worn[slot] = id;
    }
    return worn;
  } catch {
    return {};
  }
}
