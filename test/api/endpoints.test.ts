import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { jwtVerify } from "jose";
import { AgentMapping, Character, InventorySlot, NpcKill } from "../../entities/index.ts";
import { addXp } from "../../src/game/progression.ts";
import { loadOrCreatePlayer } from "../../src/persistence/players.ts";
import type { Saver } from "../../src/sessions/Saver.ts";
import { ROUTES } from "../../src/http/openapi.ts";
import { MAX_AGENTS_PER_ACCOUNT } from "../../src/agents/AgentService.ts";
import { MAX_CHARACTERS_PER_ACCOUNT } from "../../src/http/routes/api.ts";
import { forEachDialect } from "../support/dialects.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

interface Reply {
  status: number;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function call(t: TestServer, method: string, p: string, token?: string, body?: unknown): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(t.baseUrl + p, { method, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

async function account(t: TestServer, name?: string): Promise<{ token: string; characterId: string }> {
  const { body } = await call(t, "POST", "/api/auth/anonymous");
  const token = String(body.token);
  if (name === undefined) return { token, characterId: "" };
  const created = await call(t, "POST", "/api/v1/player", token, { name });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return { token, characterId: String(created.body.player.characterId) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Anonymous identities count as authentication attempts (10/min): these suites need more.
const ENV = { DISABLE_RATE_LIMIT: "true", TICK_MS: "50" };

describe("REST API: authentication on every bearer route", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer(ENV);
  });
  after(() => t.close());

  const bearerRoutes = Object.entries(ROUTES).flatMap(([p, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op.auth === "bearer")
      .map(([m]) => [m.toUpperCase(), p.replace(/\{(\w+)\}/g, "some-id")] as const),
  );

  it("covers every bearer route of the document", () => assert.ok(bearerRoutes.length >= 20));

  for (const [method, p] of bearerRoutes) {
    it(`${method} ${p}: 401 without a token and with a bad one`, async () => {
      const none = await call(t, method, p);
      assert.equal(none.status, 401);
      assert.equal(none.body.success, false);
      const bad = await call(t, method, p, "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.");
      assert.equal(bad.status, 401);
    });
  }
});

// On both databases: the account-lock races and the deletions behave differently under
// PostgreSQL's concurrency than under SQLite's one writer.
forEachDialect("REST API: players, world and characters", (ctx) => {
  let t: TestServer;
  let alice: { token: string; characterId: string };
  let bob: { token: string; characterId: string };
  before(async () => {
    t = await startTestServer({ ...ENV, DATABASE_URL: ctx.url });
    alice = await account(t, "Alice Api");
    bob = await account(t, "Bob Api");
  });
  after(() => t.close());

  describe("/api/v1/player", () => {
    it("GET: no character yet, then the created one", async () => {
      const fresh = await account(t);
      const before = await call(t, "GET", "/api/v1/player", fresh.token);
      assert.equal(before.status, 200);
      assert.equal(before.body.player, null);
      assert.deepEqual(before.body.characters, []);
      assert.equal(before.body.account.anonymous, true);
      const r = await call(t, "GET", "/api/v1/player", alice.token);
      assert.equal(r.body.player.characterId, alice.characterId);
      assert.equal(r.body.player.name, "Alice Api");
      assert.deepEqual(r.body.player.position, { x: 0, y: 10, z: 0 });
      assert.equal(r.body.characters.length, 1);
    });

    it("POST creates with 201 and a template's kit, then renames with 200", async () => {
      const acc = await account(t);
      const created = await call(t, "POST", "/api/v1/player", acc.token, { name: "Woody", templateId: "woodsman" });
      assert.equal(created.status, 201);
      const id = created.body.player.characterId;
      const items = await t.server.db.em().find(InventorySlot, { characterId: id });
      assert.ok(items.some((i) => i.itemId === "bronze_hatchet"));
      const renamed = await call(t, "POST", "/api/v1/player", acc.token, { name: "Woody Two" });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.player.name, "Woody Two");
      assert.equal((await call(t, "GET", "/api/v1/player", acc.token)).body.player.name, "Woody Two");
    });

    it("renames a player who is online, in the live world too", async () => {
      const acc = await account(t, "Live Name");
      const ws = await WsTestClient.connect(`${t.wsUrl}?token=${acc.token}`);
      await ws.next("welcome");
      assert.equal((await call(t, "POST", "/api/v1/player", acc.token, { name: "Live Renamed" })).status, 200);
      await sleep(200);
      assert.equal(t.server.world.world.players.get(acc.characterId)!.data.name, "Live Renamed");
      ws.close();
    });

    for (const [what, body, status, code] of [
      ["a too-short name", { name: "x" }, 400, "INVALID_PAYLOAD"],
      ["a name with forbidden characters", { name: "Bad!Name" }, 400, "INVALID_NAME"],
      ["a name of the wrong type", { name: 42 }, 400, "INVALID_PAYLOAD"],
      ["an unknown field", { name: "Fine Name", level: 99 }, 400, "INVALID_PAYLOAD"],
      ["a taken name", { name: "Bob Api" }, 409, "NAME_TAKEN"],
      ["nothing to change", {}, 400, "INVALID_PAYLOAD"],
      ["malformed JSON", "{nope", 400, "MALFORMED_JSON"],
    ] as const) {
      it(`POST refuses ${what} (${status}) and changes nothing`, async () => {
        const r = await call(t, "POST", "/api/v1/player", alice.token, body);
        assert.equal(r.status, status);
        assert.equal(r.body.error.code, code);
        assert.equal((await call(t, "GET", "/api/v1/player", alice.token)).body.player.name, "Alice Api");
      });
    }

    it("POST refuses an unknown template on creation", async () => {
      const acc = await account(t);
      const r = await call(t, "POST", "/api/v1/player", acc.token, { name: "Templated", templateId: "no-such" });
      assert.equal(r.status, 400);
      assert.equal((await call(t, "GET", "/api/v1/player", acc.token)).body.player, null);
    });
  });

  it("GET /api/v1/world: tick, world time, online players' public data, counts", async () => {
    const ws = await WsTestClient.connect(`${t.wsUrl}?token=${alice.token}`);
    await ws.next("welcome");
    const r = await call(t, "GET", "/api/v1/world", bob.token);
    assert.equal(r.status, 200);
    assert.equal(typeof r.body.tick, "number");
    assert.ok(!Number.isNaN(Date.parse(r.body.worldTime)));
    const me = r.body.players.find((p: { id: string }) => p.id === alice.characterId);
    assert.deepEqual(Object.keys(me).sort(), ["combatLevel", "id", "name", "x", "z"]);
    assert.ok(r.body.counts.online >= 1);
    ws.close();
  });

  describe("/api/characters/:characterId/{skills,position}", () => {
    it("gives the owner skills and position", async () => {
      const skills = await call(t, "GET", `/api/characters/${alice.characterId}/skills`, alice.token);
      assert.equal(skills.status, 200);
      assert.deepEqual(skills.body.skills.constitution, { level: 10, xp: 1154, xpExact: 1154 });
      assert.deepEqual(skills.body.skills.woodcutting, { level: 1, xp: 0, xpExact: 0 });
      const pos = await call(t, "GET", `/api/characters/${alice.characterId}/position`, alice.token);
      assert.deepEqual(pos.body, { success: true, position: { x: 0, y: 10, z: 0 }, online: false });
    });

    it("says online and reads the live world when the character is connected", async () => {
      const ws = await WsTestClient.connect(`${t.wsUrl}?token=${alice.token}`);
      await ws.next("welcome");
      ws.send("player:move", { x: 2, z: 1 });
      await sleep(400);
      const pos = await call(t, "GET", `/api/characters/${alice.characterId}/position`, alice.token);
      assert.deepEqual(pos.body, { success: true, position: { x: 2, y: 10, z: 1 }, online: true });
      ws.close();
    });

    it("gives whole xp and the exact xp kept in tenths", async () => {
      const ws = await WsTestClient.connect(`${t.wsUrl}?token=${alice.token}`);
      await ws.next("welcome");
      const world = t.server.world.world;
      const player = await until(() => world.players.get(alice.characterId), "alice in the world");
      const base = player.data.skills.mining.xpTenths;
      addXp(world, player, "mining", 17.5);
      const skills = await call(t, "GET", `/api/characters/${alice.characterId}/skills`, alice.token);
      assert.equal(skills.status, 200);
      assert.deepEqual(skills.body.skills.mining, { level: 1, xp: Math.floor((base + 175) / 10), xpExact: (base + 175) / 10 });
      ws.close();
    });

    it("refuses another account's character with 403 and an unknown one with 404", async () => {
      for (const what of ["skills", "position"]) {
        assert.equal((await call(t, "GET", `/api/characters/${alice.characterId}/${what}`, bob.token)).status, 403);
        assert.equal((await call(t, "GET", `/api/characters/nope/${what}`, bob.token)).status, 404);
      }
    });

    it("lets an admin read any character", async () => {
      const admin = await t.server.tokens.signServiceToken({ accountId: "ops-admin", role: "admin" }, 60);
      assert.equal((await call(t, "GET", `/api/characters/${alice.characterId}/skills`, admin)).status, 200);
    });
  });

  describe("/api/character", () => {
    it("lists, creates (from a template) and deletes your characters", async () => {
      const acc = await account(t, "Main Char");
      const made = await call(t, "POST", "/api/character", acc.token, { name: "Alt Angler", templateId: "angler" });
      assert.equal(made.status, 201);
      const list = await call(t, "GET", "/api/character", acc.token);
      assert.deepEqual(
        list.body.characters.map((c: { name: string }) => c.name),
        ["Main Char", "Alt Angler"],
      );
      assert.equal(list.body.characters[1].online, false);
      const del = await call(t, "DELETE", `/api/character/${made.body.character.id}`, acc.token);
      assert.deepEqual(del.body, { success: true, deleted: made.body.character.id });
      assert.equal((await call(t, "GET", "/api/character", acc.token)).body.characters.length, 1);
      assert.equal(await t.server.db.em().count(InventorySlot, { characterId: made.body.character.id }), 0, "its items went with it");
      assert.equal((await call(t, "DELETE", `/api/character/${made.body.character.id}`, acc.token)).status, 404);
    });

    it(`refuses a ${MAX_CHARACTERS_PER_ACCOUNT + 1}th character with 409`, async () => {
      const acc = await account(t);
      for (let i = 0; i < MAX_CHARACTERS_PER_ACCOUNT; i++)
        assert.equal((await call(t, "POST", "/api/character", acc.token, { name: `Many Chars ${i}` })).status, 201);
      const r = await call(t, "POST", "/api/character", acc.token, { name: "One Too Many" });
      assert.equal(r.status, 409);
      assert.equal(r.body.error.code, "TOO_MANY_CHARACTERS");
    });

    it("refuses to delete another account's character (403) or an online one (409)", async () => {
      assert.equal((await call(t, "DELETE", `/api/character/${alice.characterId}`, bob.token)).status, 403);
      const ws = await WsTestClient.connect(`${t.wsUrl}?token=${bob.token}`);
      await ws.next("welcome");
      const r = await call(t, "DELETE", `/api/character/${bob.characterId}`, bob.token);
      assert.equal(r.status, 409);
      assert.equal(r.body.error.code, "CHARACTER_ONLINE");
      ws.close();
    });

    /** Holds the account's lock (the one logins take) until the returned function is called. */
    async function holdAccount(accountId: string): Promise<() => void> {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let holding!: () => void;
      const started = new Promise<void>((r) => (holding = r));
      void t.server.world.withAccount(accountId, async () => {
        holding();
        await held;
      });
      await started;
      return release;
    }
    const accountIdOf = async (token: string) => String((await call(t, "GET", "/api/v1/player", token)).body.account.id);
    const pending = <T>(p: Promise<T>) => {
      const state = { done: false };
      void p.then(() => (state.done = true));
      return state;
    };

    it("creates characters under the account's lock, so racing creations stop at the limit", async () => {
      const acc = await account(t, "Racing Main");
      for (let i = 1; i < MAX_CHARACTERS_PER_ACCOUNT - 1; i++)
        assert.equal((await call(t, "POST", "/api/character", acc.token, { name: `Racer ${i}` })).status, 201);
      const release = await holdAccount(await accountIdOf(acc.token));
      const tries = ["Racer X", "Racer Y", "Racer Z"].map((name) => call(t, "POST", "/api/character", acc.token, { name }));
      const states = tries.map(pending);
      await sleep(300);
      assert.deepEqual(
        states.map((st) => st.done),
        [false, false, false],
        "no creation completes while a login of the account is under way",
      );
      release();
      assert.deepEqual((await Promise.all(tries)).map((r) => r.status).sort(), [201, 409, 409]);
      assert.equal((await call(t, "GET", "/api/character", acc.token)).body.characters.length, MAX_CHARACTERS_PER_ACCOUNT);
    });

    it("creates one player when first calls to /api/v1/player race", async () => {
      const acc = await account(t);
      const release = await holdAccount(await accountIdOf(acc.token));
      const tries = [1, 2, 3].map((i) => call(t, "POST", "/api/v1/player", acc.token, { name: `First Call ${i}` }));
      const states = tries.map(pending);
      await sleep(300);
      assert.deepEqual(
        states.map((st) => st.done),
        [false, false, false],
      );
      release();
      const statuses = (await Promise.all(tries)).map((r) => r.status);
      assert.equal(statuses.filter((st) => st === 201).length, 1, JSON.stringify(statuses));
      assert.equal((await call(t, "GET", "/api/character", acc.token)).body.characters.length, 1);
    });

    it("registers agents under the account's lock, so racing registrations give each character one agent", async () => {
      const acc = await account(t, "Agent Racer");
      const characterIds = [acc.characterId];
      for (let i = 1; i < MAX_CHARACTERS_PER_ACCOUNT; i++) {
        const made = await call(t, "POST", "/api/character", acc.token, { name: `Racer Alt ${"abcd"[i - 1]}` });
        assert.equal(made.status, 201, JSON.stringify(made.body));
        characterIds.push(String(made.body.character.id));
      }
      const release = await holdAccount(await accountIdOf(acc.token));
      // Two registrations for each character at once.
      const tries = characterIds.flatMap((characterId, i) =>
        [0, 1].map((j) => call(t, "POST", "/api/agent", acc.token, { characterId, name: `racer ${i}.${j}` })),
      );
      const states = tries.map(pending);
      await sleep(300);
      assert.ok(
        states.every((st) => !st.done),
        "no registration completes while a login or deletion of the account is under way",
      );
      release();
      const answers = await Promise.all(tries);
      assert.deepEqual(
        answers.map((r) => r.status).sort(),
        [...characterIds.map(() => 201), ...characterIds.map(() => 409)],
        JSON.stringify(answers.map((r) => r.body)),
      );
      for (const r of answers.filter((a) => a.status === 409)) assert.equal(r.body.error.code, "CHARACTER_HAS_AGENT");
      const agents = (await call(t, "GET", "/api/agent", acc.token)).body.agents as { characterId: string }[];
      assert.deepEqual(agents.map((a) => a.characterId).sort(), [...characterIds].sort(), "one agent for each character");
    });

    it("refuses an agent for a character that another process gave one since the check (the database's unique index): 409 CHARACTER_HAS_AGENT, one agent kept", async () => {
      const acc = await account(t, "Agent Cluster");
      const accountId = await accountIdOf(acc.token);
      const db = t.server.db;
      const em = db.em.bind(db);
      const otherAgentId = `other-process-${accountId}`.slice(0, 64);
      let raced = false;
      // Another process of the cluster (its own account lock) registers one for the character right
      // after this one's check found none.
      db.em = () => {
        const fork = em();
        const findOne = fork.findOne.bind(fork) as (...args: unknown[]) => Promise<unknown>;
        (fork as unknown as { findOne: (...args: unknown[]) => Promise<unknown> }).findOne = async (entity: unknown, where: unknown, ...rest: unknown[]) => {
          const found = await findOne(entity, where, ...rest);
          if (!raced && entity === AgentMapping && found === null) {
            raced = true;
            await em().insert(AgentMapping, { agentId: otherAgentId, accountId, characterId: acc.characterId, name: "registered elsewhere" });
          }
          return found;
        };
        return fork;
      };
      let res;
      try {
        res = await call(t, "POST", "/api/agent", acc.token, { characterId: acc.characterId, name: "too late" });
      } finally {
        db.em = em;
      }
      assert.ok(raced, "the other process's registration came between the check and the insert");
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.equal(res.body.error.code, "CHARACTER_HAS_AGENT");
      assert.match(res.body.error.message, new RegExp(`already has an agent \\(${otherAgentId}\\)`));
      const agents = (await call(t, "GET", "/api/agent", acc.token)).body.agents as { agentId: string }[];
      assert.deepEqual(
        agents.map((a) => a.agentId),
        [otherAgentId],
        "the other process's agent, alone",
      );

      // Any other failure of the insert is the server's (500), not a 409.
      const alt = await call(t, "POST", "/api/character", acc.token, { name: "Cluster Alt" });
      db.em = () => {
        const fork = em();
        (fork as unknown as { flush: () => Promise<void> }).flush = async () => {
          throw new Error("disk I/O error");
        };
        return fork;
      };
      try {
        res = await call(t, "POST", "/api/agent", acc.token, { characterId: alt.body.character.id, name: "unlucky" });
      } finally {
        db.em = em;
      }
      assert.equal(res.status, 500, JSON.stringify(res.body));
      assert.deepEqual(
        ((await call(t, "GET", "/api/agent", acc.token)).body.agents as { agentId: string }[]).map((a) => a.agentId),
        [otherAgentId],
      );
    });

    it(`refuses an account's agent over ${MAX_AGENTS_PER_ACCOUNT} (409 TOO_MANY_AGENTS), and a second agent for a character (409 CHARACTER_HAS_AGENT), changing nothing`, async () => {
      const acc = await account(t, "Agent Hoarder");
      const accountId = await accountIdOf(acc.token);
      const first = await call(t, "POST", "/api/agent", acc.token, { characterId: acc.characterId, name: "the one" });
      assert.equal(first.status, 201);
      const second = await call(t, "POST", "/api/agent", acc.token, { characterId: acc.characterId, name: "another" });
      assert.equal(second.status, 409);
      assert.equal(second.body.error.code, "CHARACTER_HAS_AGENT");
      assert.match(second.body.error.message, new RegExp(`^the character Agent Hoarder already has an agent \\(${first.body.agent.agentId}\\)`));
      // Agents of characters that are gone (rows as an older server allowed them) still count.
      const alt = await call(t, "POST", "/api/character", acc.token, { name: "Hoarder Alt" });
      await t.server.db.em().insertMany(
        AgentMapping,
        Array.from({ length: MAX_AGENTS_PER_ACCOUNT - 1 }, (_, i) => ({
          agentId: `hoarded-${i}-${accountId}`.slice(0, 64),
          accountId,
          characterId: `gone-${i}`,
        })),
      );
      const over = await call(t, "POST", "/api/agent", acc.token, { characterId: alt.body.character.id, name: "one too many" });
      assert.equal(over.status, 409);
      assert.equal(over.body.error.code, "TOO_MANY_AGENTS");
      const agents = (await call(t, "GET", "/api/agent", acc.token)).body.agents as { name: string | null }[];
      assert.equal(agents.length, MAX_AGENTS_PER_ACCOUNT);
      assert.ok(!agents.some((a) => a.name === "another" || a.name === "one too many"), "nothing was registered");
    });

    it("writes a character's queued save before deleting it, so no rows of it come back", async () => {
      const acc = await account(t, "Keeps Main");
      const made = await call(t, "POST", "/api/character", acc.token, { name: "Doomed Alt" });
      const altId = String(made.body.character.id);
      const accountId = await accountIdOf(acc.token);
      // The last save of a session that just ended, still queued when the delete comes in.
      const saver = (t.server.world as unknown as { saver: Saver }).saver;
      const data = await loadOrCreatePlayer(t.server.db, t.server.content, { accountId, characterId: altId });
      saver.enqueue([data]);
      // Rows of its own besides items: kill counts and an agent that plays it.
      await t.server.db.em().insertMany(NpcKill, [{ characterId: altId, npcId: "goblin", killCount: 3, lastKillAt: new Date() }]);
      await t.server.db.em().insertMany(AgentMapping, [{ agentId: `agent-of-${altId}`.slice(0, 64), accountId, characterId: altId }]);
      const del = await call(t, "DELETE", `/api/character/${altId}`, acc.token);
      assert.equal(del.status, 200, JSON.stringify(del.body));
      await saver.flush();
      assert.equal(await t.server.db.em().count(InventorySlot, { characterId: altId }), 0, "no inventory rows of the deleted character");
      assert.equal(await t.server.db.em().count(Character, { id: altId }), 0);
      assert.equal(await t.server.db.em().count(NpcKill, { characterId: altId }), 0, "its kill counts went with it");
      assert.equal(await t.server.db.em().count(AgentMapping, { characterId: altId }), 0, "and the agents that played it");
      assert.equal(saver.queued, 0);
    });

    it("refuses bad bodies with 400", async () => {
      for (const body of [{}, { name: "" }, { name: "ok name", extra: 1 }, { name: ["x"] }]) {
        assert.equal((await call(t, "POST", "/api/character", alice.token, body)).status, 400, JSON.stringify(body));
      }
    });
  });

  describe("/api/player and /api/template", () => {
    it("lists online players and finds one by name", async () => {
      const ws = await WsTestClient.connect(`${t.wsUrl}?token=${alice.token}`);
      await ws.next("welcome");
      const online = await call(t, "GET", "/api/player/online", bob.token);
      assert.ok(online.body.players.some((p: { id: string }) => p.id === alice.characterId));
      const byName = await call(t, "GET", `/api/player/by-name/${encodeURIComponent("Alice Api")}`, bob.token);
      assert.deepEqual(byName.body.player, { id: alice.characterId, name: "Alice Api", combatLevel: 3, online: true });
      assert.equal((await call(t, "GET", "/api/player/by-name/Nobody%20Here", bob.token)).status, 404);
      ws.close();
    });

    it("lists character templates from the content, and one by id", async () => {
      const list = await call(t, "GET", "/api/template", bob.token);
      const ids = list.body.templates.map((x: { id: string }) => x.id);
      assert.deepEqual(ids.slice(0, 1), ["adventurer"]);
      assert.ok(ids.includes("woodsman"));
      const one = await call(t, "GET", "/api/template/angler", bob.token);
      assert.ok(one.body.template.starterKit.length > 0);
      assert.equal((await call(t, "GET", "/api/template/nope", bob.token)).status, 404);
    });
  });
});

forEachDialect("REST API: agents", (ctx) => {
  let t: TestServer;
  let owner: { token: string; characterId: string };
  let stranger: { token: string; characterId: string };
  let agentId: string;
  let agentToken: string;
  before(async () => {
    t = await startTestServer({ ...ENV, DATABASE_URL: ctx.url });
    owner = await account(t, "Agent Owner");
    stranger = await account(t, "Stranger");
    const r = await call(t, "POST", "/api/agent", owner.token, { characterId: owner.characterId, name: "helper bot" });
    assert.equal(r.status, 201);
    agentId = r.body.agent.agentId;
    agentToken = r.body.token;
  });
  after(() => t.close());

  /** A new agent on a character of its own (a character has one agent): a new account's first. */
  const newAgent = async (name: string) => {
    const acc = await account(t, name);
    const made = await call(t, "POST", "/api/agent", acc.token, { characterId: acc.characterId, name });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    return { acc, made };
  };

  it("registers agents only for your own, existing characters", async () => {
    assert.equal((await call(t, "POST", "/api/agent", stranger.token, { characterId: owner.characterId })).status, 403);
    assert.equal((await call(t, "POST", "/api/agent", owner.token, { characterId: "no-such" })).status, 404);
    assert.equal((await call(t, "POST", "/api/agent", owner.token, {})).status, 400);
    const list = await call(t, "GET", "/api/agent", owner.token);
    assert.deepEqual(
      list.body.agents.map((a: { agentId: string }) => a.agentId),
      [agentId],
    );
    assert.deepEqual((await call(t, "GET", "/api/agent", stranger.token)).body.agents, []);
  });

  it("scopes an agent token to its character", async () => {
    assert.equal((await call(t, "GET", `/api/characters/${owner.characterId}/skills`, agentToken)).status, 200);
    const other = await call(t, "POST", "/api/character", owner.token, { name: "Owner Alt" });
    assert.equal((await call(t, "GET", `/api/characters/${other.body.character.id}/skills`, agentToken)).status, 403);
    assert.equal((await call(t, "GET", "/api/character", agentToken)).status, 403, "no account management");
    const me = await call(t, "GET", "/api/v1/player", agentToken);
    assert.equal(me.body.player.characterId, owner.characterId);
    assert.deepEqual(
      me.body.characters.map((c: { id?: string; characterId?: string }) => c.id ?? c.characterId),
      [owner.characterId],
      "the account's other characters are not listed to an agent",
    );
    assert.equal((await call(t, "POST", "/api/agent", agentToken, { characterId: owner.characterId })).status, 403);
    // In the world too: the token cannot name its account's other character, on either transport.
    const ws = await WsTestClient.connect(`${t.wsUrl}?token=${agentToken}&characterId=${other.body.character.id}`);
    assert.equal((await ws.next("error")).code, "FORBIDDEN");
    assert.equal((await ws.waitClosed()).code, 4003);
    await assert.rejects(WorldTestClient.join(t.baseUrl, { token: agentToken, characterId: other.body.character.id }));
    assert.equal(t.server.world.world.players.has(other.body.character.id), false);
  });

  it("refuses an agent token every account route that changes or lists the account (403), and reads only its own character", async () => {
    const siblingOf = await call(t, "POST", "/api/character", owner.token, { name: "Sibling Alt" });
    assert.equal(siblingOf.status, 201);
    const sibling = await call(t, "POST", "/api/agent", owner.token, { characterId: siblingOf.body.character.id, name: "sibling" });
    assert.equal(sibling.status, 201);
    const alt = (await call(t, "GET", "/api/character", owner.token)).body.characters.find((c: { id: string }) => c.id !== owner.characterId)?.id ?? "none";
    for (const [method, p, body] of [
      ["POST", "/api/v1/player", { name: "Renamed Bot" }],
      ["GET", "/api/character", undefined],
      ["POST", "/api/character", { name: "Bot Made" }],
      ["DELETE", `/api/character/${alt}`, undefined],
      ["DELETE", `/api/character/${owner.characterId}`, undefined],
      ["GET", "/api/agent", undefined],
      ["POST", "/api/agent", { characterId: owner.characterId }],
      ["DELETE", `/api/agent/${sibling.body.agent.agentId}`, undefined],
      ["POST", `/api/agent/${agentId}/token`, undefined],
      ["GET", `/api/agents/${sibling.body.agent.agentId}/goal`, undefined],
      ["GET", "/api/admin/metrics", undefined],
    ] as const) {
      const r = await call(t, method, p, agentToken, body);
      assert.equal(r.status, 403, `${method} ${p}: ${JSON.stringify(r.body)}`);
    }
    const me = await call(t, "GET", "/api/v1/player", agentToken);
    assert.equal(me.status, 200, "the agent reads its own player");
    assert.equal(me.body.player.name, "Agent Owner", "not renamed");
    assert.deepEqual(
      me.body.characters.map((c: { id: string }) => c.id),
      [owner.characterId],
    );
    assert.equal((await call(t, "GET", "/api/agent", owner.token)).body.agents.length, 2, "no agent was added or deleted");
    assert.equal((await call(t, "DELETE", `/api/agent/${sibling.body.agent.agentId}`, owner.token)).status, 200);
  });

  it("never gives an agent token admin rights, even one claiming them", async () => {
    const agent = await t.server.auth.authenticate(agentToken);
    const claimsAdmin = await t.server.tokens.signServiceToken(
      { accountId: agent.accountId, characterId: agent.characterId, agentId: agent.agentId, role: "admin" },
      60,
    );
    assert.equal((await t.server.auth.authenticate(claimsAdmin)).role, "player");
    assert.equal((await call(t, "GET", `/api/characters/${stranger.characterId}/skills`, claimsAdmin)).status, 403);
  });

  it("maps the agent to its character, for the owner and the agent, not for others", async () => {
    for (const token of [owner.token, agentToken]) {
      const r = await call(t, "GET", `/api/agents/mapping/${agentId}`, token);
      assert.equal(r.status, 200);
      assert.equal(r.body.characterId, owner.characterId);
      assert.equal(r.body.characterName, "Agent Owner");
    }
    assert.equal((await call(t, "GET", `/api/agents/mapping/${agentId}`, stranger.token)).status, 403);
    assert.equal((await call(t, "GET", "/api/agents/mapping/unknown-agent", owner.token)).status, 404);
  });

  it("every agent-control route refuses another account (403) and unknown agents (404)", async () => {
    for (const [method, p, body] of [
      ["GET", "goal", undefined],
      ["POST", "goal", { type: "explore" }],
      ["POST", "goal/stop", undefined],
      ["POST", "goal/resume", undefined],
      ["POST", "message", { message: "hi" }],
      ["GET", "quick-actions", undefined],
    ] as const) {
      assert.equal((await call(t, method, `/api/agents/${agentId}/${p}`, stranger.token, body)).status, 403, `${method} ${p}`);
      assert.equal((await call(t, method, `/api/agents/unknown-agent/${p}`, owner.token, body)).status, 404, `${method} ${p}`);
    }
  });

  it("derives available goals from the content and the character", async () => {
    const r = await call(t, "GET", `/api/agents/${agentId}/goal`, owner.token);
    assert.deepEqual(Object.keys(r.body).sort(), ["availableGoals", "goal", "goalsPaused", "success"]);
    const types = r.body.availableGoals.map((g: { type: string }) => g.type);
    // The starter kit has a hatchet, a pickaxe and a net; trees, rocks and spots exist.
    for (const type of ["woodcutting", "mining", "fishing", "combat", "explore"]) assert.ok(types.includes(type), type);
    assert.ok(!types.includes("cooking"), "nothing raw to cook yet");
  });

  it("sets, stops and resumes goals, pushing every change to the agent's live connection", async () => {
    // The goals it may choose, as the REST route lists them for the same character.
    const { availableGoals } = (await call(t, "GET", `/api/agents/${agentId}/goal`, owner.token)).body;
    assert.ok(availableGoals.length > 0);
    const ws = await WsTestClient.connect(`${t.wsUrl}?token=${agentToken}`);
    await ws.next("welcome");
    assert.deepEqual(await ws.next("agent:goal"), { agentId, goal: null, goalsPaused: false, availableGoals }, "the state it logs in with");
    const set = await call(t, "POST", `/api/agents/${agentId}/goal`, owner.token, { type: "woodcutting" });
    assert.equal(set.status, 200);
    assert.equal(set.body.goal.type, "woodcutting");
    assert.equal(set.body.goal.lockedBy, "manual");
    assert.equal(set.body.goal.progress, 0);
    assert.equal((await ws.next("agent:goal")).goal !== null, true);

    // Progress reported by the agent over its connection.
    ws.send("agent:goalProgress", { goalId: set.body.goal.id, progress: 40 });
    await ws.next("agent:goal");
    assert.equal((await call(t, "GET", `/api/agents/${agentId}/goal`, agentToken)).body.goal.progress, 40);
    ws.send("agent:goalProgress", { goalId: "wrong", progress: 50 });
    assert.equal((await ws.next("error")).code, "INVALID_GOAL");
    ws.send("agent:goalProgress", { goalId: set.body.goal.id, progress: 101 });
    assert.equal((await ws.next("error")).code, "INVALID_PAYLOAD");

    // Stop: goal cleared, paused, path cancelled; automatic goals blocked, manual ones allowed.
    ws.send("player:move", { x: 8, z: 8 });
    await sleep(120);
    const stop = await call(t, "POST", `/api/agents/${agentId}/goal/stop`, owner.token);
    assert.deepEqual({ goal: stop.body.goal, goalsPaused: stop.body.goalsPaused }, { goal: null, goalsPaused: true });
    assert.equal((await ws.next("agent:goal")).goalsPaused, true);
    await sleep(150);
    const player = t.server.world.world.players.get(owner.characterId)!;
    assert.equal(player.path.length, 0, "the path was cancelled");
    assert.equal(player.action, undefined, "no current action either");
    const auto = await call(t, "POST", `/api/agents/${agentId}/goal`, agentToken, { type: "explore", source: "autonomous" });
    assert.equal(auto.status, 409);
    assert.equal(auto.body.error.code, "GOALS_PAUSED");
    assert.equal((await call(t, "POST", `/api/agents/${agentId}/goal`, owner.token, { type: "explore" })).status, 200);
    await ws.next("agent:goal");
    const resume = await call(t, "POST", `/api/agents/${agentId}/goal/resume`, owner.token);
    assert.equal(resume.body.goalsPaused, false);
    assert.equal((await call(t, "POST", `/api/agents/${agentId}/goal`, agentToken, { type: "explore", source: "autonomous" })).status, 200);
    ws.close();
  });

  for (const transport of ["ws", "colyseus"] as const) {
    it(`tells an agent's ${transport} connection its goal state right after welcome and player:sync, and an owner's connection nothing`, async () => {
      // A state unlike a new agent's: a manual goal set while paused.
      assert.equal((await call(t, "POST", `/api/agents/${agentId}/goal/stop`, owner.token)).status, 200);
      const set = await call(t, "POST", `/api/agents/${agentId}/goal`, owner.token, { type: "explore" });
      assert.equal(set.status, 200);
      const expected = { agentId, goal: set.body.goal, goalsPaused: true, availableGoals: set.body.availableGoals };
      try {
        let events: { type: string; data: Record<string, unknown> }[];
        let close: () => void;
        if (transport === "ws") {
          const ws = await WsTestClient.connect(`${t.wsUrl}?token=${agentToken}`);
          await until(() => (ws.events.some((e) => e.type === "world:update") ? true : undefined), "the first world:update");
          events = ws.events;
          close = () => ws.close();
        } else {
          const c = await WorldTestClient.join(t.baseUrl, { token: agentToken });
          await c.waitFor(() => (c.events.some((e) => e.type === "agent:goal") ? true : undefined), 5_000, "agent:goal");
          events = c.events;
          close = () => void c.room.leave();
        }
        const greeting = ["welcome", "player:sync", "agent:goal", "quest:list", ...(transport === "ws" ? ["world:update"] : [])];
        assert.deepEqual(
          events.slice(0, greeting.length).map((e) => e.type),
          greeting,
        );
        assert.deepEqual(events[2]!.data, expected);
        assert.equal(events.filter((e) => e.type === "agent:goal").length, 1);
        close();
        await until(() => (t.server.world.connectionOf(owner.characterId) === undefined ? true : undefined), "the agent's session ended");

        // The owner playing the character: no agent:goal at login.
        const own =
          transport === "ws" ? await WsTestClient.connect(`${t.wsUrl}?token=${owner.token}`) : await WorldTestClient.join(t.baseUrl, { token: owner.token });
        if (own instanceof WsTestClient) await own.next("world:update");
        else await own.waitFor(() => (own.events.some((e) => e.type === "player:sync") ? true : undefined), 5_000, "the owner's player:sync");
        await sleep(100);
        assert.deepEqual(
          own.events.map((e) => e.type).filter((type) => type.startsWith("agent:")),
          [],
        );
        if (own instanceof WsTestClient) own.close();
        else await own.room.leave();
        await until(() => (t.server.world.connectionOf(owner.characterId) === undefined ? true : undefined), "the owner's session ended");
      } finally {
        assert.equal((await call(t, "POST", `/api/agents/${agentId}/goal/resume`, owner.token)).status, 200);
      }
    });
  }

  it("holds an agent's pushes while its connection logs in: the goal state sent is the latest, and nothing comes before welcome", async () => {
    const greeting = t.server.world.agentGreeting!;
    let reached!: () => void;
    const inGreeting = new Promise<void>((resolve) => (reached = resolve));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // The goal state has been read (the pushes are held); the login waits here.
    t.server.world.agentGreeting = async (principal) => {
      const g = await greeting(principal);
      reached();
      await gate;
      return g;
    };
    let ws: WsTestClient | undefined;
    try {
      ws = await WsTestClient.connect(`${t.wsUrl}?token=${agentToken}`);
      await inGreeting;
      const set = await call(t, "POST", `/api/agents/${agentId}/goal`, owner.token, { type: "mining" });
      assert.equal(set.status, 200);
      const msg = await call(t, "POST", `/api/agents/${agentId}/message`, owner.token, { message: "mine copper" });
      assert.equal(msg.body.delivered, true);
      await sleep(50);
      assert.equal(ws.events.length, 0, `nothing before welcome: ${JSON.stringify(ws.events)}`);
      open();
      await ws.next("agent:message");
      assert.deepEqual(
        ws.events.slice(0, 3).map((e) => e.type),
        ["welcome", "player:sync", "agent:goal"],
      );
      assert.deepEqual(
        ws.events[2]!.data,
        { agentId, goal: set.body.goal, goalsPaused: false, availableGoals: set.body.availableGoals },
        "the goal set during the login",
      );
      assert.equal(ws.events.filter((e) => e.type === "agent:goal").length, 1);
    } finally {
      t.server.world.agentGreeting = greeting;
      open();
      ws?.close();
    }
    await until(() => (t.server.world.connectionOf(owner.characterId) === undefined ? true : undefined), "the agent's session ended");
  });

  it("refuses a login whose agent was deleted or re-tokened after its token was checked (401 / 4001), and attaches nothing", async () => {
    const { acc, made } = await newAgent("Raced Agent");
    const token = String(made.body.token);
    // As if the token were replaced between the token check and the login.
    await t.server.db.em().nativeUpdate(AgentMapping, { agentId: made.body.agent.agentId }, { tokenGeneration: 1 });
    const isLive = t.server.auth.agentIsLive;
    t.server.auth.agentIsLive = async () => true;
    try {
      const ws = await WsTestClient.connect(`${t.wsUrl}?token=${token}`);
      assert.deepEqual(await ws.next("error"), { code: "NOT_AUTHENTICATED", message: "this agent was deleted or its token replaced" });
      assert.equal((await ws.waitClosed()).code, 4001);
      assert.ok(!ws.events.some((e) => e.type === "welcome"));
      await assert.rejects(WorldTestClient.join(t.baseUrl, { token }), (e: { code?: unknown }) => e.code === 401);
      await t.server.db.em().nativeDelete(AgentMapping, { agentId: made.body.agent.agentId });
      await assert.rejects(WorldTestClient.join(t.baseUrl, { token }), (e: { code?: unknown }) => e.code === 401);
      assert.equal(t.server.world.connectionOf(acc.characterId), undefined);
    } finally {
      t.server.auth.agentIsLive = isLive;
    }
  });

  it("fails an agent's login when its goal state cannot be read (INTERNAL_ERROR 1011 / 500), and attaches nothing", async () => {
    const greeting = t.server.world.agentGreeting;
    t.server.world.agentGreeting = async () => {
      throw new Error("the database is down");
    };
    try {
      const ws = await WsTestClient.connect(`${t.wsUrl}?token=${agentToken}`);
      assert.equal((await ws.next("error")).code, "INTERNAL_ERROR");
      assert.equal((await ws.waitClosed()).code, 1011);
      await assert.rejects(
        WorldTestClient.join(t.baseUrl, { token: agentToken }),
        (e: { code?: unknown; message?: string }) => e.code === 500 && e.message === "internal error",
      );
      assert.equal(t.server.world.connectionOf(owner.characterId), undefined);
    } finally {
      t.server.world.agentGreeting = greeting;
    }
  });

  it("refuses goals that are not available, and bad goal bodies", async () => {
    const r = await call(t, "POST", `/api/agents/${agentId}/goal`, owner.token, { type: "cooking" });
    assert.equal(r.status, 422);
    assert.equal(r.body.error.code, "GOAL_UNAVAILABLE");
    for (const body of [{}, { type: 5 }, { type: "explore", source: "random" }, { type: "woodcutting", target: "no_such_tree" }]) {
      const bad = await call(t, "POST", `/api/agents/${agentId}/goal`, owner.token, body);
      assert.ok(bad.status === 400 || bad.status === 422, JSON.stringify(body));
    }
  });

  // Across a restart of the server: test/db/roundTrip.test.ts.
  it("stores the goal the owner sets in agent_mappings, and the agent reads it back", async () => {
    await call(t, "POST", `/api/agents/${agentId}/goal`, owner.token, { type: "mining" });
    const row = await t.server.db.em().findOneOrFail(AgentMapping, { agentId });
    assert.equal((row.goal as { type?: string } | null)?.type, "mining", "the stored goal");
    const again = await call(t, "GET", `/api/agents/${agentId}/goal`, agentToken);
    assert.equal(again.body.goal.type, "mining");
  });

  it("delivers messages to a connected agent, and says when it is not connected", async () => {
    const offline = await call(t, "POST", `/api/agents/${agentId}/message`, owner.token, { message: "hello?" });
    assert.equal(offline.body.delivered, false);
    const ws = await WsTestClient.connect(`${t.wsUrl}?token=${agentToken}`);
    await ws.next("welcome");
    const online = await call(t, "POST", `/api/agents/${agentId}/message`, owner.token, { message: "chop some oaks" });
    assert.equal(online.body.delivered, true);
    const msg = await ws.next("agent:message");
    assert.equal(msg.message, "chop some oaks");
    assert.equal(msg.from, "owner");
    for (const body of [{}, { message: "" }, { message: "x".repeat(501) }]) {
      assert.equal((await call(t, "POST", `/api/agents/${agentId}/message`, owner.token, body)).status, 400);
    }
    ws.close();
  });

  it("gives quick actions: nearby interactables, goals, commands, inventory", async () => {
    const r = await call(t, "GET", `/api/agents/${agentId}/quick-actions`, agentToken);
    assert.equal(r.status, 200);
    assert.ok(
      r.body.nearby.some((n: { kind: string; type: string }) => n.kind === "npc" && n.type === "bank"),
      "the bank is near the spawn",
    );
    assert.ok(
      r.body.nearby.some((n: { kind: string; id: string; type: string }) => n.kind === "place" && n.id === "chapel_door" && n.type === "door"),
      "and the chapel's door (world-objects.json)",
    );
    assert.ok(r.body.availableGoals.length > 0);
    assert.ok(r.body.quickCommands.some((c: { id: string }) => c.id === "stop"));
    assert.ok(r.body.inventory.some((s: { itemId: string }) => s.itemId === "bronze_hatchet"));
  });

  it("names nearby things by the instance ids world:update uses, which player:action takes: a tree from quick-actions is chopped into logs", async () => {
    type Nearby = { kind: string; id: string; ref: string; type: string; x: number; z: number; depleted?: boolean };
    const ws = await WsTestClient.connect(`${t.wsUrl}?token=${agentToken}`);
    await ws.next("welcome");
    const player = t.server.world.world.players.get(owner.characterId)!;
    // The banker stands by the spawn; trees are 20+ tiles away: walk next to the trees east of it.
    const spot = { x: 26, z: -14 };
    ws.send("player:move", { ...spot, run: true });
    await until(() => (player.x === spot.x && player.z === spot.z ? true : undefined), "the agent walked to the trees");
    const r = await call(t, "GET", `/api/agents/${agentId}/quick-actions`, agentToken);
    assert.equal(r.status, 200);
    const nearby = r.body.nearby as Nearby[];
    for (const n of nearby) {
      assert.deepEqual(
        Object.keys(n).sort(),
        ["id", "kind", "ref", "type", "x", "z", ...(n.kind === "resource" ? ["depleted"] : [])].sort(),
        JSON.stringify(n),
      );
    }
    const trees = nearby.filter((n) => n.kind === "resource" && n.ref === "tree_normal");
    assert.ok(trees.length >= 3, JSON.stringify(nearby));
    assert.ok(
      trees.every((n) => n.type === "tree" && n.id !== n.ref && t.server.world.world.resources.get(n.id)?.node.id === "tree_normal"),
      "live instances",
    );
    // The same ids and refs as in the agent's world:update.
    const seen = new Map<string, string>();
    const deadline = Date.now() + 5_000;
    while (!trees.every((n) => seen.get(n.id) === n.ref)) {
      const u = await ws.next("world:update", Math.max(1, deadline - Date.now()));
      for (const e of u.entities as { id: string; ref?: string }[]) if (e.ref !== undefined) seen.set(e.id, e.ref);
    }

    const tree = trees.find((n) => n.depleted === false)!;
    ws.send("player:action", { action: "gather", targetId: tree.id });
    await until(() => (player.data.inventory.some((s) => s?.itemId === "logs") ? true : undefined), "logs from the tree", 20_000);
    assert.ok(player.data.skills.woodcutting.xpTenths > 0);
    assert.deepEqual(
      ws.events.filter((e) => e.type === "error"),
      [],
      "no refusal",
    );
    ws.close();
    await until(() => (t.server.world.connectionOf(owner.characterId) === undefined ? true : undefined), "the agent's session ended");
  });

  it("lists NPCs by their instance ids, and a depleted tree as depleted", async () => {
    const ws = await WsTestClient.connect(`${t.wsUrl}?token=${agentToken}`);
    await ws.next("welcome");
    const player = t.server.world.world.players.get(owner.characterId)!;
    const spot = { x: 2, z: 2 };
    ws.send("player:move", { ...spot, run: true });
    await until(() => (player.x === spot.x && player.z === spot.z ? true : undefined), "the agent walked back to the spawn");
    const nearby = (await call(t, "GET", `/api/agents/${agentId}/quick-actions`, owner.token)).body.nearby as {
      kind: string;
      id: string;
      ref: string;
      type: string;
    }[];
    const banker = nearby.find((n) => n.kind === "npc" && n.ref === "brackenford_banker");
    assert.deepEqual(banker && { id: banker.id, type: banker.type }, { id: "npc-brackenford-brackenford_banker", type: "bank" });
    assert.ok(t.server.world.world.npcs.has(banker!.id));
    ws.send("player:action", { action: "interact", targetId: banker!.id });
    assert.equal((await ws.next("interface:open")).type, "bank", "the id opens the banker's bank");

    // A tree mined out (as a gathering success may leave it) until long after this test.
    const tree = [...t.server.world.world.resources.values()].find((r) => r.node.id === "tree_normal")!;
    tree.depletedUntil = t.server.world.world.tick + 100_000;
    try {
      ws.send("player:move", { x: 26, z: -14, run: true });
      await until(() => (player.x === 26 && player.z === -14 ? true : undefined), "the agent walked to the trees");
      const again = (await call(t, "GET", `/api/agents/${agentId}/quick-actions`, owner.token)).body.nearby as { id: string; depleted?: boolean }[];
      assert.equal(again.find((n) => n.id === tree.id)?.depleted, true);
    } finally {
      tree.depletedUntil = 0;
    }
    ws.close();
    await until(() => (t.server.world.connectionOf(owner.characterId) === undefined ? true : undefined), "the agent's session ended");
  });

  it("issues new tokens, and a deleted agent's tokens stop working at once", async () => {
    const { acc, made } = await newAgent("Temp Agent");
    const second = await call(t, "POST", `/api/agent/${made.body.agent.agentId}/token`, acc.token);
    assert.equal(second.status, 200);
    assert.equal((await call(t, "GET", `/api/agents/${made.body.agent.agentId}/goal`, second.body.token)).status, 200);
    assert.equal((await call(t, "DELETE", `/api/agent/${made.body.agent.agentId}`, stranger.token)).status, 403);
    assert.equal((await call(t, "DELETE", `/api/agent/${made.body.agent.agentId}`, acc.token)).status, 200);
    assert.equal((await call(t, "GET", `/api/characters/${acc.characterId}/skills`, made.body.token)).status, 401);
    assert.equal((await call(t, "GET", `/api/characters/${acc.characterId}/skills`, second.body.token)).status, 401);
    // Deleted, the character can have an agent again.
    assert.equal((await call(t, "POST", "/api/agent", acc.token, { characterId: acc.characterId, name: "Temp Again" })).status, 201);
  });

  it("replaces an agent's token: the older ones stop working at once, its open session ends, the new one works", async () => {
    const { acc, made } = await newAgent("Rotated Agent");
    const agentId = String(made.body.agent.agentId);
    const ws = await WsTestClient.connect(`${t.wsUrl}?token=${made.body.token}`);
    await ws.next("welcome");
    const second = await call(t, "POST", `/api/agent/${agentId}/token`, acc.token);
    assert.equal(second.status, 200);
    assert.deepEqual(await ws.next("error"), { code: "NOT_AUTHENTICATED", message: "this agent's token was replaced" });
    assert.equal((await ws.waitClosed()).code, 4001);
    assert.equal((await call(t, "GET", `/api/agents/${agentId}/goal`, made.body.token)).status, 401);
    const again = await WsTestClient.connect(`${t.wsUrl}?token=${made.body.token}`);
    assert.equal((await again.next("error")).code, "NOT_AUTHENTICATED");
    assert.equal((await call(t, "GET", `/api/agents/${agentId}/goal`, second.body.token)).status, 200);
    const third = await call(t, "POST", `/api/agent/${agentId}/token`, second.body.token);
    assert.equal(third.status, 403, "an agent cannot mint its own tokens");
    const fresh = await WsTestClient.connect(`${t.wsUrl}?token=${second.body.token}`);
    assert.equal(String((await fresh.next("welcome")).characterId), acc.characterId);
    fresh.socket.close();
    await until(() => (t.server.world.connectionOf(acc.characterId) === undefined ? true : undefined), "the character has no session any more");
  });

  for (const transport of ["ws", "colyseus"] as const) {
    it(`ends a deleted agent's open ${transport} session at once (not only its later requests)`, async () => {
      const { acc, made } = await newAgent(`Live ${transport}`);
      const token = String(made.body.token);
      let closed: () => Promise<number>;
      if (transport === "ws") {
        const ws = await WsTestClient.connect(`${t.wsUrl}?token=${token}`);
        await ws.next("welcome");
        closed = async () => {
          const err = await ws.next("error");
          assert.equal(err.code, "NOT_AUTHENTICATED");
          return (await ws.waitClosed()).code;
        };
      } else {
        const c = await WorldTestClient.join(t.baseUrl, { token });
        await c.next("welcome");
        closed = () => new Promise<number>((resolve) => c.room.onLeave((code: number) => resolve(code)));
      }
      const waiting = closed();
      assert.equal((await call(t, "DELETE", `/api/agent/${made.body.agent.agentId}`, acc.token)).status, 200);
      assert.equal(await waiting, 4001);
      await until(() => (t.server.world.connectionOf(acc.characterId) === undefined ? true : undefined), "the character has no session any more");
    });
  }
});

describe("REST API: voice", () => {
  it("answers 503 when voice is not configured", async () => {
    const t = await startTestServer(ENV);
    try {
      const acc = await account(t, "Quiet One");
      const r = await call(t, "POST", "/api/voice/token", acc.token, {});
      assert.equal(r.status, 503);
      assert.equal(r.body.error.code, "VOICE_NOT_CONFIGURED");
    } finally {
      await t.close();
    }
  });

  it("issues a LiveKit-compatible token for the room of the player's area", async () => {
    const t = await startTestServer({ ...ENV, VOICE_API_KEY: "lk-key", VOICE_API_SECRET: "lk-secret-0123456789", VOICE_URL: "wss://voice.example.com" });
    try {
      const acc = await account(t, "Loud One");
      const r = await call(t, "POST", "/api/voice/token", acc.token, {});
      assert.equal(r.status, 200);
      assert.equal(r.body.url, "wss://voice.example.com");
      const { payload: claims } = await jwtVerify<{ video: { room: string; roomJoin: boolean } }>(
        r.body.token,
        new TextEncoder().encode("lk-secret-0123456789"),
        {
          algorithms: ["HS256"],
          issuer: "lk-key",
        },
      );
      assert.equal(claims.sub, acc.characterId);
      const town = t.server.content.areas.find((a) => a.safeZone)!;
      assert.equal(claims.video.room, `area-${town.id}`);
      assert.equal(r.body.room, `area-${town.id}`);
      assert.equal(claims.video.roomJoin, true);
      assert.ok(claims.exp! - claims.iat! <= 3600);
      const other = await account(t, "Other Voice");
      assert.equal((await call(t, "POST", "/api/voice/token", other.token, { characterId: acc.characterId })).status, 403);
      // Admins may read any character, but not speak as one.
      const admin = await t.server.tokens.signServiceToken({ accountId: "ops-admin", role: "admin" }, 60);
      assert.equal((await call(t, "POST", "/api/voice/token", admin, { characterId: acc.characterId })).status, 403);
      assert.equal((await call(t, "POST", "/api/voice/token", acc.token, { characterId: 7 })).status, 400);
    } finally {
      await t.close();
    }
  });
});

describe("production: the client build", () => {
  let t: TestServer;
  let dir: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-client-"));
    fs.writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>client</title>");
    fs.writeFileSync(path.join(dir, "app.js"), "console.log('client')");
    t = await startTestServer({
      NODE_ENV: "production",
      JWT_SECRET: "p".repeat(32),
      ADMIN_CODE: "admin-code-0123",
      PUBLIC_IDP_APP_ID: "app",
      IDP_APP_SECRET: "secret",
      DATABASE_URL: "sqlite::memory:",
      CLIENT_BUILD_DIR: dir,
      LOG_LEVEL: "silent",
    });
  });
  after(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("serves the client and its files, with an index fallback for client routes", async () => {
    for (const p of ["/", "/play", "/some/deep/route"]) {
      const res = await fetch(t.baseUrl + p, { headers: { Accept: "text/html" } });
      assert.equal(res.status, 200, p);
      assert.match(await res.text(), /<title>client<\/title>/);
    }
    const js = await fetch(`${t.baseUrl}/app.js`);
    assert.match(await js.text(), /client/);
    // A script's fetch (`Accept: */*`, not naming HTML) of an unknown path keeps the JSON 404.
    const unknown = await fetch(`${t.baseUrl}/no/such/thing`, { headers: { Accept: "*/*" } });
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).error.code, "NOT_FOUND");
  });

  it("never shadows the server's own paths", async () => {
    const html = { headers: { Accept: "text/html" } };
    assert.equal((await fetch(`${t.baseUrl}/api/nothing`, html)).status, 404);
    assert.match((await fetch(`${t.baseUrl}/api/nothing`, html)).headers.get("content-type") ?? "", /json/);
    assert.equal((await (await fetch(`${t.baseUrl}/health`, html)).json()).status, "ok");
    assert.match((await fetch(`${t.baseUrl}/env.js`, html)).headers.get("content-type") ?? "", /javascript/);
    assert.equal((await fetch(`${t.baseUrl}/manifests/npcs.json`, html)).status, 200);
    assert.match((await fetch(`${t.baseUrl}/manifests/nothing.json`, html)).headers.get("content-type") ?? "", /json/);
    assert.equal((await fetch(`${t.baseUrl}/colyseus/api`, html)).status, 401);
    assert.equal((await fetch(`${t.baseUrl}/status`, html)).status, 200);
  });
});
