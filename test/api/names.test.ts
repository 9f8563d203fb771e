/**
 * Characters' names are unique as players read them (src/game/names.ts): creation and renaming
 * refuse a name that reads as another character's, on both databases, and lookups by name find
 * the one character whose name reads so.
 */
import assert from "node:assert/strict";
import { Character } from "../../entities/index.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { forEachDialect } from "../support/dialects.ts";
import { callJson } from "../support/http.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

const TAKEN = { code: "NAME_TAKEN", message: "That name is taken (or reads the same as one that is)" };
// Anonymous identities count as authentication attempts (10/min): this suite needs more.
const ENV = { DISABLE_RATE_LIMIT: "true" };

forEachDialect("character names as players read them", (ctx) => {
  let t: TestServer;
  let zezima: { token: string; characterId: string };

  const anonymous = async () => String((await callJson(t.baseUrl, "POST", "/api/auth/anonymous")).body.token);
  const names = async () => (await t.server.db.em().find(Character, {}, { orderBy: { name: "asc" } })).map((c) => c.name);

  before(async () => {
    t = await startTestServer({ ...ENV, DATABASE_URL: ctx.url });
    const token = await anonymous();
    const created = await callJson(t.baseUrl, "POST", "/api/v1/player", token, { name: "Zezima" });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    zezima = { token, characterId: String(created.body.player.characterId) };
  });
  after(() => t.close());

  for (const lookalike of ["zezima", "ZEZIMA", "Zezlma", "ZezIma", "Zez1ma", "Zez_ima", "Zez ima", "Zez-ima"]) {
    it(`refuses to create ${lookalike} beside Zezima (409 NAME_TAKEN), on both creation routes, and creates nothing`, async () => {
      const before = await names();
      const first = await callJson(t.baseUrl, "POST", "/api/v1/player", await anonymous(), { name: lookalike });
      assert.equal(first.status, 409);
      assert.deepEqual(first.body.error, TAKEN);
      const another = await callJson(t.baseUrl, "POST", "/api/character", await anonymous(), { name: lookalike });
      assert.equal(another.status, 409);
      assert.deepEqual(another.body.error, TAKEN);
      assert.deepEqual(await names(), before);
    });
  }

  it("refuses a first login that names its new character Zez1ma, on /ws (close 4000) and on the Colyseus room (400), and creates nothing", async () => {
    const before = await names();
    const ws = await WsTestClient.connect(`${t.wsUrl}?token=${await anonymous()}&name=Zez1ma`);
    const refused = await ws.next("error");
    assert.deepEqual(refused, { code: "INVALID_PAYLOAD", message: TAKEN.message });
    assert.equal((await ws.waitClosed()).code, 4000);
    await assert.rejects(WorldTestClient.join(t.baseUrl, { token: await anonymous(), name: "ZEZ_1MA" }), (err: Error & { code?: number }) => {
      assert.equal(err.code, 400);
      assert.match(err.message, /reads the same/);
      return true;
    });
    assert.deepEqual(await names(), before);
  });

  it("refuses an account's second character whose name reads as its first's", async () => {
    const r = await callJson(t.baseUrl, "POST", "/api/character", zezima.token, { name: "ZEZ1MA" });
    assert.equal(r.status, 409);
    assert.equal(r.body.error.code, "NAME_TAKEN");
    assert.equal((await callJson(t.baseUrl, "GET", "/api/character", zezima.token)).body.characters.length, 1);
  });

  it("still creates names that differ (Bob and Rob, Zezimo)", async () => {
    for (const name of ["Bob", "Rob", "Zezimo"]) {
      const r = await callJson(t.baseUrl, "POST", "/api/character", await anonymous(), { name });
      assert.equal(r.status, 201, `${name}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.character.name, name);
    }
  });

  it("refuses to rename a character to a name that reads as another's, and leaves the name as it was", async () => {
    const token = await anonymous();
    assert.equal((await callJson(t.baseUrl, "POST", "/api/v1/player", token, { name: "Renamer" })).status, 201);
    const r = await callJson(t.baseUrl, "POST", "/api/v1/player", token, { name: "zez_1ma" });
    assert.equal(r.status, 409);
    assert.deepEqual(r.body.error, TAKEN);
    assert.equal((await callJson(t.baseUrl, "GET", "/api/v1/player", token)).body.player.name, "Renamer");
  });

  it("renames a character to another case or look of its own name", async () => {
    const token = await anonymous();
    assert.equal((await callJson(t.baseUrl, "POST", "/api/v1/player", token, { name: "Own Name" })).status, 201);
    const r = await callJson(t.baseUrl, "POST", "/api/v1/player", token, { name: "own_name" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal((await callJson(t.baseUrl, "GET", "/api/v1/player", token)).body.player.name, "own_name");
  });

  it("ends two concurrent creations of look-alike names with one 201 and one 409", async () => {
    const tokens = await Promise.all([anonymous(), anonymous(), anonymous(), anonymous()]);
    const replies = await Promise.all(
      tokens.map((token, i) =>
        callJson(t.baseUrl, "POST", i % 2 === 0 ? "/api/character" : "/api/v1/player", token, { name: ["Racer", "RACER", "Race_r", "Racer"][i] }),
      ),
    );
    assert.deepEqual(replies.map((r) => r.status).sort(), [201, 409, 409, 409], JSON.stringify(replies.map((r) => r.body)));
    for (const r of replies.filter((x) => x.status === 409)) assert.deepEqual(r.body.error, TAKEN);
    assert.equal((await names()).filter((n) => n.toLowerCase().replace("_", "") === "racer").length, 1);
  });

  it("finds Zezima by any name that reads as it, and no one by a name that does not", async () => {
    for (const asked of ["Zezima", "zezima", "ZEZ1MA", "zez_lma"]) {
      const r = await callJson(t.baseUrl, "GET", `/api/player/by-name/${encodeURIComponent(asked)}`, zezima.token);
      assert.equal(r.status, 200, asked);
      assert.deepEqual([r.body.player.id, r.body.player.name], [zezima.characterId, "Zezima"]);
    }
    const none = await callJson(t.baseUrl, "GET", "/api/player/by-name/Zezimu", zezima.token);
    assert.equal(none.status, 404);
  });

  it("sends a friend request by a name that reads as another player's to that player", async () => {
    const target = await anonymous();
    assert.equal((await callJson(t.baseUrl, "POST", "/api/v1/player", target, { name: "Friendly" })).status, 201);
    const token = await anonymous();
    assert.equal((await callJson(t.baseUrl, "POST", "/api/v1/player", token, { name: "Admirer" })).status, 201);
    const asked = await callJson(t.baseUrl, "POST", "/api/v1/social/friends", token, { name: "FRIEND1Y" });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    const theirs = (await callJson(t.baseUrl, "GET", "/api/v1/social", target)).body;
    assert.deepEqual(
      theirs.incoming.map((r: { name: string }) => r.name),
      ["Admirer"],
    );
  });

  it("bans by a name that reads as the character's, and refuses a name that reads as no one's", async () => {
    const admin = await t.server.tokens.signServiceToken({ accountId: "ops-admin", role: "admin" }, 600);
    const token = await anonymous();
    const created = await callJson(t.baseUrl, "POST", "/api/v1/player", token, { name: "Rule Breaker" });
    assert.equal(created.status, 201);
    const banned = await callJson(t.baseUrl, "POST", "/api/admin/ban", admin, { name: "RU1E_breaker", minutes: 60 });
    assert.equal(banned.status, 200, JSON.stringify(banned.body));
    assert.equal((await callJson(t.baseUrl, "GET", "/api/v1/player", token)).status, 403);
    const unknown = await callJson(t.baseUrl, "POST", "/api/admin/ban", admin, { name: "Rule Breakers", minutes: 60 });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, "UNKNOWN_PLAYER");
  });
});
