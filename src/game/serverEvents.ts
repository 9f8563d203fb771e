/**
 * The one table of server events: everything the server sends a client, on either transport, by
 * name with its payload schema (zod), beside the table of client events (events.ts). The World's
 * `send` takes only these names and payloads (checked by the compiler); the test clients of both
 * transports check every event they receive against the schemas, so a payload that drifts fails
 * the tests; docs/protocol.md's list is printed from it (`npm run docs:events`). The browser client and
 * the agent runtime import the types and schemas from here.
 *
 * Schemas are strict: a field the table does not name is a mismatch too.
 */
import { z } from "zod";
import { COMBAT_STYLES } from "./combatStyles.ts";
import { QUEST_SERVER_EVENTS } from "./questEvents.ts";
import { WORN_SLOTS } from "./worn.ts";

/** How a hit was dealt (`combat:hit`'s `style`): the client draws each kind's splat apart; `typeless` is damage no attack style dealt (a fall from an agility obstacle). */
export const HIT_STYLES = ["melee", "ranged", "magic", "typeless"] as const;
export type HitStyle = (typeof HIT_STYLES)[number];

/** Interest radius: a client sees what is within this many tiles (Chebyshev) of its player. */
export const VIEW_RADIUS = 16;

const id = z.string().min(1);
const int = z.int();
const stack = z.strictObject({ itemId: id, quantity: z.int().min(1) });
const tile = z.strictObject({ x: int, z: int });
const position = z.strictObject({ x: z.number(), y: z.number(), z: z.number() });
const offer = z.strictObject({
  items: z.array(z.strictObject({ tradeSlot: int, inventorySlot: int, itemId: id, quantity: z.int().min(1) })),
  coins: z.int().min(0),
  accepted: z.boolean(),
});
const offers = { tradeId: id, myOffer: offer, theirOffer: offer };
/**
 * A store as its viewer sees it now: each item it sells with the price of the next one bought
 * and its stock (null: unlimited), and for each item the viewer carries what the store pays for
 * one now (`store:sell` pays that for the first, less for each further one as its stock grows),
 * or why it will not take it (`refusal`, price 0).
 */
const storeView = {
  items: z.array(z.strictObject({ itemId: id, price: z.int().min(1), stock: z.int().min(0).nullable() })),
  sell: z.array(z.strictObject({ itemId: id, price: z.int().min(0), refusal: z.string().optional() })),
};

/**
 * Why a make loop (`skill:make`) ended: `done` (the quantity made, or with `all` every input used),
 * `no_materials` (a numbered quantity stopped short of its inputs, or any loop of a tool, a
 * consumable or the coins), `inventory_full`, `no_station` (out of reach), `moved` (the player walked), `interrupted`
 * (another action or make), `combat` (attacked), `trade`, `refused` (anything else, with its code).
 */
export const MAKE_STOP_REASONS = ["done", "no_materials", "inventory_full", "no_station", "moved", "interrupted", "combat", "trade", "refused"] as const;
export type MakeStopReason = (typeof MAKE_STOP_REASONS)[number];

/** A recipe as `skill:recipes` lists it (src/manifests/production.ts, src/game/production.ts). */
const recipeView = z.strictObject({
  id,
  kind: z.string(),
  skill: z.string().nullable(),
  name: z.string(),
  output: id.nullable(),
  outputQuantity: z.int().min(1),
  level: int,
  xp: z.number().min(0),
  ticks: z.int().min(1),
  station: id.nullable(),
  inputs: z.array(stack),
  tools: z.array(id),
  consumables: z.array(z.strictObject({ itemId: id, uses: z.int().min(1) })),
  coins: z.int().min(0),
  successRate: z.number().min(0).max(1),
  essence: z.array(id).nullable(),
  makeable: z.boolean(),
  refusal: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
});

export const CANCEL_REASONS = ["declined", "cancelled", "disconnected", "moved_away", "timeout", "died", "server_error"] as const;

/**
 * What changed in a `social:list`, seen from its recipient: a request you sent or received, one
 * withdrawn or declined (by either side), a friend added or removed (by either side), an entry of
 * your ignore list added or removed.
 */
export const SOCIAL_CHANGES = [
  "requestSent",
  "requestReceived",
  "requestWithdrawn",
  "requestDeclined",
  "friendAdded",
  "friendRemoved",
  "ignoreAdded",
  "ignoreRemoved",
] as const;
/** Another account as the social events show it: its stable id and a name of its characters (the one online, else the last one played). */
const account = { accountId: id, name: z.string().min(1) };
const friend = z.strictObject({ ...account, online: z.boolean(), world: z.int().min(1).nullable() });

/**
 * What `world:update` carries of an entity: all of it when it enters the view or changes, else its new position.
 * `ref` is the content id (NPC, item, resource node, object type), as in the Colyseus schema's EntityState.
 */
/** Compact updates (`/ws?updates=compact`): the entity's handle in this connection's view, on its whole entries. */
const h = { h: z.int().min(0).optional() };
const entity = z.union([
  z.strictObject({
    ...h,
    id,
    kind: z.literal("player"),
    x: int,
    z: int,
    name: z.string(),
    health: int,
    maxHealth: int,
    combatLevel: int,
    running: z.boolean(),
    worn: z.partialRecord(z.enum(WORN_SLOTS), id).optional(),
  }),
  z.strictObject({ ...h, id, kind: z.literal("npc"), x: int, z: int, ref: id, name: z.string(), health: int, maxHealth: int, level: int, dead: z.boolean() }),
  z.strictObject({ ...h, id, kind: z.literal("item"), x: int, z: int, ref: id, quantity: z.int().min(1) }),
  z.strictObject({ ...h, id, kind: z.literal("resource"), x: int, z: int, ref: id, depleted: z.boolean() }),
  // A door's `open`: whether it stands open now (world-objects.json; any player may open or shut it).
  z.strictObject({ ...h, id, kind: z.literal("object"), x: int, z: int, ref: id, open: z.boolean().optional() }),
  z.strictObject({ id, kind: z.enum(["player", "npc", "item", "resource", "object"]), x: int, z: int }),
]);

const goal = z.strictObject({
  id,
  type: z.string(),
  description: z.string(),
  target: z.string().optional(),
  progress: z.number().min(0).max(100),
  startedAt: z.string(),
  lockedBy: z.enum(["manual", "autonomous"]),
});

/** Each server event: what it is for, and its payload. */
export const SERVER_EVENTS = {
  welcome: {
    doc: "after a login, on either transport: who you are, the world you are in, the tick number and its length (ms) for interpolating movement",
    schema: z.strictObject({
      playerId: id,
      characterId: id,
      accountId: id,
      name: z.string(),
      anonymous: z.boolean(),
      token: z.string().optional(),
      world: z.int().min(1).optional(),
      tick: int,
      tickMs: z.int().min(1),
    }),
  },
  "player:sync": {
    doc: "the whole private state of your player: on join and whenever it changes (at most once a tick)",
    schema: z.strictObject({
      id,
      name: z.string(),
      position,
      health: int,
      maxHealth: int,
      combatLevel: int,
      coins: z.int().min(0),
      combatStyle: z.enum(COMBAT_STYLES),
      autocast: id.nullable(),
      runEnergy: z.int().min(0).max(100),
      runMode: z.boolean(),
      autoRetaliate: z.boolean(),
      prayerPoints: z.int().min(0),
      activePrayers: z.array(id),
      skills: z.record(z.string(), z.strictObject({ level: int, xp: z.number() })),
      inventory: z.array(z.strictObject({ slot: int, itemId: id, quantity: z.int().min(1) })),
      equipment: z.record(z.string(), stack),
      bank: z.array(stack),
      inTrade: z.boolean(),
    }),
  },
  "spectate:started": {
    doc: "`/ws?spectate=<characterId>` only (a read-only spectator, the owner's or an admin's): the character followed, its world, the tick and its length; then the character's own `world:update` view each tick",
    schema: z.strictObject({ characterId: id, name: z.string(), world: z.int().min(1), tick: int, tickMs: z.int().min(1) }),
  },
  "spectate:ended": {
    doc: "the spectated character left the world (`offline`); the spectator's socket closes (1000)",
    schema: z.strictObject({ characterId: id, reason: z.enum(["offline"]) }),
  },
  "world:update": {
    doc: "`/ws` only, each tick something in view changed: entities (merge by id) and ids that left the view; with `/ws?updates=compact`, whole entries carry a handle `h` and moves come as `moved: [h, x, z, …]`",
    schema: z.strictObject({ tick: int, entities: z.array(entity), moved: z.array(int).optional(), removed: z.array(id) }),
  },
  "chat:message": {
    doc: "a player's message to everyone within 16 tiles (`local`), or the game's line to you (`system`, from `System`): what you gathered (\"You get some logs.\"), a kill that was yours (\"You have defeated the Goblin.\"), a fire that lit or would not light, food cooked or burnt, food eaten, bones buried, an admin code's answer, a moderation command's result",
    schema: z.strictObject({ id, fromId: id, fromName: z.string(), message: z.string(), timestamp: z.number(), channel: z.enum(["local", "system"]) }),
  },
  "combat:hit": {
    doc: "a hit, to everyone in view of its target: `damage` in lifepoints (0: a miss), `style` how it was dealt (`melee`, `ranged`, `magic`: a spell, hit or splash; `typeless`: no attack, e.g. a fall from an agility obstacle)",
    schema: z.strictObject({ attackerId: id, targetId: id, damage: z.int().min(0), style: z.enum(HIT_STYLES), targetHealth: int, targetMaxHealth: int }),
  },
  "skill:xp": {
    doc: "experience gained in a skill: `xp` the skill's whole xp (rounded down) and `gained` how far it moved; `xpExact` and `gainedExact` the same as kept, in tenths (17.5)",
    schema: z.strictObject({
      skill: z.string(),
      xp: z.number(),
      gained: z.number(),
      xpExact: z.number(),
      gainedExact: z.number(),
      level: int,
      levelUp: z.boolean(),
    }),
  },
  "skill:recipes": {
    doc: "the answer to `skill:getRecipes` (or `interact` on a production station): the recipes of that station type (`station`, null: all), each with its requirements, whether you could make it here and now (`makeable`) and if not why (`refusal`: the code and message `skill:make` would get)",
    schema: z.strictObject({ station: id.nullable(), recipes: z.array(recipeView) }),
  },
  "skill:makeProgress": {
    doc: "one make of a `skill:make` loop done: `made` so far, `remaining` (null: `all`), what it gave (`itemId` and `quantity`, 0 when smelting failed or the fire did not give food)",
    schema: z.strictObject({ recipeId: id, made: z.int().min(0), remaining: z.int().min(0).nullable(), itemId: id.nullable(), quantity: z.int().min(0) }),
  },
  "skill:makeStopped": {
    doc: "a `skill:make` loop ended (`reason`, see MAKE_STOP_REASONS), after `made` makes; a refusal that ended it comes with its `code` and `message`",
    schema: z.strictObject({
      recipeId: id,
      made: z.int().min(0),
      reason: z.enum(MAKE_STOP_REASONS),
      code: z.string().optional(),
      message: z.string().optional(),
    }),
  },
  "interface:open": {
    doc: "a banker's or bank booth's bank (`npcId`: the banker or the booth) or a keeper's store, after talking to them",
    schema: z.discriminatedUnion("type", [
      z.strictObject({ type: z.literal("bank"), npcId: id, bank: z.array(stack) }),
      z.strictObject({ type: z.literal("store"), npcId: id, storeId: id, name: z.string(), ...storeView }),
    ]),
  },
  "store:update": {
    doc: "the open store's prices, stock or offers changed (a purchase or sale by anyone, stock drifting back, your inventory): its whole view again, as in `interface:open`",
    schema: z.strictObject({ storeId: id, ...storeView }),
  },
  "player:death": {
    doc: "you died (where, by whom) and where you respawned",
    schema: z.strictObject({ killedBy: z.string().nullable(), position: tile, respawn: position }),
  },
  error: {
    doc: "a refusal or a failure: `code`, a message (a refusal of the game's is a sentence: \"You can't light a fire here.\"), the event it answers, and for MUTED, BANNED and HOP_COOLDOWN when it ends (`until`, ISO time; null: a permanent ban), for RESTARTING when the restart happens",
    schema: z.strictObject({ code: z.string().min(1), message: z.string(), event: z.string().optional(), until: z.string().nullable().optional() }),
  },
  tradeIncoming: { doc: "someone asks you to trade", schema: z.strictObject({ tradeId: id, fromPlayerId: id, fromPlayerName: z.string() }) },
  tradeStarted: { doc: "a trade opened, to both players", schema: z.strictObject({ tradeId: id, partnerId: id, partnerName: z.string() }) },
  tradeUpdated: { doc: "the offer screen changed: both offers from your side", schema: z.strictObject(offers) },
  tradeConfirmScreen: {
    doc: "both accepted the offers: the confirmation screen, with the offers' values",
    schema: z.strictObject({ ...offers, values: z.strictObject({ myOfferValue: int, theirOfferValue: int, net: int }) }),
  },
  tradeCompleted: {
    doc: "the swap is stored: what you received (items and coins)",
    schema: z.strictObject({ tradeId: id, receivedItems: z.array(stack), receivedCoins: z.int().min(0) }),
  },
  tradeCancelled: { doc: "the trade (or request) ended without a swap, and why", schema: z.strictObject({ tradeId: id, reason: z.enum(CANCEL_REASONS) }) },
  tradeError: { doc: "a trade command was refused", schema: z.strictObject({ tradeId: id.optional(), code: z.string().min(1), message: z.string() }) },
  "agent:goal": {
    doc: "an agent's goal state, with the goals it may choose now (agents' connections; their targets as docs/agents.md lists them: a `shopping` goal's the missing tools, runes, weapons, armour, making supplies, staves and food placed stores sell): at login right after `welcome` and `player:sync`, on every change, and in answer to `agent:getGoal`",
    schema: z.strictObject({
      agentId: id,
      goal: goal.nullable(),
      goalsPaused: z.boolean(),
      availableGoals: z.array(z.strictObject({ type: z.string(), description: z.string(), targets: z.array(z.string()) })),
    }),
  },
  "agent:message": {
    doc: "a message from the agent's owner (agents' connections)",
    schema: z.strictObject({ id, agentId: id, from: z.enum(["agent", "owner"]), message: z.string(), timestamp: z.number() }),
  },
  "social:list": {
    doc: "your friends (with online status and world), friend requests received and sent, and ignore list: in answer to `social:getList`, and after every change to them (`change` says what and whose)",
    schema: z.strictObject({
      friends: z.array(friend),
      incoming: z.array(z.strictObject(account)),
      outgoing: z.array(z.strictObject(account)),
      ignored: z.array(z.strictObject(account)),
      change: z.strictObject({ kind: z.enum(SOCIAL_CHANGES), ...account }).optional(),
    }),
  },
  "social:status": { doc: "a friend logged in, logged out or changed worlds", schema: friend },
  "social:message": {
    doc: "a private message from a friend",
    schema: z.strictObject({ id, from: z.string().min(1), message: z.string(), timestamp: z.number() }),
  },
  "social:messageSent": {
    doc: "your private message was delivered (once, in the order sent)",
    schema: z.strictObject({ id, to: z.string().min(1), message: z.string(), timestamp: z.number() }),
  },
  // Dialogue and quests (questEvents.ts).
  ...QUEST_SERVER_EVENTS,
} as const;

export type ServerEventName = keyof typeof SERVER_EVENTS;
/** The payload of a server event. */
export type ServerEvent<K extends ServerEventName> = z.infer<(typeof SERVER_EVENTS)[K]["schema"]>;
/** Every server event's payload by its name: what the rooms' clients are sent (rooms/sdkTypes.ts), so the SDK's `room.onMessage` is typed by it. */
export type ServerMessages = { [K in ServerEventName]: ServerEvent<K> };
/** A received server event as a `(type, data)` pair: a switch on `type` narrows `data` (the agent runtime's `onEvent`). */
export type ServerEventArgs = { [K in ServerEventName]: [type: K, data: ServerEvent<K>] }[ServerEventName];

/**
 * A `chat:message` of the game's own (channel `system`): from `System`, or from another name the
 * line goes out under (an admin's `Broadcast`). Every system line is built here.
 */
export function systemLine(id: string, message: string, timestamp: number, fromName = "System"): ServerEvent<"chat:message"> {
  return { id, fromId: "system", fromName, message, timestamp, channel: "system" };
}

/** Checks a received event against the table: undefined when it fits, else what is wrong. */
export function checkServerEvent(type: string, data: unknown): string | undefined {
  const def = (SERVER_EVENTS as Record<string, { schema: z.ZodType }>)[type];
  if (def === undefined) return `"${type}" is not a server event`;
  const r = def.schema.safeParse(data);
  if (r.success) return undefined;
  const issue = r.error.issues[0]!;
  return `${type} ${issue.path.join(".") || "data"}: ${issue.message}`;
}

/** The fields of a payload schema, `?` marking optional ones (variants of a union joined by "or"). */
function fields(schema: z.ZodType): string {
  if (schema instanceof z.ZodObject) {
    return Object.entries(schema.shape as Record<string, z.ZodType>)
      .map(([k, v]) => (v.safeParse(undefined).success ? `${k}?` : k))
      .join(", ");
  }
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).map((o) => `{${fields(o)}}`).join(" or ");
  return "";
}

/** docs/protocol.md's list of server events, from the table (`npm run docs:events`). */
export function serverEventsMarkdown(): string {
  const rows = Object.entries(SERVER_EVENTS).map(([name, def]) => `| \`${name}\` | ${fields(def.schema)} | ${def.doc} |`);
  return ["| event | fields | when |", "|---|---|---|", ...rows].join("\n");
}
