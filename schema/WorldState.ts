/**
 * The synchronized state of a world (what Colyseus clients auto-sync).
 *
 * `players` is filtered per client by its StateView: a client receives only the players within
 * its view radius (16 tiles). Fields tagged {@link TAG_OWNER} (inventory, skills, equipment,
 * bank, coins, combat style, run energy, prayer) reach the owning client only; everyone in view sees the public fields.
 *
 * Coordinates are int16: worlds must fit in ±32,767 tiles (checked at startup). Every primitive
 * has a default: schema fields without one are undefined (and encode as 0).
 */
import { schema, t, type SchemaType } from "@colyseus/schema";

/** View tag for private, owner-only fields (custom tags are powers of two). */
export const TAG_OWNER = 1;

export const ItemSlotState = schema(
  {
    slot: t.uint16().default(0),
    itemId: t.string().default(""),
    quantity: t.uint32().default(0),
  },
  "ItemSlot",
);
export type ItemSlotState = SchemaType<typeof ItemSlotState>;

export const SkillState = schema({ level: t.uint8().default(0), xp: t.uint32().default(0) }, "Skill");
export type SkillState = SchemaType<typeof SkillState>;

export const EquippedState = schema({ itemId: t.string().default(""), quantity: t.uint32().default(0) }, "Equipped");
export type EquippedState = SchemaType<typeof EquippedState>;

export const PlayerState = schema(
  {
    id: t.string().default(""),
    name: t.string().default(""),
    x: t.int16().default(0),
    z: t.int16().default(0),
    health: t.uint16().default(0),
    maxHealth: t.uint16().default(0),
    combatLevel: t.uint8().default(0),
    running: t.boolean().default(false),
    /**
     * What others see of its gear (src/game/worn.ts): the JSON of slot → item id for the slots that
     * show (weapon, shield, helmet, body, legs, cape, boots); "" when none. Public; changes only with the gear.
     */
    worn: t.string().default(""),
    coins: t.uint32().default(0).view(TAG_OWNER),
    combatStyle: t.string().default("accurate").view(TAG_OWNER),
    /** The autocast spell's id; "" for none. */
    autocast: t.string().default("").view(TAG_OWNER),
    /** Run energy, the percentage shown (0-100), and the run toggle. */
    runEnergy: t.uint8().default(100).view(TAG_OWNER),
    runMode: t.boolean().default(false).view(TAG_OWNER),
    /** Auto Retaliate (src/game/retaliate.ts): on for a new character. */
    autoRetaliate: t.boolean().default(true).view(TAG_OWNER),
    prayerPoints: t.uint8().default(0).view(TAG_OWNER),
    activePrayers: t.array("string").view(TAG_OWNER),
    inventory: t.array(ItemSlotState).view(TAG_OWNER),
    skills: t.map(SkillState).view(TAG_OWNER),
    equipment: t.map(EquippedState).view(TAG_OWNER),
    bank: t.array(ItemSlotState).view(TAG_OWNER),
  },
  "Player",
);
export type PlayerState = SchemaType<typeof PlayerState>;

/** NPCs, ground items, resource nodes and objects, in one shape (`kind` says which). */
export const EntityState = schema(
  {
    id: t.string().default(""),
    kind: t.string().default(""),
    x: t.int16().default(0),
    z: t.int16().default(0),
    /** npc id, item id, resource id or object type. */
    ref: t.string().default(""),
    name: t.string().default(""),
    health: t.uint16().default(0),
    maxHealth: t.uint16().default(0),
    level: t.uint8().default(0),
    quantity: t.uint32().default(0),
    depleted: t.boolean().default(false),
    /** A door: open now (objects whose ref is `door`). */
    open: t.boolean().default(false),
  },
  "Entity",
);
export type EntityState = SchemaType<typeof EntityState>;

export const WorldState = schema(
  {
    tick: t.uint32().default(0),
    players: t.map(PlayerState).view(),
    entities: t.map(EntityState).view(),
  },
  "WorldState",
);
export type WorldState = SchemaType<typeof WorldState>;
