/**
 * The client events' names and payload schemas: what a client may send, on either transport. This
 * is protocol only (no game rules), so that clients (the agent runtime, the browser client, tools)
 * import it without the game core; events.ts pairs each event with its handler, and the compiler
 * checks that every event here has one.
 */
import { z } from "zod";
import { COMBAT_STYLES } from "./combatStyles.ts";
import { MAX_STACK } from "./inventory.ts";
import { ACCEPT_SCREENS, MAX_OFFER_ITEMS } from "./trade/TradeSession.ts";
import { INVENTORY_SIZE } from "./world/Player.ts";
import { QUEST_CLIENT_EVENTS } from "./questEvents.ts";

export const ACTIONS = ["attack", "gather", "pickup", "interact", "talk", "cook", "light", "examine", "drop", "dropAll", "stop", "cast"] as const;
export type ActionName = (typeof ACTIONS)[number];

/** Equipment slot types (content `equipSlot` values). */
export const EQUIPMENT_SLOTS = ["weapon", "shield", "helmet", "body", "legs", "boots", "gloves", "cape", "amulet", "ring", "arrows"] as const;
export type EquipmentSlotType = (typeof EQUIPMENT_SLOTS)[number];

/** `player:chat`: at most this long after trimming, and at most CHAT_LIMIT lines per player in any CHAT_WINDOW_MS. */
export const CHAT_MAX_LENGTH = 255;
export const CHAT_LIMIT = 5;
export const CHAT_WINDOW_MS = 5_000;

/** Friends and ignore lists (`social:` events): at most this many entries an account. */
export const FRIENDS_LIMIT = 200;
export const IGNORE_LIMIT = 100;
/** Pending friend requests an account may hold from others (its own count against FRIENDS_LIMIT). */
export const INCOMING_REQUESTS_LIMIT = 200;
/** Characters' names are at most this long (persistence/players.ts NAME_PATTERN). */
export const NAME_MAX_LENGTH = 16;

/** A numbered `skill:make` makes at most this many (a full inventory); "all" makes until the inputs run out. */
export const MAKE_MAX_QUANTITY = 28;

/** Per-tick input caps count events by category (World.INPUT_CAPS). */
export type InputCategory = "move" | "action" | "item" | "chat" | "trade" | "social";

/** Tile coordinates a client may name: integers, far beyond any world, never NaN or 1e308. */
const coordinate = z.int().min(-1_000_000).max(1_000_000);
const slot = z
  .int()
  .min(0)
  .max(INVENTORY_SIZE - 1);
const quantity = z.int().min(1).max(MAX_STACK);
const ref = z.string().min(1).max(64);
const tradeId = z.string().min(1).max(64);
/** Another player, by a name of one of its account's characters (any case). */
const name = z.string().trim().min(1).max(NAME_MAX_LENGTH);
const named = z.object({ name });

const event = <C extends InputCategory, S extends z.ZodType>(category: C, schema: S) => ({ category, schema });

/** Every client event of the game (the agent's `agent:goalProgress` is a service event, src/server.ts). */
export const CLIENT_EVENTS = {
  "player:move": event("move", z.object({ x: coordinate, z: coordinate, run: z.boolean().optional() })),
  "player:chat": event("chat", z.object({ message: z.string().max(4 * 255) })),
  "player:action": event("action", z.object({ action: z.enum(ACTIONS), targetId: ref.optional(), slot: slot.optional(), spellId: ref.optional() })),
  "inventory:use": event("action", z.object({ slot, targetSlot: slot.optional(), targetId: ref.optional() })),
  "equipment:remove": event("action", z.object({ slot: z.enum(EQUIPMENT_SLOTS) })),
  // A style the wielded weapon does not offer is refused (INVALID_COMBAT_STYLE).
  "player:setCombatStyle": event("action", z.object({ style: z.enum(COMBAT_STYLES) })),
  // The spell attacks cast while a staff is wielded (magic.ts); null: none.
  "player:setAutocast": event("action", z.object({ spellId: ref.nullable() })),
  // The run toggle; switching it on with less than 1 % energy is refused (TOO_TIRED).
  "player:setRun": event("action", z.object({ run: z.boolean() })),
  // Auto Retaliate on or off (retaliate.ts).
  "player:setAutoRetaliate": event("action", z.object({ on: z.boolean() })),
  // Unknown prayer, one above the Prayer level or no points left: refused (prayer.ts).
  "prayer:toggle": event("action", z.object({ prayerId: ref, active: z.boolean() })),
  // Make a recipe (src/game/production.ts): one item per recipe-tick until `quantity` (1..28 or "all"), the inputs or the player stops it.
  "skill:make": event(
    "action",
    z.object({ recipeId: z.string().min(1).max(128), quantity: z.union([z.int().min(1).max(MAKE_MAX_QUANTITY), z.literal("all")]) }),
  ),
  // The recipes of a station type or station id (absent: every recipe), answered by `skill:recipes`.
  "skill:getRecipes": event("action", z.object({ station: ref.optional() })),
  "bank:deposit": event("item", z.object({ slot, quantity })),
  "bank:withdraw": event("item", z.object({ itemId: ref, quantity })),
  "store:buy": event("item", z.object({ storeId: ref, itemId: ref, quantity })),
  "store:sell": event("item", z.object({ storeId: ref, slot, quantity })),
  tradeRequest: event("trade", z.object({ targetPlayerId: z.string().min(1).max(64) })),
  tradeRequestRespond: event("trade", z.object({ tradeId, accept: z.boolean() })),
  tradeAddItem: event("trade", z.object({ tradeId, inventorySlot: slot, quantity })),
  tradeSetCoins: event("trade", z.object({ tradeId, amount: z.int().min(0).max(2_147_483_647) })),
  tradeRemoveItem: event(
    "trade",
    z.object({
      tradeId,
      tradeSlot: z
        .int()
        .min(0)
        .max(MAX_OFFER_ITEMS * 1000),
      quantity: quantity.optional(),
    }),
  ),
  // `screen` (optional): the screen accepted; once the trade has left it, refused (TRADE_SCREEN_CHANGED).
  tradeAccept: event("trade", z.object({ tradeId, screen: z.enum(ACCEPT_SCREENS).optional() })),
  tradeCancel: event("trade", z.object({ tradeId })),
  // Friends, ignore lists and private messages (src/game/social.ts; answered later by the social service).
  "social:getList": event("social", z.object({})),
  "social:addFriend": event("social", named),
  "social:acceptFriend": event("social", named),
  "social:declineFriend": event("social", named),
  "social:removeFriend": event("social", named),
  "social:addIgnore": event("social", named),
  "social:removeIgnore": event("social", named),
  "social:sendMessage": event("social", z.object({ to: name, message: z.string().max(4 * 255) })),
  // Dialogue and quests (questEvents.ts).
  ...QUEST_CLIENT_EVENTS,
} as const;

export type ClientEventName = keyof typeof CLIENT_EVENTS;
/** The payload of a client event. */
export type ClientEvent<K extends ClientEventName> = z.infer<(typeof CLIENT_EVENTS)[K]["schema"]>;
/** The client events of one input category (the trade room takes the `trade` ones). */
export type ClientEventOf<C extends InputCategory> = { [K in ClientEventName]: (typeof CLIENT_EVENTS)[K]["category"] extends C ? K : never }[ClientEventName];
