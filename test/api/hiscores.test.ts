/**
 * The hiscores over REST (a real server on SQLite): `GET /api/v1/hiscores` without a token, its
 * query's refusals, the per-process cache, and `GET /api/characters/:id/hiscores` with the other
 * character routes' access rules, and `GET /api/v1/hiscores/player/:name` for anyone. The ranking itself: test/db/hiscores.test.ts (both databases).
 */
import assert from "node:assert/strict";
import { Character } from "../../entities/index.ts";
import { AnswerCache, HISCORES_CACHE_MS } from "../../src/http/routes/hiscores.ts";
import { callJson, type Json } from "../support/http.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

describe("the hiscores over REST", function () {
  this.timeout(30_000);
  let t: TestServer;
  const get = (p: string, token?: string) => callJson(t.baseUrl, "GET", p, token);
  async function player(name: string): Promise<{ token: string; id: string }> {
    const anon = await callJson(t.baseUrl, "POST", "/api/auth/anonymous");
    const token = String(anon.body.token);
    const created = await callJson(t.baseUrl, "POST", "/api/v1/player", token, { name });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return { token, id: String(created.body.player.characterId) };
  }
  let top: { token: string; id: string };
  let other: { token: string; id: string };

  before(async () => {
    t = await startTestServer({ DISABLE_RATE_LIMIT: "true" });
    top = await player("Top Miner");
    other = await player("Other One");
    await t.server.db.em().nativeUpdate(Character, { id: top.id }, { miningLevel: 30, miningXpTenths: 13_363 * 10 });
  });
  after(() => t.close());

  it("answers a page without a token: overall by default, and a skill's", async () => {
    const overall = await get("/api/v1/hiscores");
    assert.equal(overall.status, 200, JSON.stringify(overall.body));
    assert.equal(overall.body.skill, "overall");
    assert.equal(overall.body.total, 2);
    assert.deepEqual(
      overall.body.entries.map((e: Json) => [e.rank, e.name, e.level]),
      [
        [1, "Top Miner", 26 + 29],
        [2, "Other One", 26],
      ],
    );
    const mining = await get("/api/v1/hiscores?skill=mining&limit=1&offset=1");
    assert.equal(mining.status, 200);
    assert.deepEqual(mining.body, { success: true, skill: "mining", total: 2, entries: [{ rank: 2, name: "Other One", level: 1, xp: 0 }] });
  });

  for (const [query, field] of [
    ["skill=sailing", "skill"],
    ["skill=", "skill"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=ten", "limit"],
    ["limit=2.5", "limit"],
    ["offset=-1", "offset"],
    ["page=2", "query"],
  ] as const) {
    it(`refuses ?${query} with 400 INVALID_PAYLOAD naming ${field}`, async () => {
      const res = await get(`/api/v1/hiscores?${query}`);
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, "INVALID_PAYLOAD");
      if (field !== "query") assert.match(res.body.error.message, new RegExp(`^${field}: `));
      else assert.match(res.body.error.message, /page/);
    });
  }

  it("gives a character's own ranks to its account, and refuses others", async () => {
    const mine = await get(`/api/characters/${other.id}/hiscores`, other.token);
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    assert.equal(mine.body.name, "Other One");
    assert.deepEqual(mine.body.ranks[0], { skill: "overall", rank: 2, level: 26, xp: 1_154 });
    assert.deepEqual(
      mine.body.ranks.find((r: Json) => r.skill === "mining"),
      { skill: "mining", rank: 2, level: 1, xp: 0 },
    );
    assert.equal((await get(`/api/characters/${other.id}/hiscores`)).status, 401);
    assert.equal((await get(`/api/characters/${other.id}/hiscores`, top.token)).status, 403);
    assert.equal((await get(`/api/characters/nobody/hiscores`, top.token)).status, 404);
  });

  it("looks up any player's ranks by name without a token, case and spacing aside; 404 for none", async () => {
    const found = await get(`/api/v1/hiscores/player/${encodeURIComponent("top  MINER")}`);
    assert.equal(found.status, 200, JSON.stringify(found.body));
    assert.equal(found.body.name, "Top Miner");
    assert.equal(found.body.characterId, undefined, "a name, never a character id");
    assert.deepEqual(found.body.ranks[0], { skill: "overall", rank: 1, level: 26 + 29, xp: 1_154 + 13_363 });
    assert.deepEqual(
      found.body.ranks.find((r: Json) => r.skill === "mining"),
      { skill: "mining", rank: 1, level: 30, xp: 13_363 },
    );
    const none = await get("/api/v1/hiscores/player/Nobody%20Here");
    assert.equal(none.status, 404, JSON.stringify(none.body));
    assert.equal(none.body.error.code, "NOT_FOUND");
    assert.equal((await get(`/api/v1/hiscores/player/${"x".repeat(33)}`)).status, 400);
  });
});

describe("the hiscores' answer cache", () => {
  it("keeps an answer for its time, shares one load between concurrent askers, and forgets failures", async () => {
    let now = 0;
    const cache = new AnswerCache(HISCORES_CACHE_MS, () => now);
    let loads = 0;
    const load = () => Promise.resolve(++loads);
    assert.deepEqual(await Promise.all([cache.get("a", load), cache.get("a", load)]), [1, 1]);
    now = HISCORES_CACHE_MS - 1;
    assert.equal(await cache.get("a", load), 1);
    now = HISCORES_CACHE_MS;
    assert.equal(await cache.get("a", load), 2);
    await assert.rejects(
      cache.get("b", () => Promise.reject(new Error("down"))),
      /down/,
    );
    assert.equal(await cache.get("b", load), 3, "a failed load is not kept");
  });
});
