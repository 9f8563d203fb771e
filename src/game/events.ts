/**
 * The one table of client events, shared by every transport (Colyseus rooms and `/ws`): each
 * event is defined once, with its payload schema and its handler. A transport validates a payload
 * with `safeParse` (an invalid one gets an `error` event and changes nothing), then queues it for
 * the player's next tick, where the handler runs.
 */
import type { z } from "zod";
import { handleAction } from "./actions.ts";
import { deposit, withdraw } from "./bank.ts";
import { handleChat, type AdminCheck } from "./chat.ts";
import { setCombatStyle } from "./combat.ts";
import { setAutocast } from "./magic.ts";
import { chooseOption, handleClose, handleQuestList } from "./dialogue.ts";
import { togglePrayer } from "./prayer.ts";
import { CLIENT_EVENTS, type ClientEvent, type ClientEventName } from "./clientEvents.ts";
import { unequip, useItem } from "./items.ts";
import { setRun } from "./running.ts";
import { setAutoRetaliate } from "./retaliate.ts";
import type { ModerationPort } from "./moderation.ts";
import { sendPrivateMessage, socialCommand, type SocialPort } from "./social.ts";
import { buy, sell } from "./store.ts";
import { sendRecipes, startMake } from "./production.ts";
import { tradeErrorEvent } from "./trade/Trades.ts";
import type { Player } from "./world/Player.ts";
import type { HandlerResult, InputCategory, InputRule, World } from "./world/World.ts";

export interface EventContext {
  /**
   * Timing-safe comparison against ADMIN_CODE, within the guessing budgets of the player's account
   * and client address (the transports know the address; see src/auth/adminCode.ts).
   */
  checkAdminCode(code: string, player: Player): AdminCheck;
  /** Friends, ignore lists and private messages (the social service); without it `social:` events are refused (UNAVAILABLE). */
  social?: SocialPort | undefined;
  /** Admins' moderation commands in chat (the moderation service); without it they are refused (UNAVAILABLE). */
  moderation?: ModerationPort | undefined;
}

export interface EventDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Which per-tick cap it counts against (World.INPUT_CAPS). */
  category: InputCategory;
  schema: S;
  handle(world: World, player: Player, data: z.infer<S>, ctx: EventContext): HandlerResult;
}

type Handler<K extends ClientEventName> = (world: World, player: Player, data: ClientEvent<K>, ctx: EventContext) => HandlerResult;

/** Each client event's handler; the type makes the compiler demand one for every event of the protocol table. */
const HANDLERS: { [K in ClientEventName]: Handler<K> } = {
  "player:move": (world, player, data) => world.walkTo(player, { x: data.x, z: data.z }, data.run ?? player.runMode),
  "player:chat": (world, player, data, ctx) => handleChat(world, player, data, (code) => ctx.checkAdminCode(code, player), ctx.moderation),
  "player:action": (world, player, data) => handleAction(world, player, data),
  "inventory:use": (world, player, data) => useItem(world, player, data),
  "equipment:remove": (world, player, data) => unequip(world, player, data),
  "player:setCombatStyle": (world, player, data) => setCombatStyle(world, player, data),
  "player:setAutocast": (world, player, data) => setAutocast(world, player, data),
  "player:setRun": (world, player, data) => setRun(world, player, data),
  "player:setAutoRetaliate": (world, player, data) => setAutoRetaliate(world, player, data),
  "prayer:toggle": (world, player, data) => togglePrayer(world, player, data),
  "skill:make": (world, player, data) => startMake(world, player, data),
  "skill:getRecipes": (world, player, data) => sendRecipes(world, player, data),
  "bank:deposit": (world, player, data) => deposit(world, player, data),
  "bank:withdraw": (world, player, data) => withdraw(world, player, data),
  "store:buy": (world, player, data) => buy(world, world.stores, player, data),
  "store:sell": (world, player, data) => sell(world, world.stores, player, data),
  // The trade events of PROTOCOL.md; a refusal is a `tradeError` to the sender (not `error`).
  tradeRequest: tradeGuard<ClientEvent<"tradeRequest">>((world, player, data) => world.trades.request(world, player, data.targetPlayerId)),
  tradeRequestRespond: tradeGuard((world, player, data) => world.trades.respond(world, player, data.tradeId, data.accept)),
  tradeAddItem: tradeGuard((world, player, data) => world.trades.addItem(world, player, data.tradeId, data.inventorySlot, data.quantity)),
  tradeSetCoins: tradeGuard((world, player, data) => world.trades.setCoins(world, player, data.tradeId, data.amount)),
  tradeRemoveItem: tradeGuard((world, player, data) => world.trades.removeItem(world, player, data.tradeId, data.tradeSlot, data.quantity)),
  tradeAccept: tradeGuard((world, player, data) => world.trades.accept(world, player, data.tradeId, data.screen)),
  tradeCancel: tradeGuard((world, player, data) => world.trades.cancel(world, player, data.tradeId)),
  // Answered later by the social service: a `social:list`, a `social:messageSent`, or an `error`.
  "social:getList": (_world, player, _data, ctx) => socialCommand(ctx.social, player, "social:getList", {}),
  "social:addFriend": (_world, player, data, ctx) => socialCommand(ctx.social, player, "social:addFriend", data),
  "social:acceptFriend": (_world, player, data, ctx) => socialCommand(ctx.social, player, "social:acceptFriend", data),
  "social:declineFriend": (_world, player, data, ctx) => socialCommand(ctx.social, player, "social:declineFriend", data),
  "social:removeFriend": (_world, player, data, ctx) => socialCommand(ctx.social, player, "social:removeFriend", data),
  "social:addIgnore": (_world, player, data, ctx) => socialCommand(ctx.social, player, "social:addIgnore", data),
  "social:removeIgnore": (_world, player, data, ctx) => socialCommand(ctx.social, player, "social:removeIgnore", data),
  "social:sendMessage": (world, player, data, ctx) => sendPrivateMessage(world, ctx.social, player, data),
  // Dialogue and quests (dialogue.ts, quests.ts).
  "dialogue:choose": (world, player, data) => chooseOption(world, player, data),
  "dialogue:close": (world, player) => handleClose(world, player),
  "quest:getList": (world, player) => handleQuestList(world, player),
};

/** The one table of client events: the protocol's name, category and schema with the game's handler. */
export const EVENTS: readonly EventDefinition[] = (Object.keys(CLIENT_EVENTS) as ClientEventName[]).map((name) => ({
  name,
  category: CLIENT_EVENTS[name].category,
  schema: CLIENT_EVENTS[name].schema,
  handle: HANDLERS[name],
}));

export const EVENT_TABLE: ReadonlyMap<string, EventDefinition> = new Map(EVENTS.map((e) => [e.name, e]));

/** The table as the World's input rules: each event's handler and category. */
export function inputHandlers(ctx: EventContext): Map<string, InputRule> {
  return new Map(
    [...EVENT_TABLE.values()].map((e) => [
      e.name,
      { category: e.category, handle: (world: World, player: Player, data: unknown) => e.handle(world, player, data, ctx) },
    ]),
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

/** A trade command's refusal is a `tradeError` to the sender, not an `error`. */
function tradeGuard<T extends object>(fn: (world: World, player: Player, data: T) => void): (world: World, player: Player, data: T) => HandlerResult {
  return (world, player, data) => {
    try {
      fn(world, player, data);
    } catch (err) {
      tradeErrorEvent(world, player, err, (data as { tradeId?: string }).tradeId);
    }
  };
}
