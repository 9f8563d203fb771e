/**
 * A scripted agent fighting on a real server (the runtime a separate process, as in production):
 * its attack style trains Strength ahead of Attack ahead of Defence, it casts with runes and not without, it prays a
 * boost in the fight and recharges at the altar when its points run low, it runs only with energy to
 * spare, and it eats below half its health. What it does is read on the server (the live character), never taken from
 * the runtime's word.
 */
import assert from "node:assert/strict";
import { callJson as call } from "../support/http.ts";
import { eventually as waitFor } from "../support/until.ts";
import { startAgentRuntime, type RuntimeProcess } from "../support/agentRuntime.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const eventually = <T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 30_000) => waitFor(probe, what, ms);
const TICK_MS = 150;

describe("a scripted agent fighting on a real server", function () {
  this.timeout(120_000);
  let t: TestServer;
  let rt: RuntimeProcess;
  let owner: { token: string; characterId: string };
  let agentId: string;

  const player = () => t.server.world.world.players.get(owner.characterId);
  const count = (itemId: string) => player()!.data.inventory.reduce((n, s) => (s?.itemId === itemId ? n + s.quantity : n), 0);
  /** Changes the live character between ticks, as the game would, and has it synced to the agent. */
  const change = (fn: (p: NonNullable<ReturnType<typeof player>>) => void) => {
    const p = player()!;
    fn(p);
    p.syncDue = true;
  };
  const put = (slot: number, itemId: string, quantity: number) => change((p) => void (p.data.inventory[slot] = { itemId, quantity }));

  before(async () => {
    t = await startTestServer({ TICK_MS: String(TICK_MS), DISABLE_RATE_LIMIT: "true" });
    const anon = (await call(t.baseUrl, "POST", "/api/auth/anonymous")).body;
    const created = await call(t.baseUrl, "POST", "/api/v1/player", anon.token, { name: "Robin" });
    owner = { token: anon.token, characterId: created.body.player.characterId };
    const reg = await call(t.baseUrl, "POST", "/api/agent", owner.token, { characterId: owner.characterId, name: "Robin" });
    assert.equal(reg.status, 201);
    agentId = reg.body.agent.agentId;
    // The owner's goal: fight the meadow rats (kept while the test runs: 5 kills take a while at level 1).
    assert.equal((await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal`, owner.token, { type: "combat", target: "meadow_rat" })).status, 200);
    rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir, env: { AGENT_SEED: "combat" } });
    assert.equal((await call(rt.url, "POST", "/agents", owner.token, { agentId, token: reg.body.token })).status, 201);
    await eventually(() => player(), "the agent's character in the world");
    // Its quests done already: no quest goal takes it from the rats when its fights end.
    const quests = [...t.server.world.world.content.quests.quests.keys()];
    change((p) => void (p.data.quests = Object.fromEntries(quests.map((id) => [id, { status: "completed" as const, stage: 0, progress: 0, completions: 1 }]))));
  });

  after(async () => {
    await rt?.stop();
    await t?.close();
  });

  it("fights in the style of the skill it trains (Strength 5 ahead of Attack, Attack 5 ahead of Defence), and switches when one reaches its lead", async () => {
    change((p) => {
      p.data.equipment.weapon = { itemId: "bronze_sword", quantity: 1 };
      p.data.skills.attack = { level: 3, xpTenths: 1740 };
      p.data.skills.defense = { level: 2, xpTenths: 830 };
    });
    await eventually(() => (player()!.data.combatStyle === "aggressive" ? true : undefined), "the Strength style (Strength first)");
    change((p) => void (p.data.skills.strength = { level: 8, xpTenths: 8010 }));
    await eventually(() => (player()!.data.combatStyle === "accurate" ? true : undefined), "the Attack style (Strength 5 ahead of Attack)");
    change((p) => {
      p.data.skills.attack = { level: 7, xpTenths: 6500 };
      p.data.skills.strength = { level: 10, xpTenths: 11540 };
    });
    await eventually(() => (player()!.data.combatStyle === "defensive" ? true : undefined), "the Defence style (Attack 5 ahead of Defence)");
    // Meanwhile, without runes, it never casts.
    assert.equal(player()!.data.skills.magic.xpTenths, 0);
  });

  it("is offered the rune shop's runes and staves as shopping targets (to train Magic), besides the missing tools", async () => {
    const { availableGoals } = (await call(t.baseUrl, "GET", `/api/agents/${agentId}/goal`, owner.token)).body;
    const shopping = availableGoals.find((g: { type: string }) => g.type === "shopping");
    for (const rune of ["air_rune", "mind_rune", "water_rune", "earth_rune", "fire_rune", "chaos_rune"])
      assert.ok(shopping?.targets.includes(rune), `${rune}: ${JSON.stringify(shopping)}`);
    // The elemental staves too, while it holds none (a caster's: agent-runtime/brain/magicFocus.ts buys one under the magic focus).
    assert.ok(shopping.targets.includes("staff_of_air"), "a staff, besides the runes");
    assert.match(shopping.description, /a staff/);
    // The weapons the arms store sells (a better one is bought once affordable: brain/fighting.ts weaponUpgrade).
    for (const weapon of ["iron_sword", "iron_mace"]) assert.ok(shopping.targets.includes(weapon), weapon);
    assert.ok(!shopping.targets.includes("bronze_sword"), "not the sword it wields");
  });

  it("casts Wind Strike while it has the runes (each used once a cast), then fights on in melee", async () => {
    const magicXp = player()!.data.skills.magic.xpTenths;
    put(20, "air_rune", 3);
    put(21, "mind_rune", 3);
    await eventually(() => (count("air_rune") === 0 && count("mind_rune") === 0 ? true : undefined), "three casts", 60_000);
    // Wind Strike: 5.5 base xp (55 tenths) a cast, splash or hit, plus 2 a hitpoint of damage (magic.ts).
    assert.ok(player()!.data.skills.magic.xpTenths >= magicXp + 3 * 55, `magic xp ${player()!.data.skills.magic.xpTenths}`);
    const melee = player()!.data.skills.defense.xpTenths + player()!.data.skills.strength.xpTenths + player()!.data.skills.attack.xpTenths;
    await eventually(() => (player()!.action?.kind === "attack" ? true : undefined), "a melee attack again");
    await eventually(
      () =>
        player()!.data.skills.defense.xpTenths + player()!.data.skills.strength.xpTenths + player()!.data.skills.attack.xpTenths > melee ? true : undefined,
      "melee xp again",
      60_000,
    );
  });

  it("prays the boost for the skill it trains while it fights, with points", async () => {
    change((p) => {
      p.data.skills.prayer = { level: 10, xpTenths: 11_540 };
      p.data.prayerPoints = 10;
      // Melee at 20, where a 5 % boost adds a level (brain/fighting.ts boostPrayer: below, none is prayed, nor recharged).
      for (const skill of ["attack", "strength", "defense"] as const) p.data.skills[skill] = { level: 20, xpTenths: 44_700 };
    });
    await eventually(
      () => (player()!.activePrayers.some((id) => ["stoneward", "ember_vigour", "steady_hand"].includes(id)) ? true : undefined),
      "a boost prayer on",
    );
  });

  it("recharges its prayer points at the altar when they run low, then fights on", async () => {
    const altar = [...t.server.world.world.stations.values()].find((s) => s.type === "altar")!;
    assert.ok(altar, "the content's altar");
    // One point of ten left (below a quarter): to the altar, between two fights.
    change((p) => {
      p.data.prayerPoints = 1;
      p.activePrayers = [];
    });
    await eventually(() => (player()!.data.prayerPoints === 10 ? true : undefined), "the points restored at the altar", 60_000);
    const p = player()!;
    assert.ok(Math.max(Math.abs(p.x - altar.x), Math.abs(p.z - altar.z)) <= 1, `next to the altar: ${p.x},${p.z}`);
    await eventually(() => (player()!.action?.kind === "attack" ? true : undefined), "back to a fight");
  });

  it("runs with energy to spare and walks when it is low (read on the server: whether it runs while it has a path)", async () => {
    // Full energy, points low again: the walk to the altar runs.
    const runs: boolean[] = [];
    const watch = setInterval(() => {
      const p = player();
      if (p !== undefined && p.path.length > 0) runs.push(p.running);
    }, TICK_MS / 3);
    try {
      change((p) => {
        p.data.runEnergy = 10_000;
        p.data.prayerPoints = 1;
        p.activePrayers = [];
      });
      await eventually(() => (player()!.data.prayerPoints === 10 ? true : undefined), "a run to the altar", 60_000);
      assert.ok(runs.includes(true), `it ran: ${JSON.stringify(runs)}`);
      // Back at the rats with 20 % (below WALK_BELOW, 30 %): the next trip is walked.
      await eventually(() => (player()!.action?.kind === "attack" ? true : undefined), "back to a fight");
      change((p) => {
        p.data.runEnergy = 2_000;
        p.data.prayerPoints = 1;
        p.activePrayers = [];
      });
      // The toggle left on by the run goes off within a few ticks (the chase of a fight under way
      // runs by it until then); from then on every step is walked.
      await eventually(() => (player()!.runMode === false ? true : undefined), "the run toggle off", 20 * TICK_MS);
      runs.length = 0;
      await eventually(() => (player()!.data.prayerPoints === 10 ? true : undefined), "a walk to the altar", 60_000);
      assert.ok(runs.length > 0 && !runs.includes(true), `it walked: ${JSON.stringify(runs)}`);
    } finally {
      clearInterval(watch);
    }
  });

  it("eats below half its health, within a few ticks (at most 10)", async () => {
    const foods = () =>
      player()!.data.inventory.reduce((n, s) => (s !== null && (t.server.world.world.content.item(s.itemId)?.healAmount ?? 0) > 0 ? n + s.quantity : n), 0);
    put(22, "bread", 1);
    const before = foods();
    const max = player()!.maxHealth;
    const at = t.server.world.world.tick;
    change((p) => void (p.data.health = Math.floor(max * 0.45)));
    await eventually(() => (foods() < before ? true : undefined), "a bite");
    assert.ok(t.server.world.world.tick - at <= 10, `ate ${t.server.world.world.tick - at} ticks later`);
    assert.ok(player()!.data.health > Math.floor(max * 0.45), `health ${player()!.data.health}/${max}`);
  });
});
