/**
 * A hop between two real server processes (worlds 1 and 2 on one Redis and one PostgreSQL
 * database, as cluster.test.ts starts them) carries a quest in progress: A Settler's Charter
 * started at Warden Tamsin in world 1 over `/ws`, then the hop; world 2's `quest:list` at login
 * shows it at the same stage, and Tamsin there reminds of that stage rather than offering it again.
 */
import assert from "node:assert/strict";
import { startHopWorlds, type HopWorlds } from "../support/hopWorlds.ts";
import { entryOf, startQuestOverWs } from "../support/questProtocol.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const HOP_COOLDOWN_S = 2;
const TICK_MS = 50;
const QUEST = "settlers_charter";

describe("a hop between two processes carries a quest in progress (Redis, PostgreSQL)", function () {
  this.timeout(120_000);
  let worlds: HopWorlds | undefined;

  before(async function () {
    if (!process.env.TEST_PG_URL || !process.env.TEST_REDIS_URL) this.skip();
    worlds = await startHopWorlds("hop-quest", { tickMs: TICK_MS, hopCooldownS: HOP_COOLDOWN_S });
  });

  after(async () => {
    await worlds?.close();
  });

  const post = (path: string, token?: string, body?: object) => worlds!.post(path, token, body);
  const login = (world: number, query: string) => worlds!.login(world, query);

  it("keeps A Settler's Charter in progress at its stage from world 1 to world 2", async () => {
    const { token } = await post("/api/auth/anonymous");
    const created = await post("/api/v1/player", String(token), { name: "Hopquester" });
    const characterId = String(created.player.characterId);
    const first = await login(1, `token=${token}&characterId=${characterId}`);
    assert.ok(first.sync, JSON.stringify(first.refused));
    const atLogin = await first.client.next("quest:list", 10_000);
    assert.equal(entryOf(atLogin, QUEST)?.status, "not_started");
    const progress = await startQuestOverWs(first.client, "warden_tamsin", "A Settler's Charter: I'd like to help.");
    assert.deepEqual([progress.questId, progress.status, progress.stage], [QUEST, "in_progress", "cull_rats"]);

    // The hop (after the cooldown): world 1's copy ends, world 2 loads what it saved.
    let hop = await login(2, `token=${token}&characterId=${characterId}`);
    if (hop.refused?.code === "HOP_COOLDOWN") {
      await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(String(hop.refused!.until)) - Date.now()) + 100));
      hop = await login(2, `token=${token}&characterId=${characterId}`);
    }
    assert.ok(hop.sync, JSON.stringify(hop.refused));
    await first.client.waitClosed(10_000);
    const list = await hop.client.next("quest:list", 10_000);
    assert.deepEqual(entryOf(list, QUEST), {
      id: QUEST,
      name: "A Settler's Charter",
      status: "in_progress",
      stage: "cull_rats",
      stageText: "Kill 5 meadow rats",
      progress: { count: 0, required: 5 },
    });
    // World 2's Tamsin knows: a reminder of the stage, no second offer.
    const npc = await (async () => {
      for (;;) {
        const u = await hop.client.next("world:update", 10_000);
        const found = (u.entities as Json[]).find((e) => e.kind === "npc" && e.ref === "warden_tamsin");
        if (found) return String(found.id);
      }
    })();
    hop.client.send("player:action", { action: "talk", targetId: npc });
    const open = await hop.client.next("dialogue:open", 10_000);
    const texts = (open.options as { text: string }[]).map((o) => o.text);
    assert.ok(texts.includes("About A Settler's Charter…") && !texts.includes("A Settler's Charter: I'd like to help."), texts.join(", "));
    hop.client.socket.close(1000);
  });
});
