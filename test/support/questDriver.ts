/**
 * A test driver that completes a quest as a player would, through the client events only: it
 * talks to the quest's NPC and picks the quest's option (a `give` stage's too, carrying its items),
 * attacks the NPCs a kill stage counts, gathers from the nodes that yield a gather stage's item,
 * lights fires from logs, makes a `make` stage's item with `skill:make` (first gathering or making
 * its inputs, next to its station), walks (or climbs a ladder) into a `reach` stage's area, uses
 * an `interact` stage's place, climbs back out of a dungeon to talk, and drops what the quest no
 * longer needs when the pack fills; it reads the world (where things are) as a player reads the
 * screen. The same driver runs on the game harness (a tick a step) and over a transport to a real
 * server (a short wait a step).
 */
import assert from "node:assert/strict";
import type { Quest } from "../../src/manifests/questContent.ts";
import { chebyshev } from "../../src/game/map/CollisionMap.ts";
import type { ProductionRecipe } from "../../src/manifests/production.ts";
import { STATION_REACH, stationInReach } from "../../src/game/productionRules.ts";
import type { Player } from "../../src/game/world/Player.ts";
import type { World } from "../../src/game/world/World.ts";
import type { GameHarness } from "./game.ts";

export interface QuestActor {
  world: World;
  /** The live player (after a restart or hop, the new one). */
  player(): Player;
  send(type: string, data: object): void;
  /** Every event received so far, in order. */
  events: { type: string; data: Record<string, unknown> }[];
  /** Lets about one tick pass. */
  step(): Promise<void>;
}

/** An actor on the game harness whose events are its own (the harness's list is emptied each step, so a long run stays fast). */
export function harnessActor(g: GameHarness, p: Player): QuestActor {
  const events: QuestActor["events"] = [];
  const take = () => {
    for (const m of g.sent) if (m.to === p.id) events.push({ type: m.type, data: m.data as Record<string, unknown> });
    g.clearSent();
  };
  return {
    world: g.world,
    player: () => p,
    send: (type, data) => g.send(p, type, data),
    events,
    step: async () => {
      g.tick();
      take();
    },
  };
}

async function until<T>(actor: QuestActor, probe: () => T | undefined, what: string, steps = 400): Promise<T> {
  for (let i = 0; i < steps; i++) {
    const v = probe();
    if (v !== undefined) return v;
    await actor.step();
  }
  throw new Error(`quest driver: timed out waiting for ${what}`);
}

/** Talks to the NPC and chooses the option whose text passes `pick`; returns the `dialogue:open` answering it. */
export async function talkAndChoose(actor: QuestActor, npcDefId: string, pick: (text: string) => boolean): Promise<Record<string, unknown>> {
  const npc = [...actor.world.npcs.values()].find((n) => n.def.id === npcDefId);
  assert.ok(npc, `an NPC ${npcDefId} is placed`);
  await climbOut(actor, npc);
  const before = actor.events.length;
  actor.send("player:action", { action: "talk", targetId: npc.id });
  const opened = await until(actor, () => actor.events.slice(before).find((e) => e.type === "dialogue:open")?.data, `${npcDefId} to talk`);
  const options = opened.options as { id: string; text: string }[];
  const option = options.find((o) => pick(o.text));
  assert.ok(option, `an option to choose among ${JSON.stringify(options.map((o) => o.text))}`);
  const mark = actor.events.length;
  actor.send("dialogue:choose", { optionId: option.id });
  return until(
    actor,
    () => actor.events.slice(mark).find((e) => e.type === "dialogue:open" || e.type === "dialogue:close" || e.type === "error")?.data,
    "the answer",
  );
}

function state(actor: QuestActor, questId: string) {
  return actor.player().data.quests?.[questId];
}

/** Completes the quest from wherever the player is in it. */
export async function completeQuest(actor: QuestActor, quest: Quest): Promise<void> {
  for (let guard = 0; guard < 200; guard++) {
    const s = state(actor, quest.id);
    if (s?.status === "completed") return;
    if (s === undefined) {
      await talkAndChoose(actor, quest.startNpc, (t) => t === `${quest.name}: I'd like to help.`);
      assert.equal(state(actor, quest.id)?.status, "in_progress", `${quest.name} started`);
      continue;
    }
    const stage = quest.stages[s.stage]!;
    await makeRoom(actor, quest);
    if (stage.type === "dialogue" || stage.type === "give") {
      await talkAndChoose(actor, stage.npcId!, (t) => t === `${quest.name}: it's done.` || t === `About ${quest.name}…`);
    } else if (stage.type === "kill") {
      await killOne(actor, stage.target!);
    } else if (stage.type === "gather") {
      const at = s.stage;
      await gatherSome(actor, stage.target!, () => state(actor, quest.id)?.stage !== at || state(actor, quest.id)?.status !== "in_progress");
    } else if (stage.type === "interact" && stage.target === "fire") {
      await lightFire(actor);
    } else if (stage.type === "interact" && actor.world.places.get(stage.target!) !== undefined) {
      await usePlace(actor, stage.target!);
    } else if (stage.type === "make" || stage.type === "interact") {
      // (An interact stage naming an item: the item made, as the real content set writes its making stages.)
      await make(actor, stage.target!, stage.count - s.progress);
    } else if (stage.type === "reach") {
      await reach(actor, stage.area!);
    } else {
      throw new Error(`quest driver: no way yet to do a ${stage.type} stage for ${stage.target}`);
    }
  }
  throw new Error(`quest driver: ${quest.name} not completed`);
}

const areaOf = (world: World, id: string) => world.content.areas.find((a) => a.id === id)!;
const inBounds = (b: { minX: number; maxX: number; minZ: number; maxZ: number }, t: { x: number; z: number }) =>
  t.x >= b.minX && t.x <= b.maxX && t.z >= b.minZ && t.z <= b.maxZ;
const carried = (actor: QuestActor, itemId: string) => actor.player().data.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);

/** Waits until the player stands still with nothing to do (an action done, a walk arrived). */
async function idle(actor: QuestActor, what: string): Promise<void> {
  await actor.step();
  await until(
    actor,
    () => {
      const p = actor.player();
      return p.action === undefined && p.path.length === 0 && p.moveTarget === undefined ? true : undefined;
    },
    what,
  );
}

/** Underground, out of reach of the NPC: climbs the area's ladder or stairs up first. */
async function climbOut(actor: QuestActor, npc: { x: number; z: number }): Promise<void> {
  const here = actor.world.content.areas.find((a) => a.underground && inBounds(a.bounds, actor.player()));
  if (here === undefined || inBounds(here.bounds, npc)) return;
  const up = [...actor.world.places.values()].find((pl) => pl.placeKind === "ladder" && inBounds(here.bounds, pl) && !inBounds(here.bounds, pl.def.to));
  assert.ok(up, `a way up out of ${here.name}`);
  await usePlace(actor, up.id);
}

/** Uses a place (a door, a ladder, an obstacle) once. */
async function usePlace(actor: QuestActor, id: string): Promise<void> {
  actor.send("player:action", { action: "interact", targetId: id });
  await idle(actor, `using ${id}`);
}

/** Into the area: down a ladder that lands in it (underground), else a walk to its nearest tile. */
async function reach(actor: QuestActor, areaId: string): Promise<void> {
  const area = areaOf(actor.world, areaId);
  const p = actor.player();
  if (area.underground) {
    const down = [...actor.world.places.values()].find((pl) => pl.placeKind === "ladder" && inBounds(area.bounds, pl.def.to) && !inBounds(area.bounds, pl));
    assert.ok(down, `a way down into ${area.name}`);
    await usePlace(actor, down.id);
    return;
  }
  const b = area.bounds;
  const goal = { x: Math.min(b.maxX - 2, Math.max(b.minX + 2, p.x)), z: Math.min(b.maxZ - 2, Math.max(b.minZ + 2, p.z)) };
  for (let r = 0; r < 6 && !actor.world.collision.isWalkable(goal.x, goal.z); r++) goal.x += goal.x < (b.minX + b.maxX) / 2 ? 1 : -1;
  actor.send("player:move", goal);
  await idle(actor, `walking into ${area.name}`);
}

/** Makes `count` of the item with `skill:make`: its inputs first (gathered or made), next to its station. */
async function make(actor: QuestActor, itemId: string, count: number): Promise<void> {
  const recipe = [...actor.world.content.production.values()].filter((r) => r.output === itemId).sort((a, b) => a.level - b.level)[0];
  assert.ok(recipe, `a recipe for ${itemId}`);
  const makes = Math.max(1, Math.ceil(count / recipe.outputQuantity));
  for (const input of recipe.inputs) {
    // Runecrafting binds every essence carried at once, a rune each (at the first levels).
    const need = recipe.kind === "runecrafting" ? count : input.quantity * makes;
    for (let guard = 0; guard < 40 && carried(actor, input.itemId) < need; guard++) {
      if ([...actor.world.resources.values()].some((r) => r.node.harvestYield.some((y) => y.itemId === input.itemId)))
        await gatherSome(actor, input.itemId, () => carried(actor, input.itemId) >= need);
      else await make(actor, input.itemId, need - carried(actor, input.itemId));
    }
  }
  await toStation(actor, recipe);
  actor.send("skill:make", { recipeId: recipe.id, quantity: recipe.kind === "runecrafting" ? 1 : makes });
  await idle(actor, `making ${itemId}`);
}

/** Next to the nearest station the recipe needs (a fire will do for cooking), unless one is in reach. */
async function toStation(actor: QuestActor, recipe: ProductionRecipe): Promise<void> {
  const p = actor.player();
  if (recipe.station === null || stationInReach(actor.world, p, recipe) !== undefined) return;
  const station = actor.world.stations.filter((s) => s.type === recipe.station).sort((a, b) => chebyshev(p, a) - chebyshev(p, b))[0];
  assert.ok(station, `a ${recipe.station} placed`);
  const around: { x: number; z: number }[] = [];
  for (let dx = -STATION_REACH; dx <= STATION_REACH; dx++)
    for (let dz = -STATION_REACH; dz <= STATION_REACH; dz++) around.push({ x: station.x + dx, z: station.z + dz });
  const tile = around
    .filter((t) => (t.x !== station.x || t.z !== station.z) && actor.world.collision.isWalkable(t.x, t.z))
    .sort((a, b) => chebyshev(p, a) - chebyshev(p, b))[0];
  assert.ok(tile, `a free tile beside ${station.id}`);
  actor.send("player:move", tile);
  await idle(actor, `walking to ${station.id}`);
}

/** With fewer than 6 free slots: drops what the quest's stages and the kit (tools, coins) do not need. */
async function makeRoom(actor: QuestActor, quest: Quest): Promise<void> {
  const p = actor.player();
  if (p.data.inventory.filter((s) => s === null).length >= 6) return;
  const needed = new Set<string>(["coins", ...actor.world.content.tools.map((t) => t.itemId), "knife", "needle", "thread", "hammer", "tinderbox"]);
  for (const st of quest.stages) if (st.target !== undefined) needed.add(st.target);
  for (const r of actor.world.content.production.values()) if (r.output !== null && needed.has(r.output)) for (const i of r.inputs) needed.add(i.itemId);
  for (const g of quest.onStart.items) needed.add(g.itemId);
  for (let i = p.data.inventory.length - 1; i >= 0; i--) {
    const s = p.data.inventory[i];
    if (s === null || s === undefined || needed.has(s.itemId)) continue;
    actor.send("player:action", { action: "drop", slot: i });
    await actor.step();
  }
}

async function killOne(actor: QuestActor, npcDefId: string): Promise<void> {
  const p = actor.player();
  const target = [...actor.world.npcs.values()].filter((n) => n.def.id === npcDefId && n.deadUntil === 0).sort((a, b) => chebyshev(p, a) - chebyshev(p, b))[0];
  if (target === undefined) {
    await actor.step();
    return;
  }
  actor.send("player:action", { action: "attack", targetId: target.id });
  await actor.step();
  await until(actor, () => (target.deadUntil !== 0 || actor.player().action === undefined ? true : undefined), `${npcDefId} killed`);
}

/** Gathers from the nearest node yielding the item until it stops (depleted, full) or `enough` holds (then stops). */
async function gatherSome(actor: QuestActor, itemId: string, enough: () => boolean = () => false): Promise<void> {
  const p = actor.player();
  const nodes = [...actor.world.resources.values()].filter((r) => r.depletedUntil <= actor.world.tick && r.node.harvestYield.some((y) => y.itemId === itemId));
  const node = nodes.sort((a, b) => chebyshev(p, a) - chebyshev(p, b))[0];
  if (node === undefined) {
    await actor.step();
    return;
  }
  actor.send("player:action", { action: "gather", targetId: node.id });
  await actor.step();
  await until(actor, () => (actor.player().action === undefined || enough() ? true : undefined), `gathering ${itemId}`);
  if (actor.player().action !== undefined) {
    actor.send("player:action", { action: "stop" });
    await actor.step();
  }
}

async function lightFire(actor: QuestActor): Promise<void> {
  const slot = actor.player().data.inventory.findIndex((s) => s?.itemId === "logs");
  assert.ok(slot >= 0, "logs to light");
  actor.send("player:action", { action: "light", slot });
  await actor.step();
  await actor.step();
}
