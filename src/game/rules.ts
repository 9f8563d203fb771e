/**
 * Small rules shared by the gameplay handlers: reach, the trade lock, and turning a failed
 * inventory transaction into an error for the player.
 */
import { chebyshev } from "./map/CollisionMap.ts";
import type { InvError } from "./inventory.ts";
import type { Player } from "./world/Player.ts";
import type { GameError } from "./world/World.ts";

/** Banks and stores serve players within this many tiles (Chebyshev). */
export const SERVICE_RANGE = 2;

export function within(player: Player, at: { x: number; z: number }, tiles: number): boolean {
  return chebyshev(player, at) <= tiles;
}

/** While a trade is open, the player's other interfaces are blocked (spec: trading rule 2). */
export function tradeLock(player: Player): GameError | undefined {
  return player.inTrade ? { code: "PLAYER_BUSY", message: "finish or cancel your trade first" } : undefined;
}

const INV_CODES: Record<InvError["code"], string> = {
  NOT_ENOUGH_SPACE: "INVENTORY_FULL",
  ITEM_NOT_FOUND: "ITEM_NOT_FOUND",
  INVALID_QUANTITY: "INVALID_QUANTITY",
  STACK_OVERFLOW: "STACK_OVERFLOW",
  INVALID_SLOT: "INVALID_SLOT",
  INVALID_ITEM: "INVALID_ITEM",
  PLAYER_BUSY: "PLAYER_BUSY",
};

export function invError(err: InvError): GameError {
  return { code: INV_CODES[err.code], message: err.message };
}
