/**
 * Two real server processes, worlds 1 and 2, on one Redis and one PostgreSQL database (as
 * test/cluster/cluster.test.ts starts them), for tests of what a hop carries: started one at a time
 * (the first migrates), with a database handle for writes before a login, a REST `post` on world 1,
 * a `/ws` `login` on either world, and `close` (SIGKILL, then the database and the world folders).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import { createTestDatabase, freePort, type TestDatabase } from "./postgres.ts";
import { spawnServer, type Running } from "./process.ts";
import { freshRedisUrl } from "./redis.ts";
import { makeWorldDir } from "./world.ts";
import { WsTestClient } from "./wsClient.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface HopWorlds {
  db: Database;
  post(path: string, token?: string, body?: object): Promise<Json>;
  /** A /ws login: the welcome and the first player:sync, or the refusal. */
  login(world: number, query: string): Promise<{ client: WsTestClient; sync?: Json; refused?: Json }>;
  close(): Promise<void>;
}

interface Node {
  world: number;
  port: number;
  dir: string;
  run: Running;
}

/** Starts worlds 1 and 2; `name` keeps each test's secrets apart. */
export async function startHopWorlds(name: string, opts: { tickMs: number; hopCooldownS: number }): Promise<HopWorlds> {
  const nodes: Node[] = [];
  let pgDb: TestDatabase | undefined;
  let db: Database | undefined;
  const close = async () => {
    for (const n of nodes) n.run.child.kill("SIGKILL");
    await Promise.all(nodes.map((n) => n.run.exited));
    await db?.close();
    await pgDb?.drop();
    for (const n of nodes) fs.rmSync(n.dir, { recursive: true, force: true });
  };
  try {
    pgDb = await createTestDatabase();
    const env = {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      HOST: "127.0.0.1",
      DATABASE_URL: pgDb.url,
      REDIS_URL: await freshRedisUrl(),
      JWT_SECRET: `${name}-secret-0123456789abcdefghijklmnop`,
      ADMIN_CODE: `${name}-admin-code`,
      TICK_MS: String(opts.tickMs),
      SAVE_INTERVAL: "1",
      DISABLE_RATE_LIMIT: "true",
      CHARACTER_LEASE_MS: "1500",
      HOP_COOLDOWN_S: String(opts.hopCooldownS),
    };
    for (const world of [1, 2]) {
      const port = await freePort();
      const dir = makeWorldDir();
      // One at a time: the first migrates the database.
      const run = await spawnServer(
        { ...env, WORLD: dir, WORLD_ID: String(world), PORT: String(port), PUBLIC_ADDRESS: `127.0.0.1:${port}` },
        undefined,
        30_000,
      );
      nodes.push({ world, port, dir, run });
    }
    db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: pgDb.url }), pino({ level: "silent" }));
  } catch (err) {
    await close();
    throw err;
  }
  const port = (world: number) => nodes.find((n) => n.world === world)!.port;
  return {
    db,
    close,
    async post(path, token, body) {
      const res = await fetch(`http://127.0.0.1:${port(1)}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body ?? {}),
      });
      assert.ok(res.status < 300, `${path}: ${res.status}`);
      return (await res.json()) as Json;
    },
    async login(world, query) {
      const client = await WsTestClient.connect(`ws://127.0.0.1:${port(world)}/ws?world=${world}&${query}`);
      const first = await client.nextOf(["welcome", "error"], 20_000);
      if (first.type === "welcome") return { client, sync: await client.next("player:sync", 10_000) };
      return { client, refused: first.data };
    },
  };
}
