/**
 * Woodcutting, mining and fishing at resource nodes: the tool (the node's item, or any item of
 * its family: `bronze_hatchet` → any `*_hatchet`), the level, and room in the inventory are
 * checked first. Every `baseCycleTicks` the player rolls to succeed (better odds with level); a
 * success gives the yield and its xp, and may deplete the node until it respawns.
 */
import { transact } from "./inventory.ts";
import { addXp, levelOf } from "./progression.ts";
import type { Skill } from "./skills.ts";
import type { ResourceInstance } from "./world/entities.ts";
import type { Player } from "./world/Player.ts";
import type { GameError, World } from "./world/World.ts";

export function hasToolFor(player: Player, tool: string): boolean {
  const family = tool.split("_").pop()!;
  const ok = (id: string) => id === tool || id.endsWith(`_${family}`);
  return player.data.inventory.some((s) => s !== null && ok(s.itemId)) || Object.values(player.data.equipment).some((s) => ok(s.itemId));
}

/** Odds of one roll: 35% at the required level, +2 points per level above, at most 95%. */
export function gatherChance(level: number, required: number): number {
  return Math.min(0.95, 0.35 + (level - required) * 0.02);
}

export function canGather(world: World, player: Player, res: ResourceInstance): GameError | undefined {
  const node = res.node;
  const skill = node.gathering as Skill;
  if (res.depletedUntil !== 0) return { code: "DEPLETED", message: `the ${node.name} is depleted` };
  if (levelOf(player, skill) < node.levelRequired) return { code: "LEVEL_TOO_LOW", message: `you need ${skill} level ${node.levelRequired}` };
  if (!hasToolFor(player, node.toolRequired)) return { code: "NO_TOOL", message: `you need a ${node.toolRequired.replace(/_/g, " ")}` };
  const yields = node.harvestYield.filter((y) => (y.levelRequired ?? 1) <= levelOf(player, skill));
  if (yields.length === 0) return { code: "LEVEL_TOO_LOW", message: "nothing here you can catch yet" };
  const stackableOnly = yields.every((y) => world.content.item(y.itemId)?.stackable && player.data.inventory.some((s) => s?.itemId === y.itemId));
  if (!stackableOnly && !player.data.inventory.includes(null)) return { code: "INVENTORY_FULL", message: "your inventory is full" };
  return undefined;
}

/** One gathering roll; returns an error that ends the action, or undefined to keep going. */
export function gatherOnce(world: World, player: Player, res: ResourceInstance): GameError | "done" | undefined {
  const blocked = canGather(world, player, res);
  if (blocked) return blocked;
  if (world.tick < player.nextActionTick) return undefined;
  const node = res.node;
  const skill = node.gathering as Skill;
  player.nextActionTick = world.tick + node.baseCycleTicks;
  if (world.random() >= gatherChance(levelOf(player, skill), node.levelRequired)) return undefined;
  // Of the yields the player's level allows, the best one it rolls for (fishing: highest first).
  const yields = node.harvestYield.filter((y) => (y.levelRequired ?? 1) <= levelOf(player, skill)).sort((a, b) => (b.levelRequired ?? 1) - (a.levelRequired ?? 1));
  const got = yields.find((y) => world.random() < y.chance) ?? yields.at(-1)!;
  const r = transact(player, world.content, (tx) => {
    if (got.secondaryRequired !== undefined) tx.inv.remove(got.secondaryRequired, 1);
    tx.inv.add(got.itemId, got.quantity);
  });
  if (!r.ok) {
    return r.error.code === "ITEM_NOT_FOUND" && got.secondaryRequired !== undefined
      ? { code: "NO_BAIT", message: `you need ${got.secondaryRequired.replace(/_/g, " ")}` }
      : { code: r.error.code === "NOT_ENOUGH_SPACE" ? "INVENTORY_FULL" : r.error.code, message: r.error.message };
  }
  const name = world.content.item(got.itemId)?.name ?? got.itemId;
  world.tell(player.id, `You get ${got.quantity > 1 ? got.quantity : "some"} ${name.toLowerCase()}.`);
  addXp(world, player, skill, got.xpAmount);
  if (world.random() < node.depleteChance) {
    res.depletedUntil = world.tick + node.respawnTicks;
    res.version++;
    return "done";
  }
  return undefined;
}
