/**
 * The scripted behaviours' crowd sense on its own, with an AgentView fed world updates as the
 * server sends them: a gatherer or a fighter at a spot where everything is taken by players it can
 * see gives the goal up as crowded after CROWDED_TICKS (a fighter among a few players for every
 * monster standing, after twice that without a kill), and not when something is free, when it is
 * alone, or while it is still on its way.
 */
import assert from "node:assert/strict";
import { AgentView, type Self } from "../../agent-runtime/AgentView.ts";
import { CROWDED_TICKS, Fight, Gather, PLAYERS_PER_MONSTER, type Behaviour, type Ctx, type Outcome } from "../../agent-runtime/brain/behaviours.ts";
import { Random } from "../../agent-runtime/brain/random.ts";
import { countOf, knowledgeOf, nameOf, type Knowledge } from "../../agent-runtime/knowledge.ts";
import type { WorldUpdate } from "../../src/game/worldUpdate.ts";
import { bundledContent } from "../support/content.ts";

type Entry = WorldUpdate["entities"][number];

describe("agent behaviours: a crowded spot", () => {
  let know: Knowledge;
  before(async () => {
    know = knowledgeOf(await bundledContent());
  });

  /** An agent standing at (x, z) with a hatchet, seeing `others`; returns the view, a ctx and what it sent. */
  function agentAt(x: number, z: number, others: Entry[]) {
    const view = new AgentView();
    view.playerId = "me";
    view.sync({ inventory: [{ slot: 0, itemId: "bronze_hatchet", quantity: 1 }], equipment: {}, skills: {} } as unknown as Self);
    const me: Entry = { id: "me", kind: "player", x, z, name: "Robin", health: 10, maxHealth: 10, combatLevel: 3, running: false };
    view.update({ tick: 1, entities: [me, ...others], removed: [] });
    const sent: string[] = [];
    const ctx: Ctx = { view, know, rng: new Random("crowd"), tick: 0, send: (type) => void sent.push(type), note: () => {} };
    return { view, ctx, sent };
  }
  const players = (n: number, x: number, z: number): Entry[] =>
    Array.from({ length: n }, (_, i) => ({
      id: `p${i}`,
      kind: "player",
      x: x + (i % 3),
      z: z + (Math.floor(i / 3) % 3),
      name: `P${i}`,
      health: 10,
      maxHealth: 10,
      combatLevel: 3,
      running: false,
    }));
  const tree = (id: string, x: number, z: number, depleted: boolean): Entry => ({ id, kind: "resource", x, z, ref: "tree_normal", depleted });
  const rat = (id: string, x: number, z: number, dead: boolean): Entry => ({
    id,
    kind: "npc",
    x,
    z,
    ref: "meadow_rat",
    name: "Meadow rat",
    health: dead ? 0 : 5,
    maxHealth: 5,
    level: 1,
    dead,
  });
  /** Steps a behaviour `ticks` times from tick `from`; the first outcome that ends it, or the last. */
  function run(b: Behaviour, ctx: Ctx, ticks: number, from = 0): { out: Outcome; at: number } {
    let out: Outcome = { progress: 0 };
    for (let t = 0; t < ticks; t++) {
      ctx.tick = from + t;
      out = b.step(ctx);
      if (out.end !== undefined) return { out, at: t + 1 };
    }
    return { out, at: ticks };
  }

  it("a woodcutter among a crowd at depleted trees gives up as crowded after CROWDED_TICKS", () => {
    const { ctx } = agentAt(25, -15, [tree("t1", 24, -14, true), tree("t2", 27, -12, true), ...players(6, 24, -15)]);
    const { out, at } = run(new Gather("woodcutting", "tree_normal"), ctx, 100);
    assert.equal(out.end, "failed");
    assert.equal(out.end === "failed" && out.crowded, true);
    assert.match(out.end === "failed" ? out.why : "", /^crowded: /);
    assert.equal(at, CROWDED_TICKS);
  });

  it("is not crowded where a tree is free, where it is alone, or with fewer players than trees", () => {
    const free = agentAt(25, -15, [tree("t1", 24, -14, false), tree("t2", 27, -12, true), ...players(6, 24, -15)]);
    assert.equal(run(new Gather("woodcutting", "tree_normal"), free.ctx, 100).out.end, undefined);
    assert.ok(free.sent.includes("player:action"), "it chops the free tree");
    const alone = agentAt(25, -15, [tree("t1", 24, -14, true), tree("t2", 27, -12, true)]);
    assert.equal(run(new Gather("woodcutting", "tree_normal"), alone.ctx, 100).out.end, undefined);
    const few = agentAt(25, -15, [tree("t1", 24, -14, true), tree("t2", 27, -12, true), tree("t3", 30, -16, true), ...players(2, 24, -15)]);
    assert.equal(run(new Gather("woodcutting", "tree_normal"), few.ctx, 100).out.end, undefined);
  });

  it("stops gathering once it has enough (a fighter's fishing for food), else goes on until the pack is full", () => {
    let enough = false;
    const { ctx } = agentAt(25, -15, [tree("t1", 24, -14, false)]);
    const gather = new Gather("woodcutting", "tree_normal", () => enough);
    assert.equal(run(gather, ctx, 20).out.end, undefined);
    enough = true;
    const { out } = run(gather, ctx, 1, 20);
    assert.deepEqual([out.end, out.end === "done" ? out.why : ""], ["done", "enough gathered"]);
  });

  it("does not count the crowd while still on its way (far from every spot of the resource)", () => {
    const { ctx, sent } = agentAt(0, 0, players(6, 0, 1));
    assert.equal(run(new Gather("woodcutting", "tree_normal"), ctx, 100).out.end, undefined);
    assert.ok(sent.includes("player:move"), "it walks toward the trees");
  });

  it("a fighter at a spawn where every monster is dead and others wait gives up as crowded", () => {
    const spot = know.mobSpots.get("meadow_rat")![0]!;
    const { ctx } = agentAt(spot.x, spot.z, [rat("r1", spot.x + 1, spot.z, true), ...players(4, spot.x - 1, spot.z - 1)]);
    const { out, at } = run(new Fight("meadow_rat"), ctx, 100);
    assert.equal(out.end === "failed" && out.crowded, true);
    assert.equal(at, CROWDED_TICKS);
  });

  it("a fighter among three or more players for each monster standing gives up after twice as long without a kill; a kill starts the count again", () => {
    const spot = know.mobSpots.get("meadow_rat")![0]!;
    const crowd = () => [rat("r1", spot.x + 1, spot.z, false), ...players(PLAYERS_PER_MONSTER + 1, spot.x - 1, spot.z - 1)];
    const busy = agentAt(spot.x, spot.z, crowd());
    const { out, at } = run(new Fight("meadow_rat"), busy.ctx, 100);
    assert.equal(out.end === "failed" && out.crowded, true);
    assert.equal(at, 2 * CROWDED_TICKS);
    assert.ok(busy.sent.includes("player:action"), "it fought meanwhile");
    // Fewer players than that for the one rat: it stays.
    const few = agentAt(spot.x, spot.z, [rat("r1", spot.x + 1, spot.z, false), ...players(PLAYERS_PER_MONSTER - 1, spot.x - 1, spot.z - 1)]);
    assert.equal(run(new Fight("meadow_rat"), few.ctx, 100).out.end, undefined);
    // Its own kill just before the count runs out: another full count from there.
    const lucky = agentAt(spot.x, spot.z, crowd());
    const fight = new Fight("meadow_rat");
    assert.equal(run(fight, lucky.ctx, 2 * CROWDED_TICKS - 1).out.end, undefined);
    fight.onEvent("combat:hit", { attackerId: "me", targetId: "r1", damage: 2, style: "melee", targetHealth: 0, targetMaxHealth: 2 }, lucky.ctx);
    assert.equal(run(fight, lucky.ctx, 2 * CROWDED_TICKS - 1, 2 * CROWDED_TICKS).out.end, undefined);
  });
});

describe("agent behaviours: a fighter's choice of monster", () => {
  let know: Knowledge;
  before(async () => {
    know = knowledgeOf(await bundledContent());
  });

  /** The monster a fighter at (x, z) with this seed attacks first, seeing `others`. */
  function firstTarget(x: number, z: number, others: Entry[], seed: string): string | undefined {
    const view = new AgentView();
    view.playerId = "me";
    view.sync({ inventory: [], equipment: {}, skills: {} } as unknown as Self);
    view.update({
      tick: 1,
      entities: [{ id: "me", kind: "player", x, z, name: "Robin", health: 10, maxHealth: 10, combatLevel: 3, running: false }, ...others],
      removed: [],
    });
    let target: string | undefined;
    const ctx: Ctx = {
      view,
      know,
      rng: new Random(seed),
      tick: 0,
      send: (type, data) => {
        if (type === "player:action") target ??= (data as { targetId?: string }).targetId;
      },
      note: () => {},
    };
    const fight = new Fight("meadow_rat");
    for (let t = 0; t < 3 && target === undefined; t++) {
      ctx.tick = t;
      fight.step(ctx);
    }
    return target;
  }
  const rat = (id: string, x: number, z: number): Entry => ({
    id,
    kind: "npc",
    x,
    z,
    ref: "meadow_rat",
    name: "Meadow rat",
    health: 5,
    maxHealth: 5,
    level: 1,
    dead: false,
  });
  const player = (id: string, x: number, z: number): Entry => ({
    id,
    kind: "player",
    x,
    z,
    name: id,
    health: 10,
    maxHealth: 10,
    combatLevel: 3,
    running: false,
  });

  it("attacks a monster no other player stands next to before a nearer one that is fought already", () => {
    const spot = know.mobSpots.get("meadow_rat")![0]!;
    const seen = [rat("fought", spot.x + 1, spot.z), player("other", spot.x + 2, spot.z), rat("free", spot.x - 3, spot.z)];
    for (const seed of ["a", "b", "c", "d", "e", "f"]) assert.equal(firstTarget(spot.x, spot.z, seen, seed), "free", `seed ${seed}`);
    // Every one fought: the nearest of them still.
    const all = [rat("near", spot.x + 1, spot.z), player("o1", spot.x + 2, spot.z), rat("far", spot.x - 6, spot.z), player("o2", spot.x - 7, spot.z)];
    for (const seed of ["a", "b", "c"]) assert.equal(firstTarget(spot.x, spot.z, all, seed), "near", `seed ${seed}`);
  });

  it("fighters arriving together spread over the free monsters near them, not all on the first", () => {
    const spot = know.mobSpots.get("meadow_rat")![0]!;
    const seen = [rat("r1", spot.x + 1, spot.z), rat("r2", spot.x - 1, spot.z), rat("r3", spot.x, spot.z + 2), rat("far", spot.x + 9, spot.z)];
    const chosen = Array.from({ length: 12 }, (_, i) => firstTarget(spot.x, spot.z, seen, `fighter-${i}`));
    assert.ok(
      chosen.every((id) => id === "r1" || id === "r2" || id === "r3"),
      `within FOE_SPREAD of the nearest: ${chosen.join(",")}`,
    );
    assert.ok(new Set(chosen).size >= 2, `spread: ${chosen.join(",")}`);
  });
});

describe("agent activity: what it notes, by name", () => {
  it("names items, resources, NPCs and quests as players read them (an unknown id as itself), and a gatherer's note says which tree", async () => {
    const know = knowledgeOf(await bundledContent());
    assert.equal(nameOf(know, "bronze_hatchet"), "Bronze hatchet");
    // The dashboard's "goal: Do a quest (straight_and_true)" named the quest by its id (docs/playtest.md session 29).
    assert.equal(nameOf(know, "straight_and_true"), "Straight and True");
    assert.equal(nameOf(know, "tree_normal"), "Tree");
    const banker = know.banks[0]!.npcRef;
    assert.equal(nameOf(know, banker), know.registry.npcs.get(banker)!.name);
    assert.equal(nameOf(know, "no_such_thing"), "no_such_thing");

    const view = new AgentView();
    view.playerId = "me";
    view.sync({ inventory: [{ slot: 0, itemId: "bronze_hatchet", quantity: 1 }], equipment: {}, skills: {} } as unknown as Self);
    const me: Entry = { id: "me", kind: "player", x: 0, z: 0, name: "Robin", health: 10, maxHealth: 10, combatLevel: 3, running: false };
    view.update({
      tick: 1,
      entities: [me, { id: "t1", kind: "resource", x: 1, z: 0, ref: "tree_normal", depleted: false }],
      removed: [],
    } as unknown as WorldUpdate);
    const notes: string[] = [];
    const ctx: Ctx = { view, know, rng: new Random("names"), tick: 0, send: () => {}, note: (text) => void notes.push(text) };
    new Gather("woodcutting", "tree_normal").step(ctx);
    assert.deepEqual(notes, ["gather Tree at 1,0"]);
  });

  it("names monsters and resources as the world view does, and counts more than one in the plural", async () => {
    const know = knowledgeOf(await bundledContent());
    // The manifests write "Brindle Cow", "Shallow Water"; the world view "Brindle cow", "Shallow water"
    // (client/src/names.ts), and the activity said "attack Brindle Cow" (docs/playtest.md session 29).
    assert.equal(know.registry.npcs.get("brindle_cow")!.name, "Brindle Cow");
    assert.equal(nameOf(know, "brindle_cow"), "Brindle cow");
    assert.equal(nameOf(know, "fishing_spot_net"), "Shallow water");
    // A person's name stays as written.
    assert.equal(nameOf(know, "smith_orla"), know.registry.npcs.get("smith_orla")!.name);
    // "give 2 Bronze dagger" read wrong; the server says "You still need to kill 5 meadow rats.".
    assert.equal(countOf(know, 2, "bronze_dagger"), "2 Bronze daggers");
    assert.equal(countOf(know, 1, "bronze_dagger"), "1 Bronze dagger");
    assert.equal(countOf(know, 3, "logs"), "3 Logs", "a name that ends in s already");

    // A fighter's note names the cow so, though the server's update names it "Brindle Cow".
    const spot = know.mobSpots.get("brindle_cow")![0]!;
    const view = new AgentView();
    view.playerId = "me";
    view.sync({ inventory: [], equipment: {}, skills: {} } as unknown as Self);
    const me: Entry = { id: "me", kind: "player", x: spot.x, z: spot.z, name: "Robin", health: 10, maxHealth: 10, combatLevel: 3, running: false };
    const cow: Entry = {
      id: "c1",
      kind: "npc",
      x: spot.x + 1,
      z: spot.z,
      ref: "brindle_cow",
      name: "Brindle Cow",
      health: 8,
      maxHealth: 8,
      level: 2,
      dead: false,
    };
    view.update({ tick: 1, entities: [me, cow], removed: [] });
    const notes: string[] = [];
    const ctx: Ctx = { view, know, rng: new Random("cow"), tick: 0, send: () => {}, note: (text) => void notes.push(text) };
    new Fight("brindle_cow").step(ctx);
    assert.ok(notes.includes(`attack Brindle cow (${spot.x + 1},${spot.z})`), JSON.stringify(notes));
  });
});
