/**
 * `player:action {action, targetId?, slot?}` and the action phase of the tick (phase 3).
 *
 * Targeted actions (attack, gather, pickup, interact, cook) set the player's current action
 * (interact on a resource node is gather); each tick the player walks toward the target (paths
 * limited to 200 tiles) and, once in reach, acts: pickups on the item's tile, gathering/cooking/
 * melee next to the target, ranged within the weapon's range, banks and stores within 2 tiles. A
 * new move or action replaces the old one.
 */
import { attackRange, playerAttacksNpc } from "./combat.ts";
import { cookOnce, useItem } from "./items.ts";
import { canGather, gatherOnce } from "./gathering.ts";
import { dropAll, dropSlot, takeGroundItem, visibleTo } from "./groundItems.ts";
import { chebyshev } from "./map/CollisionMap.ts";
import { MAX_PATH_LENGTH } from "./map/pathfinding.ts";
import { SERVICE_RANGE, tradeLock } from "./rules.ts";
import type { Action, Player } from "./world/Player.ts";
import type { GameError, HandlerResult, World } from "./world/World.ts";

import type { ActionName } from "./clientEvents.ts";

export interface ActionInput {
  action: ActionName;
  targetId?: string | undefined;
  slot?: number | undefined;
}

interface Target {
  x: number;
  z: number;
  /** How close the player must be to act. */
  reach: number;
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
      return { x: npc.x, z: npc.z, reach: attackRange(world, player) };
    }
    case "interact": {
      const booth = bankBooth(world, action.targetId);
      if (booth !== undefined) return { x: booth.x, z: booth.z, reach: SERVICE_RANGE };
      const npc = world.npcs.get(action.targetId);
      if (npc === undefined || npc.deadUntil !== 0) return { code: "INVALID_TARGET", message: "no one to talk to" };
      return { x: npc.x, z: npc.z, reach: npc.service?.type === "bank" || npc.service?.storeId !== undefined ? SERVICE_RANGE : 1 };
    }
    case "cook": {
      const heat = world.objects.get(action.targetId) ?? world.stations.find((s) => s.id === action.targetId);
      if (heat === undefined) return { code: "INVALID_TARGET", message: "the fire went out" };
      return { x: heat.x, z: heat.z, reach: 1 };
    }
  }
}

/**
 * Walks toward the target; true once in reach. Errors end the action. A new path is searched only
 * when the current one does not end in reach, within the tick's search budget (past it, the
 * player keeps walking and searches next tick).
 */
function approach(world: World, player: Player, target: Target): boolean | GameError {
  if (chebyshev(player, target) <= target.reach) {
    player.path = [];
    return true;
  }
  const last = player.path.at(-1);
  if (last === undefined || chebyshev(last, target) > target.reach) {
    const r = world.searchPath(player, target, MAX_PATH_LENGTH);
    if (r === undefined) return false;
    if (!r.ok) return r.reason === "TOO_FAR" ? { code: "TOO_FAR", message: "that is more than 200 tiles away" } : { code: "NO_PATH", message: "you can't reach that" };
    if (r.path.length === 0 || chebyshev(r.path.at(-1)!, target) > Math.max(target.reach, 1)) {
      return { code: "NO_PATH", message: "you can't reach that" };
    }
    player.path = r.path;
  }
  return false;
}

/** A bank booth (a station of type `bank`) by its id: `interact` on it opens the bank, as a banker's does. */
function bankBooth(world: World, id: string): { x: number; z: number } | undefined {
  return world.stations.find((s) => s.id === id && s.type === "bank");
}

function openInterface(world: World, player: Player, npcId: string): void {
  const npc = world.npcs.get(npcId);
  if (npc === undefined || npc.service?.type === "bank") {
    world.send(player.id, "interface:open", { type: "bank", npcId, bank: player.data.bank.map((s) => ({ itemId: s.itemId, quantity: s.quantity })) });
    return;
  }
  const storeId = npc.service?.storeId;
  const store = storeId !== undefined ? world.content.stores.get(storeId) : undefined;
  if (store !== undefined) {
    world.send(player.id, "interface:open", { type: "store", npcId, storeId: store.id, name: store.name, items: store.items.map((i) => ({ itemId: i.itemId, price: i.price })) });
    return;
  }
  world.tell(player.id, `${npc.def.name} has nothing to say to you right now.`);
}

/** The `player:action` handler: immediate actions run now, targeted ones become the current action. */
export function handleAction(world: World, player: Player, data: ActionInput): HandlerResult {
  const needTarget = (): GameError | undefined => (data.targetId === undefined ? { code: "INVALID_PAYLOAD", message: `${data.action} needs a targetId` } : undefined);
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
      return useItem(world, player, { slot: data.slot!, targetSlot: tinderbox });
    }
    case "examine": {
      const missing = needTarget();
      if (missing) return missing;
      const id = data.targetId!;
      const npc = world.npcs.get(id);
      const res = world.resources.get(id);
      const item = world.groundItems.get(id);
      const text = npc?.def.description ?? res?.node.examine ?? (item ? world.content.item(item.itemId)?.examine : undefined) ?? world.content.item(id)?.examine;
      if (text === undefined) return { code: "INVALID_TARGET", message: "nothing to examine" };
      world.tell(player.id, text);
      return;
    }
    case "cook": {
      const missing = needTarget() ?? needSlot();
      if (missing) return missing;
      return useItem(world, player, { slot: data.slot!, targetId: data.targetId! });
    }
    case "attack":
    case "gather":
    case "pickup":
    case "interact": {
      const missing = needTarget();
      if (missing) return missing;
      // Interacting with a resource node (a tree, rock or fishing spot) is gathering from it: a
      // client's one "use" command works on everything it can act on.
      const kind = data.action === "interact" && !world.npcs.has(data.targetId!) && world.resources.has(data.targetId!) ? "gather" : data.action;
      if (kind !== "interact") {
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
      if (action.kind === "attack" && world.npcs.get(action.targetId)!.def.combat?.attackable !== true) {
        return { code: "NOT_ATTACKABLE", message: "you can't attack that" };
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
  for (const player of world.players.values()) if (player.action !== undefined) world.contain("actions", player, act);
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
      openInterface(world, player, action.targetId);
      end();
      break;
    case "gather": {
      const r = gatherOnce(world, player, world.resources.get(action.targetId)!);
      if (r === "done") end();
      else if (r !== undefined) end(r);
      break;
    }
    case "attack":
      if (world.tick >= player.nextActionTick) {
        const err = playerAttacksNpc(world, player, world.npcs.get(action.targetId)!);
        if (err) end(err);
      }
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
