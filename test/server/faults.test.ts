import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pino } from "pino";
import { Character } from "../../entities/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/orm.ts";
import type { InputRule } from "../../src/game/world/World.ts";
import { CLOSE_FAULTS } from "../../src/sessions/WorldService.ts";
import { EXIT_FATAL } from "../../src/exit.ts";
import { RESTARTING_NOW_LINE } from "../../src/game/restart.ts";
import { spawnServer, type Exited } from "../support/process.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { makeWorldDir } from "../support/world.ts";
import { WsTestClient } from "../support/wsClient.ts";

/** Walks a /ws client's player `dz` tiles and waits until its own entity is there in a `world:update`. */
async function walk(c: WsTestClient, id: string, dz: number): Promise<{ x: number; z: number }> {
  const start = (await c.next("player:sync")).position as { x: number; z: number };
  const to = { x: start.x, z: start.z + dz };
  c.send("player:move", to);
  for (;;) {
    const update = await c.next("world:update", 10_000);
    const me = (update.entities as { id: string; x: number; z: number }[]).find((e) => e.id === id);
    if (me?.x === to.x && me.z === to.z) return to;
  }
}

async function storedPosition(server: TestServer["server"], id: string): Promise<{ x: number; z: number } | undefined> {
  const row = await server.db.em().findOne(Character, { id });
  return row === null ? undefined : { x: Number(row.positionX), z: Number(row.positionZ) };
}

describe("faults on a running server", function () {
  this.timeout(60_000);

  it("disconnects a player whose commands keep throwing, saved first, while everyone else plays on", async () => {
    const t = await startTestServer({ TICK_MS: "50", SAVE_INTERVAL: "3600" });
    try {
      // A bug that one player's chat reaches.
      const handlers = (t.server.world.world as unknown as { handlers: Map<string, InputRule> }).handlers;
      handlers.set("player:chat", {
        category: "chat",
        handle: () => {
          throw new Error("a bug in the chat handler");
        },
      });
      const a = await WsTestClient.connect(t.wsUrl);
      const b = await WsTestClient.connect(t.wsUrl);
      const aId = String((await a.next("welcome")).playerId);
      const bId = String((await b.next("welcome")).playerId);
      const walked = await walk(a, aId, 2);
      for (let i = 0; i < 2; i++) {
        a.send("player:chat", { message: `hello ${i}` });
        assert.deepEqual(await a.next("error"), { code: "INTERNAL", message: "The server could not carry out this command.", event: "player:chat" });
      }
      a.send("player:chat", { message: "hello 2" });
      assert.deepEqual(await a.next("error"), { code: "INTERNAL", message: "disconnected after repeated server errors; your progress is saved" });
      assert.equal((await a.waitClosed()).code, CLOSE_FAULTS);
      await walk(b, bId, 2);
      for (let i = 0; ; i++) {
        const stored = await storedPosition(t.server, aId);
        if (stored?.z === walked.z) break;
        assert.ok(i < 200, `the faulty player's walk was saved (stored ${JSON.stringify(stored)})`);
        await new Promise((r) => setTimeout(r, 25));
      }
      assert.equal(t.server.world.world.players.has(aId), false);
      assert.equal(t.server.world.faultCounts.input, 3);
      b.socket.close();
    } finally {
      await t.close();
    }
  });

  it("contains a tick that throws outside the game step: counted, the sockets released, the next tick runs", async () => {
    const t = await startTestServer({ TICK_MS: "50" });
    try {
      const c = await WsTestClient.connect(t.wsUrl);
      const id = String((await c.next("welcome")).playerId);
      const service = t.server.world;
      const publishStart = service.publishStart.bind(service);
      let throwing = 2;
      service.publishStart = () => {
        if (throwing > 0) {
          throwing--;
          throw new Error("a bug after the game step");
        }
        publishStart();
      };
      for (let i = 0; service.faultCounts.tick !== 2; i++) {
        assert.ok(i < 200, "two faulty ticks");
        await new Promise((r) => setTimeout(r, 25));
      }
      // Corked during the faulty ticks, the socket still delivers.
      await walk(c, id, 2);
      assert.equal(service.faultCounts.tick, 2);
      c.socket.close();
    } finally {
      await t.close();
    }
  });

  it("closes (everyone told and saved) and exits with 70 when the world room is disposed while it runs", async () => {
    const worldDir = makeWorldDir();
    const env = { NODE_ENV: "test", PORT: "0", HOST: "127.0.0.1", WORLD: worldDir, TICK_MS: "50", SAVE_INTERVAL: "3600", LOG_LEVEL: "info" };
    try {
      const server = await spawnServer(env, undefined, undefined, ["--import", path.join(import.meta.dirname, "..", "support", "disposeWorldOnSignal.ts")]);
      let exit: Exited | undefined;
      let saved: { id: string; walked: { x: number; z: number } };
      try {
        const c = await WsTestClient.connect(`ws://127.0.0.1:${server.port}/ws`);
        const id = String((await c.next("welcome")).playerId);
        saved = { id, walked: await walk(c, id, 3) };
        server.child.kill("SIGUSR2");
        await c.waitClosed(30_000);
        assert.ok(
          c.events.some((e) => e.type === "chat:message" && e.data.message === RESTARTING_NOW_LINE),
          "the player was told",
        );
        exit = await server.exited;
      } finally {
        // Left running (the world gone, the process on), it would outlive the test.
        if (exit === undefined) server.child.kill("SIGKILL");
      }
      assert.equal(exit.code, EXIT_FATAL, exit.stderr);
      assert.match(exit.stdout, /"level":50[^\n]*the world room was disposed while the server runs/);
      const db = await openDatabase(loadConfig(env), pino({ level: "silent" }));
      try {
        const row = await db.em().findOne(Character, { id: saved.id });
        assert.deepEqual(
          { x: Number(row?.positionX), z: Number(row?.positionZ) },
          saved.walked,
          "the walk, made after the last autosave, was saved on the way out",
        );
      } finally {
        await db.close();
      }
    } finally {
      fs.rmSync(worldDir, { recursive: true, force: true });
    }
  });

  it("saves every player and exits with 70 on an exception nothing catches", async () => {
    const worldDir = makeWorldDir();
    const env = { NODE_ENV: "test", PORT: "0", HOST: "127.0.0.1", WORLD: worldDir, TICK_MS: "50", SAVE_INTERVAL: "3600", LOG_LEVEL: "info" };
    try {
      const server = await spawnServer(env, undefined, undefined, ["--import", path.join(import.meta.dirname, "..", "support", "throwOnSignal.ts")]);
      const c = await WsTestClient.connect(`ws://127.0.0.1:${server.port}/ws`);
      const id = String((await c.next("welcome")).playerId);
      const walked = await walk(c, id, 3);
      server.child.kill("SIGUSR2");
      const exit = await server.exited;
      assert.equal(exit.code, EXIT_FATAL, exit.stderr);
      assert.match(exit.stdout, /uncaught exception: saving every player, then exiting/);
      const db = await openDatabase(loadConfig(env), pino({ level: "silent" }));
      try {
        const row = await db.em().findOne(Character, { id });
        assert.deepEqual({ x: Number(row?.positionX), z: Number(row?.positionZ) }, walked, "the walk, made after the last autosave, was saved on the way out");
      } finally {
        await db.close();
      }
    } finally {
      fs.rmSync(worldDir, { recursive: true, force: true });
    }
  });
});
