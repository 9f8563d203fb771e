/**
 * `player:action {action, targetId?, slot?}` and the action phase of the tick (phase 3).
 *
 * Targeted actions (attack, gather, pickup, interact, cook) set the player's current action
 * (interact on a resource node is gather); each tick the player walks toward the target (paths
 * limited to 200 tiles) and, once in reach, acts: pickups on the item's tile, gathering/cooking/
 * next to the target, melee orthogonally next to it (never diagonally, as in RuneScape: a player
 * diagonal to its target, or under it, first steps to a side of it), ranged within the weapon's
 * range and in line of sight (map/lineOfSight.ts; without it the player walks closer), banks and
 * stores within 2 tiles, altars (interact: prayer points recharged, prayer.ts) next to them. A new move or action replaces the old one.
 */
import { attackRange, playerAttacksNpc } from "./combat.ts";
import { cookOnce, useItem } from "./items.ts";
import { autocastSpell, beginCast, castOnNpc, MAGIC_RANGE, spellOf } from "./magic.ts";
import { canGather, gatherOnce, gatherStartLine } from "./gathering.ts";
import { dropAll, dropSlot, takeGroundItem, visibleTo } from "./groundItems.ts";
import { chebyshev, type Tile } from "./map/CollisionMap.ts";
import { hasLineOfSight } from "./map/lineOfSight.ts";
import { MAX_PATH_LENGTH } from "./map/pathfinding.ts";
import { SERVICE_RANGE, tradeLock } from "./rules.ts";
import { isProductionStation, noticeMakeEnded, sendRecipes, stepMake } from "./production.ts";
import { STATION_REACH } from "./productionRules.ts";
import { talkTo } from "./dialogue.ts";
import { openBank, openKeepersStore } from "./services.ts";
import { prayAtAltar } from "./prayer.ts";
import { singleCombatRefusal } from "./singleCombat.ts";
import { placeRefusal, placeTarget, usePlace } from "./places/interact.ts";
import type { Action, Player } from "./world/Player.ts";
import type { GameError, HandlerResult, World } from "./world/World.ts";

import type { ActionName } from "./clientEvents.ts";

export interface ActionInput {
  action: ActionName;
  targetId?: string | undefined;
  slot?: number | undefined;
  spellId?: string | undefined;
}

interface Target {
  x: number;
  z: number;
  /** How close the player must be to act. */
  reach: number;
  /** An attack: melee (reach 1) only from an orthogonal neighbour, farther only in line of sight. */
  attack?: boolean;
}

function targetOf(world: World, player: Player, action: Action): Target | GameError {
  switch (action.kind) {
    case "pickup": {
      const item = world.groundItems.get(action.targetId);
      if (item === undefined || !visibleTo(world, item, player.id)) return { code: "ITEM_GONE", message: "that item is gone" };
      return { x: item.x, z: item.z, reach: 0 };
    }
    case "gather": {
      const res = world.resources.get(action.targetId);
      if (res === undefined) return { code: "INVALID_TARGET", message: "no such resource" };
      return { x: res.x, z: res.z, reach: 1 };
    }
    case "attack": {
      const npc = world.npcs.get(action.targetId);
      if (npc === undefined || npc.deadUntil !== 0) return { code: "INVALID_TARGET", message: "that target is gone" };
      return { x: npc.x, z: npc.z, reach: autocastSpell(world, player) !== undefined ? MAGIC_RANGE : attackRange(world, player), attack: true };
    }
    case "cast": {
      const npc = world.npcs.get(action.targetId);
      if (npc === undefined || npc.deadUntil !== 0) return { code: "INVALID_TARGET", message: "that target is gone" };
      return { x: npc.x, z: npc.z, reach: MAGIC_RANGE, attack: true };
    }
    case "interact": {
      const place = placeTarget(world, action.targetId);
      if (place !== undefined) return place;
      const booth = bankBooth(world, action.targetId);
      if (booth !== undefined) return { x: booth.x, z: booth.z, reach: SERVICE_RANGE };
      const npc = world.npcs.get(action.targetId);
      const altar = npc === undefined ? world.stations.find((s) => s.id === action.targetId && s.type === "altar") : undefined;
      if (altar !== undefined) return { x: altar.x, z: altar.z, reach: 1 };
      const station = npc === undefined ? productionStation(world, action.targetId) : undefined;
      if (station !== undefined) return { x: station.x, z: station.z, reach: STATION_REACH };
      if (npc === undefined || npc.deadUntil !== 0) return { code: "INVALID_TARGET", message: "no one to talk to" };
      return { x: npc.x, z: npc.z, reach: npc.service?.type === "bank" || npc.service?.storeId !== undefined ? SERVICE_RANGE : 1 };
    }
    case "talk": {
      const npc = world.npcs.get(action.targetId);
      if (npc === undefined || npc.deadUntil !== 0) return { code: "INVALID_TARGET", message: "no one to talk to" };
      // Bankers and keepers talk across their counters, as they serve.
      return { x: npc.x, z: npc.z, reach: npc.service?.type === "bank" || npc.service?.storeId !== undefined ? SERVICE_RANGE : 1 };
    }
    case "cook": {
      const heat = world.objects.get(action.targetId) ?? world.stations.find((s) => s.id === action.targetId);
      if (heat === undefined) return { code: "INVALID_TARGET", message: "the fire went out" };
      return { x: heat.x, z: heat.z, reach: 1 };
    }
    case "make":
      // Made where the player stands (the station's reach is checked by each make).
      return { x: player.x, z: player.z, reach: 0 };
  }
}

/** A placed station that recipes use (furnace, anvil, tanner, a rune altar): `interact` on it lists its recipes. */
function productionStation(world: World, id: string): { x: number; z: number } | undefined {
  const s = world.stations.find((st) => st.id === id);
  return s !== undefined && isProductionStation(world, s.type) ? s : undefined;
}

/**
 * Walks toward the target; true once in reach. Errors end the action. A new path is searched only
 * when the current one does not end in reach, within the tick's search budget (past it, the
 * player keeps walking and searches next tick).
 */
function approach(world: World, player: Player, target: Target): boolean | GameError {
  if (inReach(world, player, target)) {
    player.path = [];
    return true;
  }
  const last = player.path.at(-1);
  const melee = target.attack === true && target.reach <= 1;
  if (last === undefined || (melee ? !orthogonallyNext(last, target) : chebyshev(last, target) > target.reach)) {
    const goal = melee ? meleeTile(world, player, target) : target;
    if (goal === undefined) return { code: "NO_PATH", message: "you can't reach that" };
    const r = world.searchPath(player, goal, MAX_PATH_LENGTH);
    if (r === undefined) return false;
    if (!r.ok)
      return r.reason === "TOO_FAR" ? { code: "TOO_FAR", message: "that is more than 200 tiles away" } : { code: "NO_PATH", message: "you can't reach that" };
    if (r.path.length === 0 || chebyshev(r.path.at(-1)!, target) > Math.max(target.reach, 1) || (melee && !orthogonallyNext(r.path.at(-1)!, target))) {
      return { code: "NO_PATH", message: "you can't reach that" };
    }
    player.path = r.path;
    player.running = r.path.length > 0 && world.runEnergy.canRun(world, player, player.runMode);
  }
  return false;
}

/** Two tiles side by side (not diagonal, not the same). */
export function orthogonallyNext(a: Tile, b: Tile): boolean {
  return Math.abs(a.x - b.x) + Math.abs(a.z - b.z) === 1;
}

/** Whether the player can act on the target from where it stands. */
function inReach(world: World, player: Player, target: Target): boolean {
  if (target.attack !== true) return chebyshev(player, target) <= target.reach;
  if (target.reach <= 1) return orthogonallyNext(player, target);
  return chebyshev(player, target) <= target.reach && hasLineOfSight(world.collision, player, target);
}

/**
 * The side of the target a melee attacker walks to: of its walkable orthogonal neighbours that
 * the attacker can reach (the same region of the map), the nearest (then the closest in a
 * straight line).
 */
function meleeTile(world: World, player: Player, target: Tile): Tile | undefined {
  const region = world.collision.regionOf(player.x, player.z);
  let best: Tile | undefined;
  let bestKey = Infinity;
  for (const [dx, dz] of [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ] as const) {
    const t = { x: target.x + dx, z: target.z + dz };
    if (!world.collision.isWalkable(t.x, t.z) || world.collision.regionOf(t.x, t.z) !== region) continue;
    const key = chebyshev(player, t) * 1_000_000 + (t.x - player.x) ** 2 + (t.z - player.z) ** 2;
    if (key < bestKey) {
      bestKey = key;
      best = t;
    }
  }
  return best;
}

/** A bank booth (a station of type `bank`) by its id: `interact` on it opens the bank, as a banker's does. */
function bankBooth(world: World, id: string): { x: number; z: number } | undefined {
  return world.stations.find((s) => s.id === id && s.type === "bank");
}

/** `interact` on a banker or booth opens the bank, on a keeper the store (services.ts); anyone else is talked to (dialogue.ts). */
function openInterface(world: World, player: Player, npcId: string): void {
  const npc = world.npcs.get(npcId);
  if (npc === undefined || npc.service?.type === "bank") {
    openBank(world, player, npcId);
    return;
  }
  if (!openKeepersStore(world, player, npcId)) talkTo(world, player, npc);
}

/** The `player:action` handler: immediate actions run now, targeted ones become the current action. */
export function handleAction(world: World, player: Player, data: ActionInput): HandlerResult {
  const needTarget = (): GameError | undefined =>
    data.targetId === undefined ? { code: "INVALID_PAYLOAD", message: `${data.action} needs a targetId` } : undefined;
  const needSlot = (): GameError | undefined => (data.slot === undefined ? { code: "INVALID_PAYLOAD", message: `${data.action} needs a slot` } : undefined);
  switch (data.action) {
    case "stop":
      player.action = undefined;
      player.moveTarget = undefined;
      player.path = [];
      player.running = false;
      return;
    case "drop":
      return needSlot() ?? dropSlot(world, player, data.slot!);
    case "dropAll":
      return dropAll(world, player, data.targetId);
    case "light": {
      const missing = needSlot();
      if (missing) return missing;
      const tinderbox = player.data.inventory.findIndex((s) => s?.itemId === "tinderbox");
      if (tinderbox < 0) return { code: "NO_TOOL", message: "you need a tinderbox" };
      // Lighting stops a gathering under way, as any new action does in the genre: its wait for
      // the next roll is not a delay of yours ("You are busy." while fishing was the playtest's).
      if (player.action?.kind === "gather") {
        player.action = undefined;
        player.nextActionTick = Math.min(player.nextActionTick, world.tick);
      }
      return useItem(world, player, { slot: data.slot!, targetSlot: tinderbox });
    }
    case "examine": {
      const missing = needTarget();
      if (missing) return missing;
      const id = data.targetId!;
      const npc = world.npcs.get(id);
      const res = world.resources.get(id);
      const item = world.groundItems.get(id);
      const text =
        npc?.def.description ??
        res?.node.examine ??
        (item ? world.content.item(item.itemId)?.examine : undefined) ??
        world.content.item(id)?.examine ??
        world.places.get(id)?.def.examine;
      if (text === undefined) return { code: "INVALID_TARGET", message: "nothing to examine" };
      world.tell(player.id, text);
      return;
    }
    case "cast":
      return beginCast(world, player, data);
    case "cook": {
      const missing = needTarget() ?? needSlot();
      if (missing) return missing;
      return useItem(world, player, { slot: data.slot!, targetId: data.targetId! });
    }
    case "attack":
    case "gather":
    case "pickup":
    case "interact":
    case "talk": {
      const missing = needTarget();
      if (missing) return missing;
      // Interacting with a resource node (a tree, rock or fishing spot) is gathering from it: a
      // client's one "use" command works on everything it can act on.
      const kind = data.action === "interact" && !world.npcs.has(data.targetId!) && world.resources.has(data.targetId!) ? "gather" : data.action;
      if (kind !== "interact" && kind !== "talk") {
        const busy = tradeLock(player);
        if (busy) return busy;
      }
      const action = { kind, targetId: data.targetId! } as Action;
      const target = targetOf(world, player, action);
      if ("code" in target) return target;
      if (action.kind === "gather") {
        const blocked = canGather(world, player, world.resources.get(action.targetId)!);
        if (blocked) return blocked;
      }
      if (action.kind === "interact") {
        const refused = placeRefusal(world, player, action.targetId);
        if (refused) return refused;
      }
      if (action.kind === "attack") {
        const npc = world.npcs.get(action.targetId)!;
        if (npc.def.combat?.attackable !== true) return { code: "NOT_ATTACKABLE", message: "you can't attack that" };
        const taken = singleCombatRefusal(world, player, npc);
        if (taken) return taken;
      }
      player.action = action;
      player.moveTarget = undefined;
      return;
    }
  }
}

/** Phase 3: every player's current action advances one tick. */
export function processActions(world: World): void {
  // One player's fault stops that player's action only (World.contain).
  for (const player of world.players.values()) {
    // A make loop taken away since the last tick (a walk, another action, combat) is announced.
    if (player.making !== undefined && player.action !== player.making) noticeMakeEnded(world, player);
    if (player.action !== undefined) world.contain("actions", player, act);
  }
}

/** One player's current action advances one tick. */
function act(world: World, player: Player): void {
  const action = player.action;
  if (action === undefined) return;
  if (player.inTrade) {
    player.action = undefined;
    return;
  }
  const end = (error?: GameError) => {
    player.action = undefined;
    if (error) world.sendError(player.id, error.code, error.message, "player:action");
  };
  const target = targetOf(world, player, action);
  if ("code" in target) {
    end(action.kind === "pickup" ? target : undefined);
    return;
  }
  const there = approach(world, player, target);
  if (there !== true) {
    if (there !== false) end(there);
    return;
  }
  switch (action.kind) {
    case "pickup":
      end(takeGroundItem(world, player, action.targetId) ?? undefined);
      break;
    case "interact":
      // A place (a door, a ladder, an obstacle: places/interact.ts) does its thing; an NPC or a
      // bank booth opens its service, a production station (furnace, anvil, tanner, rune altar)
      // lists its recipes; a prayer altar (the last station interact reaches, see targetOf)
      // recharges prayer.
      if (world.places.get(action.targetId) !== undefined) {
        end(usePlace(world, player, action.targetId));
        break;
      }
      if (world.npcs.has(action.targetId) || bankBooth(world, action.targetId) !== undefined) openInterface(world, player, action.targetId);
      else if (productionStation(world, action.targetId) !== undefined) sendRecipes(world, player, { station: action.targetId });
      else prayAtAltar(world, player);
      end();
      break;
    case "talk": {
      const npc = world.npcs.get(action.targetId)!;
      end();
      talkTo(world, player, npc);
      break;
    }
    case "gather": {
      const res = world.resources.get(action.targetId)!;
      if (action.started !== true && canGather(world, player, res) === undefined) {
        // In reach: said at once, as the genre does, not only with the first catch.
        action.started = true;
        world.tell(player.id, gatherStartLine(res.node));
      }
      const r = gatherOnce(world, player, res);
      if (r === "done") end();
      else if (r !== undefined) end(r);
      break;
    }
    case "attack":
      if (world.tick >= player.nextActionTick) {
        // With a staff and an autocast spell, attacks cast it (magic.ts).
        const spell = autocastSpell(world, player);
        const npc = world.npcs.get(action.targetId)!;
        const err = spell !== undefined ? castOnNpc(world, player, npc, spell) : playerAttacksNpc(world, player, npc);
        if (err) end(err);
      }
      break;
    case "cast":
      // One cast, then the player stands (as a spell cast from the spellbook).
      if (world.tick >= player.nextActionTick) end(castOnNpc(world, player, world.npcs.get(action.targetId)!, spellOf(world, action.spellId)!));
      break;
    case "make":
      stepMake(world, player, action);
      break;
    case "cook": {
      if (world.tick < player.nextActionTick) break;
      if (!cookOnce(world, player, action.targetId, action.itemId)) {
        end();
        break;
      }
      if (!player.data.inventory.some((s) => s?.itemId === action.itemId)) end();
      break;
    }
  }
}
