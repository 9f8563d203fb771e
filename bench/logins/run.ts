/* eslint-disable no-console */
/**
 * Logins benchmark: the database side of a login storm on SQLite, in one process, no sockets. N
 * characters are created on a fresh database with the server's own code, then loaded through its
 * login path (`loadOrCreatePlayer`: the character, its inventory, equipment and bank) round after
 * round, alternating MikroORM's own SQLite driver with the server's (`ReusingSqliteDriver`,
 * src/db/sqliteStatements.ts: string parameters bound, compiled statements reused). Per driver
 * and round: the main thread's CPU per login (`process.threadCpuUsage`), the wall time per login,
 * and how many statements SQLite compiled. `--at-once`: every login at the same time (a storm of
 * reconnections after a restart: thousands of queries waiting for the one connection) instead of
 * one after the other.
 *
 *   node bench/logins/run.ts [--players 2000] [--rounds 3] [--at-once] [--out <json>]
 *
 * See bench/README.md ("logins").
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseCli } from "../../src/cli.ts";
import { MikroORM } from "@mikro-orm/core";
import { SqliteDriver } from "@mikro-orm/sqlite";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, ormOptions, type Database } from "../../src/db/orm.ts";
import { ReusingSqliteConnection } from "../../src/db/sqliteStatements.ts";
import { loadOrCreatePlayer } from "../../src/persistence/players.ts";
import { ROOT, bundledContent, round as roundTo, writeResults } from "../world-load/common.ts";

const CLI = {
  command: "npm run bench:logins -- [options]",
  summary: `Logins benchmark: the database side of a login storm on SQLite, in one process, no sockets. See bench/logins/README.md.`,
};
const { values } = parseCli(CLI, {
  options: {
    players: { type: "string", default: "2000" },
    rounds: { type: "string", default: "3" },
    "at-once": { type: "boolean", default: false },
    out: { type: "string" },
  },
});
const atOnce = values["at-once"];
const players = Number(values.players);
const rounds = Number(values.rounds);
if (!(Number.isInteger(players) && players > 0 && Number.isInteger(rounds) && rounds > 0)) {
  console.error("usage: run.ts [--players 2000] [--rounds 3] [--at-once] [--out file.json]");
  process.exit(2);
}

const started = new Date().toISOString();
const logger = pino({ level: "silent" });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-logins-"));
const url = `sqlite:${path.join(dir, "game.sqlite")}`;
const content = await bundledContent();

// The characters, created through the server's own database setup (migrations included).
const setup = await openDatabase(loadConfig({ DATABASE_URL: url, WORLD_DIR: dir, JWT_SECRET: "b".repeat(40) }, ROOT), logger);
for (let i = 0; i < players; i++) await loadOrCreatePlayer(setup, content, { accountId: `acc-${i}`, name: `Login${i}` });
await setup.close();

/** The database with one driver or the other, as far as the login path uses it. */
async function open(reusing: boolean): Promise<{ db: Database; compiled: () => number | undefined; close: () => Promise<void> }> {
  const options = await ormOptions(url, logger);
  const orm = await MikroORM.init({ ...options, ...(reusing ? {} : { driver: SqliteDriver }) } as Parameters<typeof MikroORM.init>[0]);
  const connection = orm.em.getConnection() as unknown;
  const db = { em: () => orm.em.fork(), statements: orm.em.fork() } as unknown as Database;
  return {
    db,
    compiled: () => (connection instanceof ReusingSqliteConnection ? connection.compiledStatements() : undefined),
    close: () => orm.close(true),
  };
}

const results: Record<string, unknown>[] = [];
for (let round = 1; round <= rounds; round++) {
  for (const reusing of [false, true]) {
    const { db, compiled, close } = await open(reusing);
    // One login each first: the connection's own setup and the first compile of each query are not the storm's.
    await loadOrCreatePlayer(db, content, { accountId: "acc-0" });
    const compiledBefore = compiled();
    const cpu = process.threadCpuUsage();
    const started = performance.now();
    if (atOnce) await Promise.all(Array.from({ length: players }, (_, i) => loadOrCreatePlayer(db, content, { accountId: `acc-${i}` })));
    else for (let i = 0; i < players; i++) await loadOrCreatePlayer(db, content, { accountId: `acc-${i}` });
    const wallMs = performance.now() - started;
    const used = process.threadCpuUsage(cpu);
    const compiledAfter = compiled();
    await close();
    const r = {
      round,
      driver: reusing ? "ReusingSqliteDriver" : "SqliteDriver",
      logins: players,
      atOnce,
      cpuMsPerLogin: roundTo((used.user + used.system) / 1000 / players, 3),
      wallMsPerLogin: roundTo(wallMs / players, 3),
      statementsCompiled: compiledBefore === undefined || compiledAfter === undefined ? "every query" : compiledAfter - compiledBefore,
    };
    results.push(r);
    console.log(JSON.stringify(r));
  }
}
fs.rmSync(dir, { recursive: true, force: true });
if (values.out !== undefined) writeResults(values.out, "logins", started, { players, rounds, atOnce }, results);
process.exit(0);
