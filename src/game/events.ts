/**
 * The one table of client events, shared by every transport (Colyseus rooms and `/ws`): each
 * event is defined once, with its payload schema and its handler. A transport validates a payload
 * with `safeParse` (an invalid one gets an `error` event and changes nothing), then queues it for
 * the player's next tick, where the handler runs.
 */
import { z } from "zod";
import { EQUIPMENT_SLOTS } from "../../entities/EquipmentSlot.ts";
import { ACTIONS, handleAction } from "./actions.ts";
import { deposit, withdraw } from "./bank.ts";
import { handleChat, type AdminCheck } from "./chat.ts";
import { MAX_STACK } from "./inventory.ts";
import { unequip, useItem } from "./items.ts";
import { buy, sell, type StoreStock } from "./store.ts";
import { INVENTORY_SIZE } from "./world/Player.ts";
import { tradeErrorEvent } from "./trade/Trades.ts";
import { MAX_OFFER_ITEMS } from "./trade/TradeSession.ts";
import type { Player } from "./world/Player.ts";
import type { HandlerResult, InputCategory, InputHandler, InputRule, World } from "./world/World.ts";

/** Tile coordinates a client may name: integers, far beyond any world, never NaN or 1e308. */
const coordinate = z.int().min(-1_000_000).max(1_000_000);
const slot = z.int().min(0).max(INVENTORY_SIZE - 1);
const quantity = z.int().min(1).max(MAX_STACK);
const ref = z.string().min(1).max(64);
const tradeId = z.string().min(1).max(64);

export interface EventContext {
  /**
   * Timing-safe comparison against ADMIN_CODE, within the guessing budgets of the player's account
   * and client address (the transports know the address; see src/auth/adminCode.ts).
   */
  checkAdminCode(code: string, player: Player): AdminCheck;
  /** The world's store stock. */
  storeStock: StoreStock;
}

export interface EventDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Which per-tick cap it counts against (World.INPUT_CAPS). */
  category: InputCategory;
  schema: S;
  handle(world: World, player: Player, data: z.infer<S>, ctx: EventContext): HandlerResult;
}

function define<S extends z.ZodType>(def: EventDefinition<S>): EventDefinition<S> {
  return def;
}

export const EVENTS = [
  define({
    name: "player:move",
    category: "move",
    schema: z.object({ x: coordinate, z: coordinate, run: z.boolean().optional() }),
    handle: (world, player, data) => world.walkTo(player, { x: data.x, z: data.z }, data.run ?? false),
  }),
  define({
    name: "player:chat",
    category: "chat",
    schema: z.object({ message: z.string().max(4 * 255) }),
    handle: (world, player, data, ctx) => handleChat(world, player, data, (code) => ctx.checkAdminCode(code, player)),
  }),
  define({
    name: "player:action",
    category: "action",
    schema: z.object({ action: z.enum(ACTIONS), targetId: ref.optional(), slot: slot.optional() }),
    handle: (world, player, data) => handleAction(world, player, data),
  }),
  define({
    name: "inventory:use",
    category: "action",
    schema: z.object({ slot, targetSlot: slot.optional(), targetId: ref.optional() }),
    handle: (world, player, data) => useItem(world, player, data),
  }),
  define({
    name: "equipment:remove",
    category: "action",
    schema: z.object({ slot: z.enum(EQUIPMENT_SLOTS) }),
    handle: (world, player, data) => unequip(world, player, data),
  }),
  define({
    name: "bank:deposit",
    category: "item",
    schema: z.object({ slot, quantity }),
    handle: (world, player, data) => deposit(world, player, data),
  }),
  define({
    name: "bank:withdraw",
    category: "item",
    schema: z.object({ itemId: ref, quantity }),
    handle: (world, player, data) => withdraw(world, player, data),
  }),
  define({
    name: "store:buy",
    category: "item",
    schema: z.object({ storeId: ref, itemId: ref, quantity }),
    handle: (world, player, data, ctx) => buy(world, ctx.storeStock, player, data),
  }),
  ...tradeEvents(),
  define({
    name: "store:sell",
    category: "item",
    schema: z.object({ storeId: ref, slot, quantity }),
    handle: (world, player, data) => sell(world, player, data),
  }),
] as const;

export const EVENT_TABLE: ReadonlyMap<string, EventDefinition> = new Map(EVENTS.map((e) => [e.name, e as unknown as EventDefinition]));

/** The table as the World's input rules: each event's handler and category. */
export function inputHandlers(ctx: EventContext): Map<string, InputRule> {
  return new Map(
    [...EVENT_TABLE.values()].map((e) => [e.name, { category: e.category, handle: ((world: World, player: Player, data: unknown) => e.handle(world, player, data, ctx)) as InputHandler }]),
  );
}

export type ValidationResult = { ok: true; data: unknown } | { ok: false; code: "UNKNOWN_EVENT" | "INVALID_PAYLOAD"; message: string };

/** Looks an event up and validates its payload. */
export function validateEvent(type: string, data: unknown): ValidationResult {
  const def = EVENT_TABLE.get(type);
  if (def === undefined) return { ok: false, code: "UNKNOWN_EVENT", message: `unknown event "${type}"` };
  const parsed = def.schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, code: "INVALID_PAYLOAD", message: `${issue.path.join(".") || "data"}: ${issue.message}` };
  }
  return { ok: true, data: parsed.data };
}

/** The trade events of PROTOCOL.md; a refusal is a `tradeError` to the sender (not `error`). */
function tradeEvents() {
  const guarded =
    <T extends object>(fn: (world: World, player: Player, data: T) => void) =>
    (world: World, player: Player, data: T): HandlerResult => {
      try {
        fn(world, player, data);
      } catch (err) {
        tradeErrorEvent(world, player, err, (data as { tradeId?: string }).tradeId);
      }
    };
  return [
    define({
      name: "tradeRequest",
      category: "trade",
      schema: z.object({ targetPlayerId: z.string().min(1).max(64) }),
      handle: guarded((world, player, data: { targetPlayerId: string }) => world.trades.request(world, player, data.targetPlayerId)),
    }),
    define({
      name: "tradeRequestRespond",
      category: "trade",
      schema: z.object({ tradeId, accept: z.boolean() }),
      handle: guarded((world, player, data: { tradeId: string; accept: boolean }) => world.trades.respond(world, player, data.tradeId, data.accept)),
    }),
    define({
      name: "tradeAddItem",
      category: "trade",
      schema: z.object({ tradeId, inventorySlot: slot, quantity }),
      handle: guarded((world, player, data: { tradeId: string; inventorySlot: number; quantity: number }) =>
        world.trades.addItem(world, player, data.tradeId, data.inventorySlot, data.quantity),
      ),
    }),
    define({
      name: "tradeRemoveItem",
      category: "trade",
      schema: z.object({ tradeId, tradeSlot: z.int().min(0).max(MAX_OFFER_ITEMS * 1000), quantity: quantity.optional() }),
      handle: guarded((world, player, data: { tradeId: string; tradeSlot: number; quantity?: number | undefined }) =>
        world.trades.removeItem(world, player, data.tradeId, data.tradeSlot, data.quantity),
      ),
    }),
    define({
      name: "tradeAccept",
      category: "trade",
      schema: z.object({ tradeId }),
      handle: guarded((world, player, data: { tradeId: string }) => world.trades.accept(world, player, data.tradeId)),
    }),
    define({
      name: "tradeCancel",
      category: "trade",
      schema: z.object({ tradeId }),
      handle: guarded((world, player, data: { tradeId: string }) => world.trades.cancel(world, player, data.tradeId)),
    }),
  ];
}
