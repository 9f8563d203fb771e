/**
 * Using items: `inventory:use {slot, targetSlot?, targetId?}` and `equipment:remove {slot}`.
 * - alone: eat (food heals; bites 3 ticks apart, each adding 3 ticks to the attack timer), bury
 *   (bones give prayer xp; at most one a tick), equip (level requirements checked; the
 *   item it replaces goes back to the inventory slot);
 * - on another item: tinderbox and logs light a fire under the player, who then steps off it at
 *   once, west if it can (else east, south, north), as the genre's does;
 * - on an object: raw food on a fire or range starts cooking.
 * The item is always taken first, then its effect applies (never an effect without the removal).
 */
import { EQUIPMENT_SLOTS } from "./clientEvents.ts";
import { fitCombatStyle, weapon } from "./combat.ts";
import { fitAutocast } from "./magic.ts";
import { MAX_STACK, transact } from "./inventory.ts";
import { addXp, levelOf, toSkill } from "./progression.ts";
import { FIRE_TARGET, questItemMade } from "./quests.ts";
import { lampXp, rubLamp } from "./dialogue.ts";
import { invError, tradeLock, within } from "./rules.ts";
import { LIFEPOINTS_PER_HITPOINT } from "./world/entities.ts";
import type { Player } from "./world/Player.ts";
import type { HandlerResult, World } from "./world/World.ts";
import { skillTitle } from "./skills.ts";
import { burnChance } from "./cookingBurn.ts";

/** Ticks between bites (RuneScape: 3 ticks, 1.8 s). */
export const EAT_DELAY_TICKS = 3;
/**
 * Ticks a bite adds to the attack timer (OSRS wiki "Food": eating most food adds 3 ticks to the
 * player's attack delay, so eating mid-fight costs the next attack that much).
 */
export const EAT_ATTACK_DELAY_TICKS = 3;
/** At most one bone is buried a tick (the rest of a tick's burials are refused, TOO_SOON). */
export const BURY_DELAY_TICKS = 1;
/** A lit fire burns for a minute. */
export const FIRE_TICKS = 100;

function successChance(level: number, required: number): number {
  // 40% at the required level, +5 points per level above it, at most 100%.
  return Math.min(1, 0.4 + (level - required) * 0.05);
}

export function useItem(world: World, player: Player, data: { slot: number; targetSlot?: number | undefined; targetId?: string | undefined }): HandlerResult {
  const busy = tradeLock(player);
  if (busy) return busy;
  const stack = player.data.inventory[data.slot];
  if (stack === null || stack === undefined) return { code: "INVALID_SLOT", message: `slot ${data.slot} is empty` };
  const item = world.content.item(stack.itemId);
  if (item === undefined) return { code: "INVALID_ITEM", message: "unknown item" };

  if (data.targetSlot !== undefined) {
    if (data.targetSlot === data.slot) return { code: "INVALID_SLOT", message: "use an item on another slot" };
    const other = player.data.inventory[data.targetSlot];
    if (other === null || other === undefined) return { code: "INVALID_SLOT", message: `slot ${data.targetSlot} is empty` };
    const logsSlot = stack.itemId === "tinderbox" ? data.targetSlot : other.itemId === "tinderbox" ? data.slot : undefined;
    if (logsSlot !== undefined) return lightFire(world, player, logsSlot);
    return { code: "NOTHING_HAPPENS", message: "nothing interesting happens" };
  }

  if (data.targetId !== undefined) {
    const recipe = world.content.recipes.cooking.find((r) => r.raw === stack.itemId);
    const target = world.objects.get(data.targetId) ?? world.stations.find((s) => s.id === data.targetId && s.type === "range");
    if (recipe === undefined || target === undefined) return { code: "NOTHING_HAPPENS", message: "nothing interesting happens" };
    if (levelOf(player, "cooking") < recipe.level) return { code: "LEVEL_TOO_LOW", message: `you need Cooking level ${recipe.level}` };
    player.action = { kind: "cook", targetId: data.targetId, itemId: stack.itemId };
    return;
  }

  if (item.healAmount !== undefined && item.healAmount > 0) return eat(world, player, data.slot, item.healAmount, item.name);
  if (item.prayerXp !== undefined && item.prayerXp > 0) {
    const xp = item.prayerXp;
    if (world.tick < player.nextBuryTick) return { code: "TOO_SOON", message: "you are already burying a bone" };
    const r = transact(player, world.content, (tx) => tx.inv.removeFromSlot(data.slot, 1));
    if (!r.ok) return invError(r.error);
    player.nextBuryTick = world.tick + BURY_DELAY_TICKS;
    world.tell(player.id, `You bury the ${item.name.toLowerCase()}.`);
    addXp(world, player, "prayer", xp);
    return;
  }
  if (item.equipSlot !== undefined) return equip(world, player, data.slot);
  const lamp = lampXp(item);
  if (lamp !== undefined) return rubLamp(world, player, item.id, lamp);
  return { code: "NOTHING_HAPPENS", message: `you can't use ${item.name} on its own` };
}

function eat(world: World, player: Player, slot: number, heal: number, name: string): HandlerResult {
  if (world.tick < player.nextEatTick) return { code: "TOO_SOON", message: "you are still eating" };
  const r = transact(player, world.content, (tx) => tx.inv.removeFromSlot(slot, 1));
  if (!r.ok) return invError(r.error);
  player.nextEatTick = world.tick + EAT_DELAY_TICKS;
  player.nextActionTick = Math.max(player.nextActionTick, world.tick) + EAT_ATTACK_DELAY_TICKS;
  const hurt = player.data.health < player.maxHealth;
  player.data.health = Math.min(player.maxHealth, player.data.health + heal * LIFEPOINTS_PER_HITPOINT);
  player.publicVersion++;
  world.tell(player.id, hurt ? `You eat the ${name.toLowerCase()}. It heals some health.` : `You eat the ${name.toLowerCase()}.`);
}

function equip(world: World, player: Player, slot: number): HandlerResult {
  const stack = player.data.inventory[slot]!;
  const item = world.content.item(stack.itemId)!;
  const where = item.equipSlot!;
  if (!(EQUIPMENT_SLOTS as readonly string[]).includes(where)) return { code: "INVALID_ITEM", message: `unknown equipment slot "${where}"` };
  for (const [name, level] of Object.entries(item.requirements?.skills ?? {})) {
    const skill = toSkill(name);
    if (skill !== undefined && levelOf(player, skill) < level)
      return { code: "LEVEL_TOO_LOW", message: `you need ${skillTitle(skill)} level ${level} to wear that` };
  }
  const worn = player.data.equipment[where];
  const weaponBefore = weapon(world, player);
  // Stackable ammunition joins a worn stack of the same item.
  if (worn !== undefined && worn.itemId === stack.itemId && item.stackable) {
    if (worn.quantity + stack.quantity > MAX_STACK) return { code: "STACK_OVERFLOW", message: "that stack would be too large" };
    const r = transact(player, world.content, (tx) => tx.inv.removeFromSlot(slot));
    if (!r.ok) return invError(r.error);
    worn.quantity += stack.quantity;
  } else {
    const taken = transact(player, world.content, (tx) => {
      const removed = tx.inv.removeFromSlot(slot);
      if (worn !== undefined) tx.inv.slots[slot] = { ...worn };
      return removed;
    });
    if (!taken.ok) return invError(taken.error);
    player.data.equipment[where] = taken.value;
  }
  if (where === "weapon") {
    fitCombatStyle(world, player, weaponBefore);
    fitAutocast(world, player);
  }
  player.publicVersion++;
}

export function unequip(world: World, player: Player, data: { slot: string }): HandlerResult {
  const busy = tradeLock(player);
  if (busy) return busy;
  const worn = player.data.equipment[data.slot];
  if (worn === undefined) return { code: "INVALID_SLOT", message: `nothing is worn in ${data.slot}` };
  const weaponBefore = weapon(world, player);
  const r = transact(player, world.content, (tx) => tx.inv.add(worn.itemId, worn.quantity));
  if (!r.ok) return invError(r.error);
  delete player.data.equipment[data.slot];
  if (data.slot === "weapon") {
    fitCombatStyle(world, player, weaponBefore);
    fitAutocast(world, player);
  }
  player.publicVersion++;
}

export function lightFire(world: World, player: Player, logsSlot: number): HandlerResult {
  const logs = player.data.inventory[logsSlot]!;
  const recipe = world.content.recipes.firemaking.find((r) => r.log === logs.itemId);
  if (recipe === undefined) return { code: "NOTHING_HAPPENS", message: "that will not burn" };
  if (levelOf(player, "firemaking") < recipe.level) return { code: "LEVEL_TOO_LOW", message: `you need Firemaking level ${recipe.level}` };
  if (world.tick < player.nextActionTick) return { code: "TOO_SOON", message: "you are busy" };
  // Standing on a fire (a fire lit where you could not step off it): step off it first, to the
  // first free side (west, east, south, north).
  if (!fireFree(world, player)) {
    const side = freeSide(world, player);
    if (side === undefined) return { code: "BLOCKED", message: "you can't light a fire here" };
    world.teleport(player, side);
  }
  player.nextActionTick = world.tick + recipe.ticks;
  if (world.random() >= successChance(levelOf(player, "firemaking"), recipe.level)) {
    world.tell(player.id, "You fail to light the fire.");
    return;
  }
  const r = transact(player, world.content, (tx) => tx.inv.removeFromSlot(logsSlot, 1));
  if (!r.ok) return invError(r.error);
  const id = world.newId("fire");
  world.objects.set(id, { id, type: "fire", x: player.x, z: player.z, expiresAtTick: world.tick + FIRE_TICKS, version: 0, mark: 0 });
  world.tell(player.id, "The fire catches and the logs begin to burn.");
  // The genre's player steps off a fire just lit at once, west if it can (else east, south,
  // north), so the fire is seen; the step is walked in this tick's movement phase.
  const side = freeSide(world, player);
  if (side !== undefined) {
    player.moveTarget = undefined;
    player.path = [side];
    player.running = false;
  }
  addXp(world, player, "firemaking", recipe.xp);
  questItemMade(world, player, FIRE_TARGET);
}

/** Where a player steps to from a fire before lighting another: west first, as the genre does. */
const STEP_OFF = [
  [-1, 0],
  [1, 0],
  [0, 1],
  [0, -1],
] as const;

/** The first side of the player's tile (STEP_OFF's order) it can step to that has no fire or station. */
function freeSide(world: World, player: Player): { x: number; z: number } | undefined {
  return STEP_OFF.map(([dx, dz]) => ({ x: player.x + dx, z: player.z + dz })).find(
    (t) => world.collision.canStep(player.x, player.z, t.x - player.x, t.z - player.z) && fireFree(world, t),
  );
}

/** No fire, other object or station on the tile. */
function fireFree(world: World, at: { x: number; z: number }): boolean {
  for (const o of world.objects.values()) if (o.x === at.x && o.z === at.z) return false;
  return !world.stations.some((s) => s.x === at.x && s.z === at.z);
}

/** One cooking step of a `cook` action (called when the player stands next to the heat). */
export function cookOnce(world: World, player: Player, targetId: string, rawItemId: string): boolean {
  const recipe = world.content.recipes.cooking.find((r) => r.raw === rawItemId);
  const fire = world.objects.get(targetId);
  const range = world.stations.find((s) => s.id === targetId);
  if (recipe === undefined || (fire === undefined && range === undefined)) return false;
  if (!within(player, fire ?? range!, 1)) return false;
  const slot = player.data.inventory.findIndex((s) => s?.itemId === rawItemId);
  if (slot < 0) return false;
  const level = levelOf(player, "cooking");
  // Burn chance falls linearly from 60% at the recipe's level to 0 at its stop-burn level (cookingBurn.ts).
  const burnt = recipe.burnt !== undefined && world.random() < burnChance(recipe, level, range !== undefined ? "range" : "fire");
  const r = transact(player, world.content, (tx) => {
    tx.inv.removeFromSlot(slot, 1);
    tx.inv.add(burnt ? recipe.burnt! : recipe.cooked, 1);
  });
  if (!r.ok) return false;
  const food = (world.content.item(recipe.cooked)?.name ?? recipe.cooked).toLowerCase();
  world.tell(player.id, burnt ? `You accidentally burn the ${food}.` : `You cook the ${food}.`);
  if (!burnt) {
    addXp(world, player, "cooking", recipe.xp);
    questItemMade(world, player, recipe.cooked);
  }
  player.nextActionTick = world.tick + recipe.ticks;
  return true;
}
