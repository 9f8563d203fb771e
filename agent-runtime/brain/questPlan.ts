/**
 * The scripted agent's quests, decided: from a quest's definition (quests.json, as the runtime
 * knows the content: knowledge.ts), the character's entry of `quest:list` and what it carries and
 * sees, the one step to take now ({@link nextStep}). The `quest` goal (quest.ts) plays the step
 * with the behaviours of the other goals and decides again every tick, so a step ends as soon as
 * the quest moved on. Every stage type is followed:
 * - not started: talk to the start NPC (and take the quest: {@link questOption});
 * - `dialogue`: talk to its NPC; `give` {npcId, target, count}: get the items, then talk;
 * - `kill`: fight its monster; `gather`: gather the resource that yields its item (a tool bought
 *   first when it has none and the coins);
 * - `make` (and `interact` naming an item): make the item with `skill:make` (or cook it), its inputs
 *   got first (gathered, made, bought); `interact` naming a place or station: use it; naming
 *   `fire`: light logs;
 * - `reach` {area}: walk into the area, down (or up) a ladder first when it lies in another region
 *   (docs/gameplay.md "Doors, ladders and agility": no walk joins the surface and the dungeon).
 * Any spot in another region is reached the same way: the ladders are the only edges between them.
 */
import type { ServerEvent } from "../../src/game/serverEvents.ts";
import type { ProductionRecipe } from "../../src/manifests/production.ts";
import { pluralOf, sentenceCase } from "../../src/game/sentence.ts";
import { burnChance } from "../../src/game/cookingBurn.ts";
import { countOf, nameOf, nearest, type Knowledge, type Spot } from "../knowledge.ts";
import type { Ctx } from "./behaviourKit.ts";
import { stationSpots } from "./making.ts";

export type QuestEntry = ServerEvent<"quest:list">["quests"][number];

/** A stage as the brain reads it: the engine's types and `make`, `reach`, `give` of the same schema. */
export interface StageDef {
  id: string;
  type: string;
  description?: string | undefined;
  npcId?: string | undefined;
  target?: string | undefined;
  count?: number | undefined;
  area?: string | undefined;
}

export interface QuestDef {
  id: string;
  name: string;
  startNpc: string;
  stages: readonly StageDef[];
  /** The items the start gives and the reward items (quests.json): the inventory needs room for them, or the step is refused. */
  onStart?: { items: readonly ItemStack[] } | undefined;
  rewards?: { items: readonly ItemStack[] } | undefined;
}

interface ItemStack {
  itemId: string;
  quantity: number;
}

export type QuestStep =
  | { kind: "talk"; npcId: string; why: string }
  | { kind: "fight"; mobId: string; why: string }
  | { kind: "gather"; skill: string; resourceId: string; why: string }
  | { kind: "buy"; storeId: string; itemId: string; quantity: number; why: string }
  | { kind: "make"; recipeId: string; why: string }
  | { kind: "cook"; why: string }
  | { kind: "light"; why: string }
  | { kind: "bank"; why: string }
  | { kind: "use"; targetId: string; why: string }
  | { kind: "climb"; ladderId: string; why: string }
  | { kind: "walk"; to: Spot; why: string }
  | { kind: "wait"; why: string }
  | { kind: "done"; why: string }
  | { kind: "fail"; why: string };

/** The name of a region: an underground area's id, or "surface". */
export function regionOf(know: Knowledge, p: Spot): string {
  const under = know.registry.areas.find(
    (a) => a.underground === true && p.x >= a.bounds.minX && p.x <= a.bounds.maxX && p.z >= a.bounds.minZ && p.z <= a.bounds.maxZ,
  );
  return under?.id ?? "surface";
}

/** The first ladder (or stairs) on the fewest climbs from `from`'s region to `to`'s; undefined when already there or no way. */
export function ladderToward(know: Knowledge, from: Spot, to: Spot): { id: string; name: string } | undefined {
  const start = regionOf(know, from);
  const goal = regionOf(know, to);
  if (start === goal) return undefined;
  const ladders = know.registry.places.ladders.map((l) => ({ id: l.id, name: l.name, at: l, from: regionOf(know, l), to: regionOf(know, l.to) }));
  // Breadth first over regions; the first ladder of each path is kept, the nearest first.
  const firsts = ladders
    .filter((l) => l.from === start)
    .sort((a, b) => Math.max(Math.abs(a.at.x - from.x), Math.abs(a.at.z - from.z)) - Math.max(Math.abs(b.at.x - from.x), Math.abs(b.at.z - from.z)));
  let frontier = firsts.map((l) => ({ region: l.to, first: l }));
  const seen = new Set([start]);
  while (frontier.length > 0) {
    const hit = frontier.find((f) => f.region === goal);
    if (hit !== undefined) return { id: hit.first.id, name: hit.first.name };
    for (const f of frontier) seen.add(f.region);
    frontier = frontier.flatMap((f) => ladders.filter((l) => l.from === f.region && !seen.has(l.to)).map((l) => ({ region: l.to, first: f.first })));
  }
  return undefined;
}

/** Where an NPC the content places stands. */
export function npcSpot(know: Knowledge, npcId: string): Spot | undefined {
  for (const a of know.registry.areas) for (const n of a.npcs) if (n.id === npcId) return { x: n.position.x, z: n.position.z };
  return undefined;
}

/** A tile to walk to inside an area: of the spots the content places there (and the ladders' landings), the nearest; else its centre. */
export function spotIn(know: Knowledge, areaId: string, from: Spot): Spot | undefined {
  const area = know.registry.areas.find((a) => a.id === areaId);
  if (area === undefined) return undefined;
  const b = area.bounds;
  const inside = (p: Spot) => p.x >= b.minX && p.x <= b.maxX && p.z >= b.minZ && p.z <= b.maxZ;
  const spots: Spot[] = [
    ...area.npcs.map((n) => n.position),
    ...area.resources.map((r) => r.position),
    ...area.mobSpawns.map((m) => m.position),
    ...area.stations.map((s) => s.position),
    ...know.registry.places.ladders.map((l) => l.to),
  ]
    .filter(inside)
    .map((p) => ({ x: p.x, z: p.z }));
  const here = spots.filter((s) => regionOf(know, s) === regionOf(know, from));
  return nearest(from, here.length > 0 ? here : spots) ?? { x: Math.round((b.minX + b.maxX) / 2), z: Math.round((b.minZ + b.maxZ) / 2) };
}

/** A climb first when `spot` lies in another region than the agent; undefined when it can walk there. */
function via(ctx: Ctx, spot: Spot | undefined, what: string): QuestStep | undefined {
  if (spot === undefined) return undefined;
  const here = ctx.view.position;
  if (regionOf(ctx.know, here) === regionOf(ctx.know, spot)) return undefined;
  const ladder = ladderToward(ctx.know, here, spot);
  return ladder === undefined
    ? { kind: "fail", why: `no way to ${what}` }
    : { kind: "climb", ladderId: ladder.id, why: `${sentenceCase(ladder.name)} on the way to ${what}` };
}

/**
 * What the quest goal remembers between its decisions. `cooking`: it is cooking a batch, which it
 * finishes before it gathers more raw food (the raw a cooking make wants is reckoned again after
 * every burn: without the batch, Supper at the Kettle caught one shrimp after each burn).
 */
export interface StepMemory {
  cooking?: boolean | undefined;
}

/** The one step to take now for `quest`, given the character's entry of `quest:list` (undefined: not heard yet). */
export function nextStep(ctx: Ctx, quest: QuestDef, entry: QuestEntry | undefined, memory: StepMemory = {}): QuestStep {
  if (entry === undefined) return { kind: "wait", why: "the quest list" };
  if (entry.status === "completed") return { kind: "done", why: `${quest.name} complete` };
  // The start's items and the rewards go into the inventory in one transaction, refused without
  // room: the bank first (src/game/dialogue.ts).
  if (entry.status === "not_started")
    return roomFor(ctx, quest.onStart?.items, `what starting ${quest.name} gives`) ?? talk(ctx, quest.startNpc, `start ${quest.name}`);
  const stage = quest.stages.find((s) => s.id === entry.stage);
  if (stage === undefined) return { kind: "fail", why: `no stage ${String(entry.stage)} in ${quest.name}` };
  if (stage.type === "dialogue" && stage === quest.stages.at(-1)) {
    const bank = roomFor(ctx, quest.rewards?.items, `the reward of ${quest.name}`);
    if (bank !== undefined) return bank;
  }
  const count = entry.progress?.required ?? stage.count ?? 1;
  const left = Math.max(1, count - (entry.progress?.count ?? 0));
  const target = stage.target ?? "";
  switch (stage.type) {
    case "dialogue":
      return talk(ctx, stage.npcId ?? quest.startNpc, stage.description ?? `talk for ${quest.name}`);
    case "kill": {
      const spots = ctx.know.mobSpots.get(target) ?? [];
      if (spots.length === 0) return { kind: "fail", why: `no ${nameOf(ctx.know, target)} in this world` };
      return (
        via(ctx, nearest(ctx.view.position, spots), `the ${nameOf(ctx.know, target)}`) ?? {
          kind: "fight",
          mobId: target,
          why: `kill ${left} more ${pluralOf(left, nameOf(ctx.know, target))}`,
        }
      );
    }
    case "gather":
      return gather(ctx, target) ?? { kind: "fail", why: `nothing here yields ${nameOf(ctx.know, target)}` };
    case "interact":
      if (target === "fire") return light(ctx);
      if (isPlace(ctx.know, target))
        return via(ctx, placeSpot(ctx.know, target), target) ?? { kind: "use", targetId: target, why: stage.description ?? `use ${target}` };
      return make(ctx, target, left, 0, memory) ?? { kind: "fail", why: `no way to make ${nameOf(ctx.know, target)}` };
    case "make":
      return make(ctx, target, left, 0, memory) ?? { kind: "fail", why: `no way to make ${nameOf(ctx.know, target)}` };
    case "reach": {
      const to = stage.area === undefined ? undefined : spotIn(ctx.know, stage.area, ctx.view.position);
      if (to === undefined) return { kind: "fail", why: `no area ${String(stage.area)}` };
      return via(ctx, to, stage.area!) ?? { kind: "walk", to, why: `reach ${stage.area}` };
    }
    case "give": {
      const want = stage.count ?? 1;
      const have = ctx.view.count(target);
      if (have >= want) return talk(ctx, stage.npcId ?? quest.startNpc, `give ${countOf(ctx.know, want, target)}`);
      return acquire(ctx, target, want - have, 0) ?? { kind: "fail", why: `no way to get ${nameOf(ctx.know, target)}` };
    }
    default:
      return { kind: "fail", why: `a ${stage.type} stage` };
  }
}

/** Inventory slots the items would take: coins none (a purse), a stack it carries none more, one it does not one; others one each. */
export function slotsFor(ctx: Ctx, items: readonly ItemStack[]): number {
  return items.reduce((n, i) => {
    if (i.itemId === "coins") return n;
    if (ctx.know.registry.item(i.itemId)?.stackable === true) return n + (ctx.view.count(i.itemId) > 0 ? 0 : 1);
    return n + i.quantity;
  }, 0);
}

/** A bank trip when the items would not fit. */
function roomFor(ctx: Ctx, items: readonly ItemStack[] | undefined, what: string): QuestStep | undefined {
  if (items === undefined || items.length === 0) return undefined;
  const need = slotsFor(ctx, items);
  return ctx.view.freeSlots() >= need ? undefined : { kind: "bank", why: `room for ${what} (${need} slots)` };
}

function talk(ctx: Ctx, npcId: string, why: string): QuestStep {
  const spot = npcSpot(ctx.know, npcId);
  if (spot === undefined) return { kind: "fail", why: `no ${nameOf(ctx.know, npcId)} in this world` };
  return via(ctx, spot, nameOf(ctx.know, npcId)) ?? { kind: "talk", npcId, why };
}

function isPlace(know: Knowledge, id: string): boolean {
  return placeSpot(know, id) !== undefined;
}

function placeSpot(know: Knowledge, id: string): Spot | undefined {
  const { doors, ladders, obstacles } = know.registry.places;
  const place = [...doors, ...ladders, ...obstacles].find((p) => p.id === id);
  if (place !== undefined) return { x: place.x, z: place.z };
  const station = know.registry.areas.flatMap((a) => a.stations).find((s) => s.id === id);
  return station === undefined ? undefined : { x: station.position.x, z: station.position.z };
}

/** The cheapest placed store's offer of an item it can afford `quantity` of. */
function purchase(ctx: Ctx, itemId: string, quantity: number): QuestStep | undefined {
  const sold = new Set(ctx.know.keepers.map((k) => k.storeId));
  const offers = [...ctx.know.registry.stores.values()]
    .filter((s) => sold.has(s.id))
    .flatMap((s) => s.items.filter((i) => i.itemId === itemId).map((i) => ({ storeId: s.id, price: i.price })));
  offers.sort((a, b) => a.price - b.price);
  const offer = offers[0];
  if (offer === undefined || (ctx.view.self?.coins ?? 0) < offer.price * quantity) return undefined;
  return { kind: "buy", storeId: offer.storeId, itemId, quantity, why: `buy ${countOf(ctx.know, quantity, itemId)} for ${offer.price * quantity} coins` };
}

/** Gathering an item: the resource at its level that yields it, its tool bought first; room made first. */
function gather(ctx: Ctx, itemId: string): QuestStep | undefined {
  const level = (skill: string) => ctx.view.self?.skills[skill]?.level ?? 1;
  const nodes = [...ctx.know.registry.resources.values()]
    .filter((r) => r.harvestYield.some((y) => y.itemId === itemId) && ctx.know.resourceSpots.has(r.id) && r.levelRequired <= level(r.gathering))
    .sort((a, b) => a.levelRequired - b.levelRequired);
  const node = nodes.find((r) => ctx.view.has(r.toolRequired)) ?? nodes[0];
  if (node === undefined) return undefined;
  if (!ctx.view.has(node.toolRequired))
    return (
      purchase(ctx, node.toolRequired, 1) ?? {
        kind: "fail",
        why: `no ${nameOf(ctx.know, node.toolRequired)} to gather ${nameOf(ctx.know, itemId)}, nor the coins for one`,
      }
    );
  if (ctx.view.freeSlots() === 0) return { kind: "bank", why: "no room to gather" };
  const spot = nearest(ctx.view.position, ctx.know.resourceSpots.get(node.id)!);
  return via(ctx, spot, nameOf(ctx.know, node.id)) ?? { kind: "gather", skill: node.gathering, resourceId: node.id, why: `gather ${nameOf(ctx.know, itemId)}` };
}

/** Lighting a fire: logs and a tinderbox, got first. */
function light(ctx: Ctx): QuestStep {
  const level = ctx.view.self?.skills.firemaking?.level ?? 1;
  const logs = ctx.know.registry.recipes.firemaking.filter((r) => r.level <= level).map((r) => r.log);
  if (!ctx.view.has("tinderbox")) return purchase(ctx, "tinderbox", 1) ?? { kind: "fail", why: "no tinderbox" };
  if (logs.some((l) => ctx.view.count(l) > 0)) return { kind: "light", why: "light a fire" };
  for (const l of logs) {
    const step = gather(ctx, l);
    if (step !== undefined) return step;
  }
  return { kind: "fail", why: "no logs to burn" };
}

/** A recipe (not tanning's coins-only or a burn) that makes the item, at its level, with a station placed. */
function recipeFor(ctx: Ctx, itemId: string): ProductionRecipe | undefined {
  return [...ctx.know.registry.production.values()]
    .filter((r) => r.output === itemId && r.unsupported === undefined && (r.skill === null || (ctx.view.self?.skills[r.skill]?.level ?? 1) >= r.level))
    .filter((r) => r.station === null || stationSpots(ctx, r.station).length > 0)
    .sort((a, b) => a.level - b.level)[0];
}

/** The least share of a cooking make reckoned to come out cooked (the server's burn chance tops out at 60 %). */
const MIN_COOKED_SHARE = 0.4;

/**
 * Making `quantity` of an item: tools and inputs got first (depth: how many makes deep; raw food
 * for the share that burns, except while a batch is cooking: StepMemory).
 */
function make(ctx: Ctx, itemId: string, quantity: number, depth: number, memory: StepMemory = {}): QuestStep | undefined {
  const recipe = recipeFor(ctx, itemId);
  if (recipe === undefined || depth > 2) return undefined;
  let makes = Math.ceil(quantity / Math.max(1, recipe.outputQuantity));
  // Cooking burns some of the raw food (src/game/cookingBurn.ts, on a fire, the worse heat): it
  // gathers what the makes take at the chance each comes out cooked, before it cooks. Supper at the
  // Kettle's two shrimp took 684 and 752 ticks at Cooking 1 (60 % burnt) in runs of 19:15 and 19:40:
  // a catch, a walk to the fire, a burn, and back for one more.
  const cooking = recipe.kind === "cooking" ? ctx.know.registry.recipes.cooking.find((r) => r.cooked === itemId) : undefined;
  if (cooking !== undefined) makes = Math.ceil(makes / Math.max(MIN_COOKED_SHARE, 1 - burnChance(cooking, ctx.view.self?.skills.cooking?.level ?? 1, "fire")));
  for (const tool of recipe.tools)
    if (!ctx.view.has(tool)) return purchase(ctx, tool, 1) ?? { kind: "fail", why: `no ${nameOf(ctx.know, tool)} to make ${nameOf(ctx.know, itemId)}` };
  const inputs = recipe.essence !== undefined ? [{ itemId: recipe.essence.types[0]!, quantity: 1 }] : recipe.inputs;
  // A batch on the fire is cooked to its last raw one before more is gathered.
  if (cooking !== undefined && memory.cooking === true && inputs.every((i) => ctx.view.count(i.itemId) >= i.quantity)) makes = 1;
  for (const input of inputs) {
    const need = input.quantity * makes - ctx.view.count(input.itemId);
    if (need > 0)
      return (
        acquire(ctx, input.itemId, need, depth + 1) ?? { kind: "fail", why: `no way to get ${nameOf(ctx.know, input.itemId)} for ${nameOf(ctx.know, itemId)}` }
      );
  }
  const station = recipe.station === null ? undefined : nearest(ctx.view.position, stationSpots(ctx, recipe.station));
  const climb = via(ctx, station, recipe.station ?? "");
  if (climb !== undefined) return climb;
  return recipe.kind === "cooking"
    ? { kind: "cook", why: `cook ${nameOf(ctx.know, itemId)}` }
    : { kind: "make", recipeId: recipe.id, why: `make ${nameOf(ctx.know, itemId)}` };
}

/** Getting `quantity` more of an item to carry: gathered, made or bought. */
function acquire(ctx: Ctx, itemId: string, quantity: number, depth: number): QuestStep | undefined {
  return gather(ctx, itemId) ?? make(ctx, itemId, quantity, depth) ?? purchase(ctx, itemId, quantity);
}

/**
 * The option of an open dialogue that does the quest's part: one the dialogue tree of the NPC
 * (npcs.json) gives an effect on this quest, one the quest engine adds naming the quest (not a
 * "<quest>?", a requirement unmet), else one that leads toward a node with such an effect.
 */
export function questOption(
  know: Knowledge,
  npcId: string,
  quest: { id: string; name: string },
  open: { nodeId: string; options: { id: string; text: string }[] },
): string | undefined {
  const tree = know.registry.quests.dialogues.get(npcId);
  const acts = (r: { effects: { type: string; questId?: string }[] }) =>
    r.effects.some((e) => (e.type === "startQuest" || e.type === "advanceQuest") && e.questId === quest.id);
  const node = tree?.nodes.get(open.nodeId);
  const byText = (text: string) => node?.responses.find((r) => r.text === text);
  const direct = open.options.find((o) => {
    const r = byText(o.text);
    return r !== undefined && acts(r);
  });
  if (direct !== undefined) return direct.id;
  const named = open.options.find((o) => o.text.includes(quest.name) && !o.text.trimEnd().endsWith("?"));
  if (named !== undefined) return named.id;
  if (tree === undefined) return undefined;
  // A node from which a response acting on the quest is reachable.
  const leads = (start: string | undefined): boolean => {
    const seen = new Set<string>();
    const todo = start === undefined ? [] : [start];
    while (todo.length > 0) {
      const id = todo.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      for (const r of tree.nodes.get(id)?.responses ?? []) {
        if (acts(r)) return true;
        if (r.nextNodeId !== undefined) todo.push(r.nextNodeId);
      }
    }
    return false;
  };
  return open.options.find((o) => leads(byText(o.text)?.nextNodeId))?.id;
}
