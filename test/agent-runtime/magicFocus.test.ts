/**
 * `focus magic` (agent-runtime/brain/magicFocus.ts) with the bundled world's content: the spell it
 * trains with, the Staff of Air bought with the coins kept for it, rune essence mined and bound into
 * the runes the spell takes in pairs (mind runes alone with the staff), casting before mining with
 * runes in hand, the staff wielded at a fight, and a cast-only fight ended when its runes run out.
 */
import assert from "node:assert/strict";
import type { Self } from "../../agent-runtime/AgentView.ts";
import { Fight, type Ctx } from "../../agent-runtime/brain/behaviours.ts";
import type { GoalOption, Observation } from "../../agent-runtime/brain/Brain.ts";
import { castableSpell, kitOf, type Kit } from "../../agent-runtime/brain/fighting.ts";
import {
  CASTER_FOOD,
  casterClutter,
  casterKeep,
  casterLoot,
  essenceTarget,
  magicRecipe,
  MIN_FIGHT_CASTS,
  paysTowardMagic,
  staffForSpell,
  staffSale,
  staffToWield,
  trainingSpell,
} from "../../agent-runtime/brain/magicFocus.ts";
import { ScriptedBrain } from "../../agent-runtime/brain/scripted.ts";
import { saleTrip, surplus } from "../../agent-runtime/brain/selling.ts";
import type { Knowledge } from "../../agent-runtime/knowledge.ts";
import { availableGoals } from "../../src/agents/AgentService.ts";
import { SKILLS } from "../../src/game/skills.ts";
import type { PlayerData } from "../../src/game/world/Player.ts";
import { bundledContent } from "../support/content.ts";
import { bundledKnowledge, ctxOf, observation, selfOf, viewOf, type Entry } from "./support.ts";

const AIR = "runecrafting:air_rune";
const MIND = "runecrafting:mind_rune";

describe("agent magic focus: a caster's runes, staff and fights", () => {
  let know: Knowledge;
  before(async () => {
    know = await bundledKnowledge();
  });

  const kit = (over: Partial<Kit> = {}): Kit => ({ skills: { magic: { level: 1, xp: 0 } }, inventory: [], weaponId: undefined, coins: 0, ...over });
  const stack = (itemId: string, quantity: number) => ({ itemId, quantity });

  it("trains with Wind Strike (the most xp a rune it supplies), and wants the Staff of Air for it", () => {
    assert.equal(trainingSpell(kit(), know)?.id, "wind_strike");
    assert.equal(
      trainingSpell(kit({ skills: { magic: { level: 13, xp: 2411 } } }), know)?.id,
      "wind_strike",
      "a rune's worth: 6.4 xp by Wind Strike, 3.6 by Fire Strike",
    );
    assert.equal(trainingSpell(kit({ weaponId: "staff_of_air" }), know)?.id, "wind_strike");
    assert.deepEqual(staffForSpell(kit(), know), { itemId: "staff_of_air", storeId: "brackenford_runes", price: 150 });
    assert.equal(staffForSpell(kit({ weaponId: "staff_of_air" }), know), undefined, "held: none to buy");
    assert.equal(staffForSpell(kit({ inventory: [stack("staff_of_air", 1)] }), know), undefined, "carried: none to buy");
  });

  it("binds the spell's rune it holds the fewest casts of: air and mind in turn, mind alone with the staff", () => {
    const both = [AIR, MIND];
    assert.equal(magicRecipe(kit({ inventory: [stack("air_rune", 30), stack("mind_rune", 15)] }), know, both)?.id, MIND);
    assert.equal(magicRecipe(kit({ inventory: [stack("air_rune", 10), stack("mind_rune", 20)] }), know, both)?.id, AIR);
    assert.equal(magicRecipe(kit(), know, both)?.id, AIR, "none of either: the first the spell lists");
    assert.equal(magicRecipe(kit({ weaponId: "staff_of_air", inventory: [stack("mind_rune", 40)] }), know, both)?.id, MIND);
    assert.equal(magicRecipe(kit({ inventory: [stack("mind_rune", 40)] }), know, both, ["air_rune"])?.id, MIND, "a staff about to be bought counts");
    assert.equal(magicRecipe(kit({ inventory: [stack("air_rune", 30)] }), know, [AIR])?.id, AIR, "mind runes not offered (Runecrafting 1): air");
    assert.equal(essenceTarget(know, ["ore_copper", "rock_essence", "ore_tin"]), "rock_essence");
    assert.equal(essenceTarget(know, ["ore_copper"]), undefined);
  });

  it("counts quests paying coins, runes or Magic xp as its way to the staff, and the others not", () => {
    assert.ok(paysTowardMagic(know, "settlers_charter"), "50 coins");
    assert.ok(paysTowardMagic(know, "stonering_whispers"), "runes and Magic xp");
    assert.ok(!paysTowardMagic(know, "hides_for_the_vats"));
    assert.ok(!paysTowardMagic(know, "the_drowned_watch"));
  });

  describe("the scripted policy under focus magic", () => {
    const base = (over: Partial<Observation> = {}): Observation =>
      observation({
        coins: 20,
        skills: { magic: { level: 3, xp: 200 }, mining: { level: 5, xp: 400 }, runecrafting: { level: 3, xp: 200 } },
        inventory: [
          { slot: 0, itemId: "bronze_hatchet", quantity: 1 },
          { slot: 1, itemId: "bronze_pickaxe", quantity: 1 },
        ],
        freeSlots: 26,
        focus: "magic",
        ...over,
      });
    const opts = (...extra: GoalOption[]): GoalOption[] => [
      { type: "mining", description: "Mine rocks", targets: ["ore_copper", "ore_tin", "rock_essence"] },
      { type: "combat", description: "Fight monsters", targets: ["brindle_cow", "meadow_rat"] },
      { type: "fishing", description: "Catch fish", targets: ["fishing_spot_net"] },
      { type: "quest", description: "Do a quest", targets: ["hides_for_the_vats"] },
      { type: "idle", description: "Stand still", targets: [] },
      ...extra,
    ];
    const shopping = (...targets: string[]): GoalOption => ({ type: "shopping", description: "Buy", targets });
    const choose = (obs: Observation) => Array.from({ length: 10 }, (_, seed) => new ScriptedBrain(know, `m${seed}`).choose(obs));
    const allAre = (obs: Observation, type: string, target?: string) => {
      for (const c of choose(obs)) {
        assert.equal(c.type, type, `${c.type} ${c.target ?? ""}: ${c.reason}`);
        if (target !== undefined) assert.equal(c.target, target, c.reason);
      }
    };

    it("buys the Staff of Air once it has the coins, and the pickaxe for essence with the coins for it", () => {
      allAre(base({ coins: 150, availableGoals: opts(shopping("staff_of_air", "air_rune", "mind_rune", "fishing_rod")) }), "shopping", "staff_of_air");
      // A full inventory has no room for it: banked first.
      const full = Array.from({ length: 28 }, (_, slot) => ({ slot, itemId: "rune_essence", quantity: 1 }));
      assert.notEqual(
        new ScriptedBrain(know, "m").choose(
          base({
            coins: 150,
            inventory: full,
            freeSlots: 0,
            availableGoals: opts(shopping("staff_of_air"), { type: "banking", description: "Bank", targets: [] }),
          }),
        ).target,
        "staff_of_air",
      );
      const noPick = base({
        coins: 45,
        inventory: [{ slot: 0, itemId: "bronze_hatchet", quantity: 1 }],
        availableGoals: opts(shopping("bronze_pickaxe", "staff_of_air")),
      });
      allAre(noPick, "shopping", "bronze_pickaxe");
    });

    it("short of the staff, sells its bow and other skills' tools when the sale reaches the price; never the pickaxe, essence or runes", () => {
      // The seed-1 run of results-ladder-magic-s28.json: 136-141 of 150 coins for 5,000 ticks, a shortbow and 50 arrows carried.
      const inventory = [
        { slot: 0, itemId: "shortbow", quantity: 1 },
        { slot: 1, itemId: "bronze_arrow", quantity: 50 },
        { slot: 2, itemId: "bronze_pickaxe", quantity: 1 },
        { slot: 3, itemId: "rune_essence", quantity: 1 },
        { slot: 4, itemId: "air_rune", quantity: 3 },
        { slot: 5, itemId: "mind_rune", quantity: 3 },
        { slot: 6, itemId: "tinderbox", quantity: 1 },
      ];
      const obs = base({ coins: 136, inventory, freeSlots: 21 });
      const sale = staffSale(obs, know)!;
      assert.equal(sale.price, 150);
      const sold = surplus(inventory, know, sale.keep, sale.release).map((s) => s.itemId);
      assert.deepEqual(sold.sort(), ["bronze_arrow", "shortbow", "tinderbox"]);
      const trip = saleTrip(inventory, know, obs.position, sale.keep, sale.release)!;
      assert.ok(trip.coins >= 14, `the sale pays the 14 coins short (${trip.coins})`);
      const selling = { type: "selling", description: "Sell", targets: [trip.storeId] };
      allAre(base({ coins: 136, inventory, freeSlots: 21, availableGoals: opts(selling) }), "selling", trip.storeId);
      // Kept as before: without the focus, with the coins, with the staff, or a sale too small to reach the price.
      assert.equal(staffSale({ ...obs, focus: undefined }, know), undefined);
      assert.equal(staffSale({ ...obs, coins: 150 }, know), undefined);
      assert.equal(staffSale({ ...obs, equipment: { weapon: "staff_of_air" } }, know), undefined);
      assert.deepEqual(
        surplus(inventory, know).map((s) => s.itemId),
        ["rune_essence"],
        "an ordinary sale keeps the bow, arrows and tools",
      );
      for (const c of choose(base({ coins: 20, inventory, freeSlots: 21, availableGoals: opts(selling) }))) assert.notEqual(c.type, "selling", c.reason);
    });

    it("buys only what casting takes: no other tool, runes once it holds the staff, a better pickaxe with the staff's coins left", () => {
      const idle = { type: "idle", description: "", targets: [] };
      for (const c of choose(base({ coins: 149, availableGoals: opts(shopping("small_fishing_net", "staff_of_air", "mind_rune", "iron_pickaxe")) })))
        assert.notEqual(c.type, "shopping", c.reason);
      allAre(base({ coins: 100, availableGoals: [shopping("small_fishing_net", "staff_of_air"), idle], focus: undefined }), "shopping", "small_fishing_net");
      // With the staff wielded: mind runes with the coins beyond those kept (fighting.ts runePurchase), never the net.
      const staff = { weapon: "staff_of_air" };
      allAre(base({ coins: 100, equipment: staff, availableGoals: [shopping("small_fishing_net"), idle] }), "idle");
      allAre(base({ coins: 200, equipment: staff, availableGoals: [shopping("small_fishing_net", "mind_rune"), idle] }), "shopping", "mind_rune");
      allAre(base({ coins: 170, equipment: staff, availableGoals: [shopping("iron_pickaxe"), idle] }), "shopping", "iron_pickaxe");
    });

    it("mines essence before quests that pay nothing toward Magic and before melee; with the staff before any quest", () => {
      allAre(base({ equipment: { weapon: "staff_of_air" }, availableGoals: opts() }), "mining", "rock_essence");
      allAre(base({ availableGoals: opts() }), "mining", "rock_essence");
      // A quest paying coins comes first while the staff is still to buy.
      const coinQuest = opts({ type: "quest", description: "Do a quest", targets: ["keeping_your_footing"] }).filter(
        (o) => o.targets[0] !== "hides_for_the_vats",
      );
      allAre(base({ availableGoals: coinQuest }), "quest");
      allAre(base({ equipment: { weapon: "staff_of_air" }, availableGoals: coinQuest }), "mining", "rock_essence");
    });

    it("casts with runes for MIN_FIGHT_CASTS or more (the staff carried counts), and mines with fewer", () => {
      const mind = (n: number) => ({ slot: 5, itemId: "mind_rune", quantity: n });
      const withStaff = (n: number) =>
        base({ inventory: [...base().inventory, { slot: 4, itemId: "staff_of_air", quantity: 1 }, mind(n)], availableGoals: opts() });
      allAre(withStaff(MIN_FIGHT_CASTS), "combat");
      allAre(withStaff(MIN_FIGHT_CASTS - 1), "mining", "rock_essence");
      allAre(base({ inventory: [...base().inventory, mind(30), { slot: 6, itemId: "air_rune", quantity: 30 }], availableGoals: opts() }), "combat");
    });

    it("banks clutter (hides, logs) before a load of essence, once, and not with essence in the pack", () => {
      const hides = Array.from({ length: 6 }, (_, i) => ({ slot: 4 + i, itemId: "cowhide", quantity: 1 }));
      const bank = { type: "banking", description: "Bank", targets: [] };
      const cluttered = base({ inventory: [...base().inventory, ...hides], freeSlots: 20, equipment: { weapon: "staff_of_air" }, availableGoals: opts(bank) });
      assert.notEqual(new ScriptedBrain(know, "m").choose({ ...cluttered, equipment: {} }).type, "banking", "not before it holds the staff");
      const kit = (inventory: { itemId: string; quantity: number }[], weaponId?: string) => ({ skills: {}, inventory, weaponId, coins: 0 });
      assert.equal(casterClutter(know, kit(cluttered.inventory)), 7, "the hides and the hatchet");
      allAre(cluttered, "banking");
      allAre({ ...cluttered, recentGoals: [{ type: "banking", outcome: "done" }] }, "mining", "rock_essence");
      const essence = { slot: 12, itemId: "rune_essence", quantity: 1 };
      allAre({ ...cluttered, inventory: [...cluttered.inventory, essence] }, "mining", "rock_essence");
      // A caster keeps its pickaxe, its staff, the runes its staff does not stand for, coins and CASTER_FOOD food;
      // the hatchet, the air runes (with the staff), a bow and the rest of the food go to the bank.
      const pack = [
        stack("bronze_pickaxe", 1),
        stack("staff_of_air", 1),
        stack("mind_rune", 40),
        stack("coins", 9),
        ...Array.from({ length: CASTER_FOOD }, () => stack("bread", 1)),
      ];
      assert.equal(casterClutter(know, kit(pack)), 0);
      assert.equal(casterClutter(know, kit([...pack, stack("bronze_hatchet", 1), stack("air_rune", 30), stack("shortbow", 1), stack("bread", 1)])), 4);
      assert.equal(casterClutter(know, kit([stack("air_rune", 30), stack("mind_rune", 30)])), 0, "without a staff, both runes are kept");
      const keep = casterKeep(know, kit(pack));
      assert.deepEqual(["bronze_pickaxe", "iron_pickaxe", "staff_of_air", "mind_rune", "air_rune", "bronze_hatchet", "hammer"].filter(keep), [
        "bronze_pickaxe",
        "iron_pickaxe",
        "staff_of_air",
        "mind_rune",
      ]);
    });

    it("takes the quests paying toward Magic (coins, runes) first, and the others after its own goals", () => {
      const quests = opts().map((o) => (o.type === "quest" ? { ...o, targets: ["hides_for_the_vats", "keeping_your_footing"] } : o));
      allAre(base({ availableGoals: quests }), "quest", "keeping_your_footing");
    });

    it("binds a full load of essence into the rune it lacks: air with mind in hand, mind with the staff", () => {
      const load = (extra: { itemId: string; quantity: number }[], equipment: Record<string, string> = {}) =>
        base({
          inventory: [...extra, ...Array.from({ length: 28 - extra.length }, () => ({ itemId: "rune_essence", quantity: 1 }))].map((s, slot) => ({
            ...s,
            slot,
          })),
          freeSlots: 0,
          equipment,
          availableGoals: [
            { type: "making", description: "Make", targets: [MIND, AIR] },
            { type: "banking", description: "Bank", targets: [] },
          ],
        });
      allAre(load([stack("bronze_pickaxe", 1), stack("mind_rune", 20)]), "making", AIR);
      allAre(load([stack("bronze_pickaxe", 1), stack("air_rune", 20)]), "making", MIND);
      allAre(load([stack("bronze_pickaxe", 1), stack("mind_rune", 20)], { weapon: "staff_of_air" }), "making", MIND);
      // Unfocused, the highest recipe, as before.
      assert.equal(new ScriptedBrain(know, "m").choose({ ...load([stack("bronze_pickaxe", 1), stack("mind_rune", 20)]), focus: undefined }).target, MIND);
    });
  });

  describe("the fight", () => {
    const sync = (over: Partial<Self> = {}): Self => selfOf({ skills: { magic: { level: 1, xp: 0 } }, ...over });
    const cow: Entry = { id: "c1", kind: "npc", x: 0, z: 0, ref: "brindle_cow", name: "Brindle cow", health: 80, maxHealth: 80, level: 2, dead: false };
    function agent(self: Self) {
      const spot = know.mobSpots.get("brindle_cow")![0]!;
      const view = viewOf(self, spot, [{ ...cow, x: spot.x + 2, z: spot.z }]);
      const { ctx, sent } = ctxOf(know, view, "magic");
      return { view, ctx, sent };
    }

    it("wields a carried Staff of Air first when it makes Wind Strike castable, then casts; not a melee weapon over it", () => {
      const inventory = [
        { slot: 0, itemId: "bronze_sword", quantity: 1 },
        { slot: 3, itemId: "staff_of_air", quantity: 1 },
        { slot: 4, itemId: "mind_rune", quantity: 20 },
      ];
      assert.equal(staffToWield(kitOf(sync({ inventory })), know), "staff_of_air");
      const a = agent(sync({ inventory }));
      const fight = new Fight("brindle_cow", { castOnly: true });
      fight.step(a.ctx);
      assert.deepEqual(a.sent.filter((s) => s.type !== "player:setRun")[0], { type: "inventory:use", data: { slot: 3 } });
      // Wielded (the sync a tick later): Wind Strike on the cow, and the sword stays in the pack.
      a.view.sync(sync({ inventory: inventory.filter((s) => s.slot !== 3), equipment: { weapon: { itemId: "staff_of_air", quantity: 1 } } }));
      assert.equal(castableSpell(kitOf(a.view.self!), know)?.id, "wind_strike");
      assert.equal(staffToWield(kitOf(a.view.self!), know), undefined, "wielded already");
      a.ctx.tick = 1;
      fight.step(a.ctx);
      assert.deepEqual(a.sent.at(-1), { type: "player:action", data: { action: "cast", spellId: "wind_strike", targetId: "c1" } });
      assert.ok(!a.sent.some((s) => s.type === "inventory:use" && s.data.slot === 0), "the sword is not wielded over the staff");
      // No mind runes: the staff alone casts nothing, and is not wielded for it.
      assert.equal(staffToWield(kitOf(sync({ inventory: [{ slot: 3, itemId: "staff_of_air", quantity: 1 }] })), know), undefined);
    });

    it("a cast-only fight ends once its runes run out; an ordinary one fights on in melee", () => {
      const runes = [
        { slot: 0, itemId: "air_rune", quantity: 1 },
        { slot: 1, itemId: "mind_rune", quantity: 1 },
      ];
      for (const castOnly of [true, false]) {
        const a = agent(sync({ inventory: runes }));
        const fight = new Fight("brindle_cow", { castOnly });
        assert.equal(fight.step(a.ctx).end, undefined);
        assert.equal(a.sent.at(-1)?.data.action, "cast");
        a.view.sync(sync({ inventory: [] }));
        a.ctx.tick = 5;
        const out = fight.step(a.ctx);
        if (castOnly) assert.equal(out.end, "done");
        else {
          assert.equal(out.end, undefined);
          for (let t = 6; t < 20; t++) {
            a.ctx.tick = t;
            assert.equal(fight.step(a.ctx).end, undefined);
          }
          assert.ok(
            a.sent.some((s) => s.data.action === "attack"),
            "melee on",
          );
        }
      }
      // Never cast (no runes from the start): a cast-only fight is an ordinary one.
      const b = agent(sync());
      const fight = new Fight("brindle_cow", { castOnly: true });
      for (let t = 0; t < 3; t++) {
        b.ctx.tick = t;
        assert.equal(fight.step(b.ctx).end, undefined);
      }
      assert.ok(b.sent.some((s) => s.data.action === "attack"));
    });
  });

  it("a cast-only fight picks up coins and runes, not hides, meat or bones", () => {
    const ctx = { know } as Ctx;
    assert.ok(casterLoot(ctx, "coins"));
    assert.ok(casterLoot(ctx, "mind_rune"));
    for (const junk of ["cowhide", "raw_meat", "bones"]) assert.ok(!casterLoot(ctx, junk), junk);
  });

  it("the server offers the elemental staves for sale while the character holds none", async () => {
    const content = await bundledContent();
    const data = (inventory: string[], weapon?: string) =>
      ({
        skills: Object.fromEntries(SKILLS.map((k) => [k, { level: 1, xpTenths: 0 }])),
        inventory: inventory.map((itemId, slot) => ({ slot, itemId, quantity: 1 })),
        equipment: weapon === undefined ? {} : { weapon: { itemId: weapon, quantity: 1 } },
        bank: [],
        quests: {},
      }) as unknown as PlayerData;
    const targets = (d: PlayerData) => availableGoals(content, d).find((g) => g.type === "shopping")?.targets ?? [];
    assert.ok(targets(data([])).includes("staff_of_air"));
    assert.match(availableGoals(content, data([])).find((g) => g.type === "shopping")!.description, /a staff/);
    assert.ok(!targets(data(["staff_of_water"])).some((id) => content.magic.staves.has(id)), "one carried: none");
    assert.ok(!targets(data([], "staff_of_air")).some((id) => content.magic.staves.has(id)), "one wielded: none");
  });
});
