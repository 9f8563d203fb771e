/**
 * Woodcutting, mining and fishing at resource nodes, as Old School RuneScape plays them:
 * - The tool: woodcutting and mining take any tool of the node's family (`bronze_hatchet` or
 *   `hatchet` → any `*_hatchet`), fishing the spot's own tool (a fly fishing rod does not bait-fish).
 *   Of the tools the player carries, the best one (tools.json's lowest `priority`) whose level they
 *   have is used (tools.json's `levelRequired`, raised to tier-requirements.json's level for its
 *   tier by the registry); a better one they cannot use yet is skipped; none usable: NO_TOOL,
 *   naming the level the tool needs.
 * - The roll: every `rollTicks` of the tool (a better pickaxe rolls sooner; with a
 *   `bonusTickChance` the next roll may come after `bonusRollTicks`), else the node's
 *   `baseCycleTicks`. A yield with `catchLow`/`catchHigh` (fishing) succeeds with the OSRS wiki's
 *   "Skilling success rate", (1 + ⌊low × (99 − L)/98 + high × (L − 1)/98 + 0.5⌋) / 256, and the
 *   catchable fish roll in turn, highest level first, so lower fish keep coming at higher levels
 *   (the wiki's cascading rolls); other nodes succeed 35% at the required level, +2 points a
 *   level, at most 95%.
 * - The consumable: a node's (or yield's) `secondaryRequired` (bait, feathers) is used up per
 *   catch; without one the gathering stops (NO_BAIT).
 * A success gives the yield and its xp, and may deplete the node until it respawns.
 */
import type { ToolDef } from "../manifests/schemas/misc.ts";
import type { ResourceNode } from "../manifests/registry.ts";
import { transact } from "./inventory.ts";
import { addXp, levelOf } from "./progression.ts";
import { questStep } from "./quests.ts";
import { skillTitle, type Skill } from "./skills.ts";
import type { ResourceInstance } from "./world/entities.ts";
import type { Player } from "./world/Player.ts";
import type { GameError, World } from "./world/World.ts";

type Yield = ResourceNode["harvestYield"][number];

const spaced = (id: string) => id.replace(/_/g, " ");

/** Whether an item is a tool for a node's `toolRequired` (an id, or a family such as `pickaxe`). */
function fits(itemId: string, tool: string, skill: string): boolean {
  if (itemId === tool) return true;
  if (skill === "fishing") return false;
  const family = tool.split("_").pop()!;
  return itemId.endsWith(`_${family}`);
}

/** Whether the player carries any tool of that kind (inventory or equipment), usable or not. */
export function hasToolFor(player: Player, tool: string, skill = ""): boolean {
  const ok = (id: string) => fits(id, tool, skill);
  return player.data.inventory.some((s) => s !== null && ok(s.itemId)) || Object.values(player.data.equipment).some((s) => ok(s.itemId));
}

export interface ChosenTool {
  itemId: string;
  def: ToolDef | undefined;
}

/**
 * The best tool the player carries for a node that their level allows, or why there is none:
 * NO_TOOL naming the tool they lack, or the level the best one they carry needs.
 */
export function chooseTool(world: World, player: Player, node: ResourceNode): ChosenTool | GameError {
  const skill = node.gathering;
  const held = new Set<string>();
  for (const s of player.data.inventory) if (s !== null && fits(s.itemId, node.toolRequired, skill)) held.add(s.itemId);
  for (const s of Object.values(player.data.equipment)) if (fits(s.itemId, node.toolRequired, skill)) held.add(s.itemId);
  if (held.size === 0) return { code: "NO_TOOL", message: `you need a ${spaced(node.toolRequired)}` };
  const level = levelOf(player, skill);
  const tools = [...held]
    .map((itemId) => ({ itemId, def: world.content.tools.find((t) => t.itemId === itemId && t.skill === skill) }))
    .sort((a, b) => (a.def?.priority ?? Infinity) - (b.def?.priority ?? Infinity) || a.itemId.localeCompare(b.itemId));
  const usable = tools.find((t) => (t.def?.levelRequired ?? 1) <= level);
  if (usable !== undefined) return usable;
  const easiest = tools.reduce((a, b) => ((a.def?.levelRequired ?? 1) <= (b.def?.levelRequired ?? 1) ? a : b));
  const name = world.content.item(easiest.itemId)?.name ?? spaced(easiest.itemId);
  return { code: "NO_TOOL", message: `you need ${skillTitle(skill)} level ${easiest.def?.levelRequired ?? 1} to use a ${name.toLowerCase()}` };
}

/** Odds of one roll for a node without catch rates: 35% at the required level, +2 points per level above, at most 95%. */
export function gatherChance(level: number, required: number): number {
  return Math.min(0.95, 0.35 + (level - required) * 0.02);
}

/**
 * The OSRS wiki's "Skilling success rate": low and high out of 256 at levels 1 and 99,
 * (1 + ⌊low × (99 − level)/98 + high × (level − 1)/98 + 0.5⌋) / 256, within 0..1.
 */
export function skillingChance(low: number, high: number, level: number): number {
  const p = (1 + Math.floor((low * (99 - level)) / 98 + (high * (level - 1)) / 98 + 0.5)) / 256;
  return Math.min(1, Math.max(0, p));
}

/** The consumable a catch uses (the node's, else the yield's). */
function consumableOf(node: ResourceNode, y?: Yield): string | undefined {
  return node.secondaryRequired ?? y?.secondaryRequired;
}

function catchable(player: Player, node: ResourceNode): Yield[] {
  const level = levelOf(player, node.gathering);
  return node.harvestYield.filter((y) => (y.levelRequired ?? 1) <= level).sort((a, b) => (b.levelRequired ?? 1) - (a.levelRequired ?? 1));
}

export function canGather(world: World, player: Player, res: ResourceInstance): GameError | undefined {
  const node = res.node;
  const skill = node.gathering as Skill;
  if (res.depletedUntil !== 0) return { code: "DEPLETED", message: `the ${node.name} is depleted` };
  if (levelOf(player, skill) < node.levelRequired) return { code: "LEVEL_TOO_LOW", message: `you need ${skillTitle(skill)} level ${node.levelRequired}` };
  const tool = chooseTool(world, player, node);
  if ("code" in tool) return tool;
  const yields = catchable(player, node);
  if (yields.length === 0) return { code: "LEVEL_TOO_LOW", message: "nothing here you can catch yet" };
  const bait = node.secondaryRequired;
  if (bait !== undefined && !player.data.inventory.some((s) => s?.itemId === bait)) {
    const name = world.content.item(bait)?.name ?? spaced(bait);
    return { code: "NO_BAIT", message: `you have no ${name.toLowerCase()} left` };
  }
  const stackableOnly = yields.every((y) => world.content.item(y.itemId)?.stackable && player.data.inventory.some((s) => s?.itemId === y.itemId));
  if (!stackableOnly && !player.data.inventory.includes(null)) return { code: "INVENTORY_FULL", message: "your inventory is full" };
  return undefined;
}

/** The yield one roll gives, or undefined when the roll fails. */
function roll(world: World, player: Player, node: ResourceNode, yields: Yield[]): Yield | undefined {
  const level = levelOf(player, node.gathering);
  if (yields.some((y) => y.catchLow !== undefined && y.catchHigh !== undefined)) {
    // Cascading rolls, highest level first: each catchable fish has its own chance at this level.
    for (const y of yields) {
      const chance =
        y.catchLow !== undefined && y.catchHigh !== undefined ? skillingChance(y.catchLow, y.catchHigh, level) : gatherChance(level, y.levelRequired ?? 1);
      if (world.random() < chance) return y;
    }
    return undefined;
  }
  if (world.random() >= gatherChance(level, node.levelRequired)) return undefined;
  return yields.find((y) => world.random() < y.chance) ?? yields.at(-1)!;
}

/**
 * What the player is told on starting to gather, before the first roll (Old School RuneScape's
 * lines): "You swing your axe at the tree.", "You swing your pick at the rock.", "You cast out
 * your net." (a net), "You cast out your line." (a rod), else "You attempt to catch some fish.".
 */
export function gatherStartLine(node: ResourceNode): string {
  if (node.gathering === "woodcutting") return "You swing your axe at the tree.";
  if (node.gathering === "mining") return "You swing your pick at the rock.";
  if (node.toolRequired.endsWith("_net")) return "You cast out your net.";
  if (node.toolRequired.endsWith("_rod")) return "You cast out your line.";
  return "You attempt to catch some fish.";
}

/** One gathering roll; returns an error that ends the action, or undefined to keep going. */
export function gatherOnce(world: World, player: Player, res: ResourceInstance): GameError | "done" | undefined {
  const blocked = canGather(world, player, res);
  if (blocked) return blocked;
  if (world.tick < player.nextActionTick) return undefined;
  const node = res.node;
  const skill = node.gathering as Skill;
  const tool = chooseTool(world, player, node) as ChosenTool;
  const bonus = tool.def?.bonusTickChance !== undefined && tool.def.bonusRollTicks !== undefined && world.random() < tool.def.bonusTickChance;
  player.nextActionTick = world.tick + (bonus ? tool.def!.bonusRollTicks! : (tool.def?.rollTicks ?? node.baseCycleTicks));
  const got = roll(world, player, node, catchable(player, node));
  if (got === undefined) return undefined;
  const bait = consumableOf(node, got);
  const r = transact(player, world.content, (tx) => {
    if (bait !== undefined) tx.inv.remove(bait, 1);
    tx.inv.add(got.itemId, got.quantity);
  });
  if (!r.ok) {
    return r.error.code === "ITEM_NOT_FOUND" && bait !== undefined
      ? { code: "NO_BAIT", message: `you have no ${spaced(bait)} left` }
      : { code: r.error.code === "NOT_ENOUGH_SPACE" ? "INVENTORY_FULL" : r.error.code, message: r.error.message };
  }
  const name = world.content.item(got.itemId)?.name ?? got.itemId;
  world.tell(player.id, `You get ${got.quantity > 1 ? got.quantity : "some"} ${name.toLowerCase()}.`);
  addXp(world, player, skill, got.xpAmount);
  questStep(world, player, "gather", got.itemId, got.quantity);
  if (world.random() < node.depleteChance) {
    res.depletedUntil = world.tick + node.respawnTicks;
    res.version++;
    return "done";
  }
  return undefined;
}
