/**
 * A scripted agent making every other kind on a real server (the runtime a separate process, as in
 * production), one case a kind: given the tools and the inputs and the `making` goal, it fletches
 * logs with a knife, binds rune essence at the air altar, tans hides at the tanner for coins, sews
 * leather with a needle and thread, and fetches ores it banked to smelt them. What it made and
 * learnt is read on the server (the live character's inventory, bank and xp), never taken from the
 * runtime's word. Numbers are the default world's recipes (world/assets/manifests/recipes/).
 */
import assert from "node:assert/strict";
import { callJson as call } from "../support/http.ts";
import { eventually as waitFor } from "../support/until.ts";
import { startAgentRuntime, type RuntimeProcess } from "../support/agentRuntime.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const eventually = <T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 90_000) => waitFor(probe, what, ms);
const TICK_MS = 100;

type Skill = "fletching" | "runecrafting" | "crafting" | "smithing";
interface Case {
  name: string;
  /** Put in the inventory (a stackable item onto its stack). */
  give: [string, number][];
  /** Coins given (the character's purse, not an item). */
  purse?: number;
  /** Put in the bank. */
  bank?: [string, number][];
  target: string;
  /** Carried more when done. */
  made: [string, number][];
  /** Carried no more of these. */
  gone: string[];
  xp?: [Skill, number];
  /** Coins spent. */
  coins?: number;
}

const CASES: Case[] = [
  // 15 arrow shafts a log, 5 xp (fletching.json).
  {
    name: "fletches logs into arrow shafts with a knife",
    give: [
      ["knife", 1],
      ["logs", 2],
    ],
    target: "fletching:arrow_shaft",
    made: [["arrow_shaft", 30]],
    gone: ["logs"],
    xp: ["fletching", 100],
    coins: 0,
  },
  // An air rune an essence at level 1, 5 xp an essence, at the air altar (runecrafting.json).
  {
    name: "binds rune essence into air runes at the air altar",
    give: [["rune_essence", 3]],
    target: "runecrafting:air_rune",
    made: [["air_rune", 3]],
    gone: ["rune_essence"],
    xp: ["runecrafting", 150],
    coins: 0,
  },
  // Soft leather for a coin a hide at the tanner (tanning.json): no skill, no xp.
  {
    name: "tans hides into leather at the tanner, paying its fee",
    give: [["cowhide", 2]],
    purse: 10,
    target: "tanning:leather",
    made: [["leather", 2]],
    gone: ["cowhide"],
    coins: 2,
  },
  // Leather gloves, 13.8 xp, a needle kept and a thread for five (crafting.json).
  {
    name: "sews leather into gloves with a needle and thread",
    give: [
      ["needle", 1],
      ["thread", 1],
      ["leather", 2],
    ],
    target: "crafting:leather_gloves",
    made: [["leather_gloves", 2]],
    gone: ["leather"],
    xp: ["crafting", 276],
    coins: 0,
  },
  // Banked ores: to the bank first, then the furnace (6.5 xp a bar) and the anvil with the hammer (a dagger a bar, 12.5 xp).
  {
    name: "withdraws the ores it banked, smelts them and smiths the bars",
    give: [["hammer", 1]],
    bank: [
      ["copper_ore", 2],
      ["tin_ore", 2],
    ],
    target: "smelting:bronze_bar",
    made: [["bronze_dagger", 2]],
    gone: ["copper_ore", "tin_ore", "bronze_bar"],
    xp: ["smithing", 2 * 65 + 2 * 125],
    coins: 0,
  },
];

describe("a scripted agent making each kind on a real server", function () {
  this.timeout(600_000);
  let t: TestServer;
  let rt: RuntimeProcess;
  let owner: { token: string; characterId: string };
  let agentId: string;

  const player = () => t.server.world.world.players.get(owner.characterId)!;
  const count = (itemId: string) => player().data.inventory.reduce((n, s) => (s?.itemId === itemId ? n + s.quantity : n), 0);
  const banked = (itemId: string) => player().data.bank.reduce((n, s) => (s.itemId === itemId ? n + s.quantity : n), 0);

  const give = (itemId: string, quantity: number) => {
    const inv = player().data.inventory;
    const stackable = t.server.content.item(itemId)?.stackable === true;
    const stack = stackable ? inv.findIndex((s) => s?.itemId === itemId) : -1;
    if (stack >= 0) inv[stack] = { itemId, quantity: inv[stack]!.quantity + quantity };
    else if (stackable) inv[inv.indexOf(null)] = { itemId, quantity };
    else for (let i = 0; i < quantity; i++) inv[inv.indexOf(null)] = { itemId, quantity: 1 };
    player().syncDue = true;
  };

  before(async () => {
    t = await startTestServer({ TICK_MS: String(TICK_MS), DISABLE_RATE_LIMIT: "true" });
    const anon = (await call(t.baseUrl, "POST", "/api/auth/anonymous")).body;
    const created = await call(t.baseUrl, "POST", "/api/v1/player", anon.token, { name: "Tinker" });
    owner = { token: anon.token, characterId: created.body.player.characterId };
    const reg = await call(t.baseUrl, "POST", "/api/agent", owner.token, { characterId: owner.characterId, name: "Tinker" });
    assert.equal(reg.status, 201);
    agentId = reg.body.agent.agentId;
    // Paused: it chooses nothing by itself; each case gives it its goal.
    assert.equal((await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal/stop`, owner.token)).status, 200);
    rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir, env: { AGENT_SEED: "making-kinds" } });
    assert.equal((await call(rt.url, "POST", "/agents", owner.token, { agentId, token: reg.body.token })).status, 201);
    await eventually(() => t.server.world.world.players.get(owner.characterId), "the agent's character in the world");
  });

  after(async () => {
    await rt?.stop();
    await t?.close();
  });

  for (const c of CASES) {
    it(c.name, async () => {
      // No inventory left over from the case before (its products), so that every case has room.
      const p = player();
      p.data.inventory = p.data.inventory.map((s) => (s !== null && s.itemId === "bronze_dagger" ? s : null));
      for (const [itemId, quantity] of c.give) give(itemId, quantity);
      for (const [itemId, quantity] of c.bank ?? []) p.data.bank.push({ itemId, quantity });
      p.data.coins += c.purse ?? 0;
      const before = new Map(c.made.map(([id]) => [id, count(id)]));
      const xp = c.xp === undefined ? 0 : p.data.skills[c.xp[0]].xpTenths;
      const coins = p.data.coins;
      const { availableGoals } = (await call(t.baseUrl, "GET", `/api/agents/${agentId}/goal`, owner.token)).body;
      const making = availableGoals.find((g: { type: string }) => g.type === "making");
      assert.ok(making?.targets.includes(c.target), `${c.target} offered: ${JSON.stringify(making)}`);
      const set = await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal`, owner.token, { type: "making", target: c.target });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      const done = () => c.made.every(([id, n]) => count(id) === before.get(id)! + n) && c.gone.every((id) => count(id) === 0 && banked(id) === 0);
      await eventually(() => (done() ? true : undefined), `${c.name}: ${JSON.stringify(c.made)}`).catch(async (err) => {
        const seen = (await call(rt.url, "GET", `/agents/${agentId}`, owner.token)).body;
        throw new Error(
          `${String(err)}; carried ${JSON.stringify(player().data.inventory.filter((s) => s !== null))}; the agent: ${JSON.stringify(seen.agent?.activity?.slice(0, 16))}`,
        );
      });
      if (c.xp !== undefined) assert.equal(player().data.skills[c.xp[0]].xpTenths - xp, c.xp[1]);
      if (c.coins !== undefined) assert.equal(coins - player().data.coins, c.coins);
      for (const [tool] of c.give.filter(([id]) => ["knife", "needle", "hammer"].includes(id))) assert.equal(count(tool), 1, `the ${tool} is kept`);
    });
  }
});
