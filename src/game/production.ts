/**
 * The production engine: `skill:make {recipeId, quantity}` for every recipe of the content's
 * catalogue (src/manifests/production.ts: cooking, firemaking, smelting, smithing, crafting,
 * fletching, runecrafting, tanning), and `skill:getRecipes {station?}` to list them.
 * - A make is checked at once (productionRules.ts checkMake); a refusal has a code and changes
 *   nothing. Accepted, it becomes the player's action (walking stops): one make each time the
 *   action timer allows (the recipe's `ticks` apart, the first at once unless the player is still
 *   busy), until the quantity is made (1..28, or "all": until the inputs run out), a make is
 *   refused (the inputs, the station in reach, room), or the player does something else (walks,
 *   acts, makes something else, trades, is attacked, logs out). Each make sends
 *   `skill:makeProgress`; the end sends `skill:makeStopped {reason}` (serverEvents.ts).
 * - Runecrafting takes every essence at once: one make ends the loop. Firemaking lights one fire
 *   (under the player, items.ts) and ends. Cooking cooks on the range or fire in reach, with its
 *   burn chance (items.ts cookOnce).
 * - Xp: the recipe's, per make, in tenths (progression.ts addXp); smelting's xp is Smithing's,
 *   tanning gives none.
 * - Quests: every item made counts for the `make` and `interact` stages naming it (quests.ts).
 */
import type { ProductionRecipe } from "../manifests/production.ts";
import type { MakeStopReason } from "./serverEvents.ts";
import { cookOnce, lightFire } from "./items.ts";
import { checkMake, makeOnce, stationInReach } from "./productionRules.ts";
import { addXp } from "./progression.ts";
import { questItemMade } from "./quests.ts";
import { tradeLock } from "./rules.ts";
import type { Action, Player } from "./world/Player.ts";
import type { GameError, HandlerResult, World } from "./world/World.ts";

type MakeAction = Extract<Action, { kind: "make" }>;

/** `skill:make`: checks the recipe and starts the loop. */
export function startMake(world: World, player: Player, data: { recipeId: string; quantity: number | "all" }): HandlerResult {
  const busy = tradeLock(player);
  if (busy) return busy;
  const recipe = world.content.production.get(data.recipeId);
  if (recipe === undefined) return { code: "UNKNOWN_RECIPE", message: `no recipe "${data.recipeId}"` };
  const refusal = checkMake(world, player, recipe);
  if (refusal) return refusal;
  const action: MakeAction = { kind: "make", recipeId: recipe.id, remaining: data.quantity === "all" ? null : data.quantity, made: 0 };
  player.action = action;
  player.moveTarget = undefined;
  player.path = [];
  player.running = false;
  // A loop this one replaces is announced as interrupted now, before the new one's progress.
  noticeMakeEnded(world, player);
  player.making = action;
  player.makeInterruptedBy = undefined;
}

/** The end of the player's make loop, if it is no longer its action (called each tick and when a loop replaces another). */
export function noticeMakeEnded(world: World, player: Player): void {
  const making = player.making;
  if (making === undefined || player.action === making) return;
  const reason: MakeStopReason =
    player.makeInterruptedBy ?? (player.inTrade ? "trade" : player.moveTarget !== undefined || player.path.length > 0 ? "moved" : "interrupted");
  stopped(world, player, making, reason);
}

function stopped(world: World, player: Player, action: MakeAction, reason: MakeStopReason, error?: GameError): void {
  if (player.action === action) player.action = undefined;
  player.making = undefined;
  player.makeInterruptedBy = undefined;
  world.send(player.id, "skill:makeStopped", {
    recipeId: action.recipeId,
    made: action.made,
    reason,
    ...(error !== undefined ? { code: error.code, message: error.message } : {}),
  });
}

/** The reason a refusal ends a loop with. */
function reasonOf(action: MakeAction, error: GameError): MakeStopReason {
  switch (error.code) {
    case "MISSING_INPUT":
      return action.remaining === null && action.made > 0 ? "done" : "no_materials";
    case "MISSING_TOOL":
    case "MISSING_CONSUMABLE":
    case "NOT_ENOUGH_COINS":
      return "no_materials";
    case "INVENTORY_FULL":
      return "inventory_full";
    case "NO_STATION":
      return "no_station";
    default:
      return "refused";
  }
}

/** One tick of a make loop (actions.ts, phase 3). */
export function stepMake(world: World, player: Player, action: MakeAction): void {
  if (world.tick < player.nextActionTick) return;
  const recipe = world.content.production.get(action.recipeId);
  if (recipe === undefined) {
    stopped(world, player, action, "refused", { code: "UNKNOWN_RECIPE", message: `no recipe "${action.recipeId}"` });
    return;
  }
  const result = makeStep(world, player, recipe);
  if (result === "waiting") return;
  if ("code" in result) {
    stopped(world, player, action, reasonOf(action, result), result);
    return;
  }
  action.made++;
  if (action.remaining !== null) action.remaining--;
  world.send(player.id, "skill:makeProgress", {
    recipeId: recipe.id,
    made: action.made,
    remaining: action.remaining,
    itemId: recipe.output,
    quantity: result.produced,
  });
  if (action.remaining === 0 || recipe.kind === "runecrafting" || recipe.kind === "firemaking") {
    stopped(world, player, action, "done");
    return;
  }
  // The next make's refusal ends the loop now rather than a recipe's ticks later.
  const next = checkMake(world, player, recipe);
  if (next) stopped(world, player, action, reasonOf(action, next), reasonOf(action, next) === "done" ? undefined : next);
}

/** One make of any kind: what it gave, "waiting" (a fire that failed to light: tried again), or the refusal. */
function makeStep(world: World, player: Player, recipe: ProductionRecipe): { produced: number } | "waiting" | GameError {
  if (recipe.kind === "cooking") {
    const refusal = checkMake(world, player, recipe);
    if (refusal) return refusal;
    const heat = stationInReach(world, player, recipe)!;
    const before = countItem(player, recipe.output!);
    if (!cookOnce(world, player, heat, recipe.inputs[0]!.itemId)) return { code: "MISSING_INPUT", message: "you have nothing to cook" };
    return { produced: countItem(player, recipe.output!) - before };
  }
  if (recipe.kind === "firemaking") {
    const refusal = checkMake(world, player, recipe);
    if (refusal) return refusal;
    const log = recipe.inputs[0]!.itemId;
    const before = countItem(player, log);
    const error = lightFire(
      world,
      player,
      player.data.inventory.findIndex((s) => s?.itemId === log),
    );
    if (error) return error;
    return countItem(player, log) < before ? { produced: 0 } : "waiting";
  }
  const made = makeOnce(world, player, recipe);
  if ("code" in made) return made;
  player.nextActionTick = world.tick + recipe.ticks;
  if (made.produced === 0 && recipe.kind === "smelting") world.tell(player.id, "The ore is too impure and you fail to refine it.");
  else if (recipe.output !== null) world.tell(player.id, `You make ${made.produced > 1 ? made.produced : "a"} ${recipe.name.toLowerCase()}.`);
  if (recipe.skill !== null) addXp(world, player, recipe.skill, made.xp);
  // (Cooking and fires count in items.ts, where a use on a fire also cooks.)
  if (recipe.output !== null && made.produced > 0) questItemMade(world, player, recipe.output, made.produced);
  return { produced: made.produced };
}

function countItem(player: Player, itemId: string): number {
  return player.data.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
}

/** The station type a `skill:getRecipes` names: a placed station's id, or a type itself. */
function stationType(world: World, station: string | undefined): string | null {
  if (station === undefined) return null;
  return world.stations.find((s) => s.id === station)?.type ?? station;
}

/** `skill:getRecipes {station?}`: answered with `skill:recipes`. */
export function sendRecipes(world: World, player: Player, data: { station?: string | undefined }): HandlerResult {
  const type = stationType(world, data.station);
  const recipes = [...world.content.production.values()]
    .filter((r) => type === null || r.station === type || (type === "none" && r.station === null))
    .map((r) => {
      const refusal = checkMake(world, player, r) ?? null;
      return {
        id: r.id,
        kind: r.kind,
        skill: r.skill,
        name: r.name,
        output: r.output,
        outputQuantity: r.outputQuantity,
        level: r.level,
        xp: r.xp,
        ticks: r.ticks,
        station: r.station,
        inputs: r.inputs.map((i) => ({ itemId: i.itemId, quantity: i.quantity })),
        tools: [...r.tools],
        consumables: r.consumables.map((c) => ({ itemId: c.itemId, uses: c.uses })),
        coins: r.coins,
        successRate: r.successRate,
        essence: r.essence !== undefined ? [...r.essence.types] : null,
        makeable: refusal === null,
        refusal: refusal === null ? null : { code: refusal.code, message: refusal.message },
      };
    });
  world.send(player.id, "skill:recipes", { station: type, recipes });
}

/** Whether a station type is one that recipes use (an `interact` on it lists them). */
export function isProductionStation(world: World, type: string): boolean {
  for (const r of world.content.production.values()) if (r.station === type && r.kind !== "cooking") return true;
  return false;
}
