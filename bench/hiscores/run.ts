/* eslint-disable no-console */
/**
 * Hiscores benchmark: the queries behind `GET /api/v1/hiscores` and
 * `GET /api/characters/:id/hiscores` (src/persistence/hiscores.ts) on a fresh database holding N
 * characters with spread levels, xp and times, created through the server's migrations (so with
 * its indexes) and filled by one `insert … select` of generated rows. Each case runs its query
 * `--queries` times, uncached (the route's cache would answer most of them), and reports the
 * median, 95th percentile and worst, in ms.
 *
 *   npm run bench:hiscores [-- --players 100000 --queries 200 --dialect postgresql|sqlite|both --out <json>]
 *
 * `--help` for the options; bench/hiscores/README.md for what it measured.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { parseCli } from "../../src/cli.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import { SKILLS } from "../../src/game/skills.ts";
import { characterRanks, hiscoreEntries, rankedCount } from "../../src/persistence/hiscores.ts";
import { freshPostgres, releaseScratch } from "../postgres.ts";
import { ROOT, round, writeResults } from "../world-load/common.ts";

const USAGE = `Usage: npm run bench:hiscores [-- options]
  --players N        characters in the database (default 100000)
  --queries N        runs of each query (default 200)
  --dialect D        postgresql, sqlite or both (default both); PostgreSQL on TEST_PG_URL or the local test server
  --out FILE         the results (default bench/hiscores/results.json)
  --keep             keep the scratch database
  --help             this text`;

const { values: args } = parseCli(USAGE, {
  options: {
    players: { type: "string", default: "100000" },
    queries: { type: "string", default: "200" },
    dialect: { type: "string", default: "both" },
    out: { type: "string", default: path.join(ROOT, "bench", "hiscores", "results.json") },
    keep: { type: "boolean", default: false },
  },
});
const players = Number(args.players);
const queries = Number(args.queries);
const dialects: string[] = args.dialect === "both" ? ["postgresql", "sqlite"] : [args.dialect];
if (!(Number.isInteger(players) && players > 0 && Number.isInteger(queries) && queries > 0) || !dialects.every((d) => d === "postgresql" || d === "sqlite")) {
  console.error(USAGE);
  process.exit(2);
}

const started = new Date().toISOString();
const logger = pino({ level: "silent" });

/**
 * A prime per skill for its levels, none dividing 99, so that every level 1..99 holds as many
 * characters (an earlier fill multiplied by 7 + 2i, of which 9, 15, 21, 27, 33 and 39 share a
 * factor with 99: their skills had only 3 to 33 distinct levels, a third of the characters each
 * at worst).
 */
const LEVEL_PRIMES = [7, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73];
if (LEVEL_PRIMES.length < SKILLS.length) throw new Error("a prime per skill");

/**
 * N characters in one statement: levels 1..99 and xp up to 13,000,000 spread by multiplying the
 * row number by a different prime per skill, `xpGainedAt` spread over a year.
 */
function fillSql(dialect: "postgresql" | "sqlite"): string {
  const columns = SKILLS.map((s) => `"${s}Level", "${s}XpTenths"`).join(", ");
  const values = SKILLS.map((_s, i) => `1 + (g * ${LEVEL_PRIMES[i]}) % 99, (g * ${7919 + 31 * i}) % 13000000`).join(", ");
  const rows =
    dialect === "postgresql"
      ? "generate_series(1, ?) as t (g)"
      : `(with recursive n (g) as (select 1 union all select g + 1 from n where g < ?) select g from n)`;
  return (
    `insert into "characters" ("id", "accountId", "name", "nameKey", "xpGainedAt", ${columns}) ` +
    `select 'bench-' || g, 'bench-account-' || g, 'Bench' || g, 'bench' || g, 1700000000000 + (g * 7727) % 31536000000, ${values} from ${rows}`
  );
}

/** Times `run` `queries` times: median, p95 and worst (ms). */
async function time(run: () => Promise<unknown>): Promise<{ medianMs: number; p95Ms: number; maxMs: number }> {
  await run(); // warm: the statement compiled, the pages read once
  const ms: number[] = [];
  for (let i = 0; i < queries; i++) {
    const t0 = performance.now();
    await run();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { medianMs: round(ms[Math.floor(ms.length / 2)]!, 2), p95Ms: round(ms[Math.floor(ms.length * 0.95)]!, 2), maxMs: round(ms.at(-1)!, 2) };
}

const results: object[] = [];
for (const dialect of dialects) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-hiscores-"));
  const pg = dialect === "postgresql" ? await freshPostgres("bench_hiscores") : undefined;
  const url = pg?.url ?? `sqlite:${path.join(dir, "game.sqlite")}`;
  let db: Database | undefined;
  try {
    db = await openDatabase(loadConfig({ DATABASE_URL: url, WORLD_DIR: dir, JWT_SECRET: "b".repeat(40) }, ROOT), logger);
    const fillStart = performance.now();
    await db.statements.execute(fillSql(dialect), [players]);
    // The statistics, and on PostgreSQL the visibility map that autovacuum keeps in a running
    // database (an index-only count reads no table page of an all-visible one).
    await db.statements.execute(dialect === "postgresql" ? `vacuum analyze "characters"` : `analyze "characters"`);
    console.error(`${dialect}: ${players} characters in ${round((performance.now() - fillStart) / 1000, 1)} s`);
    const em = db.statements;
    const middle = `bench-${Math.ceil(players / 2)}`;
    const deep = Math.max(0, Math.floor(players / 2) - 100);
    const cases: [string, () => Promise<unknown>][] = [
      ["page overall, top 100", () => hiscoreEntries(em, "overall", 100, 0)],
      ["page mining, top 100", () => hiscoreEntries(em, "mining", 100, 0)],
      [`page overall, 100 at rank ${deep + 1}`, () => hiscoreEntries(em, "overall", 100, deep)],
      [`page mining, 100 at rank ${deep + 1}`, () => hiscoreEntries(em, "mining", 100, deep)],
      ["total (count of characters)", () => rankedCount(em)],
      ["one character's ranks (18 tables)", () => characterRanks(em, middle)],
    ];
    for (const [name, run] of cases) {
      const r = { dialect, players, query: name, ...(await time(run)) };
      console.error(`${dialect}: ${name}: median ${r.medianMs} ms, p95 ${r.p95Ms} ms, max ${r.maxMs} ms`);
      results.push(r);
    }
  } finally {
    await db?.close();
    await releaseScratch({ dir, db: pg, keep: args.keep, tag: "bench:hiscores", log: (m) => console.error(m) });
  }
}
writeResults(args.out, "hiscores", started, { players, queries, dialects }, results);
console.log(JSON.stringify({ out: args.out, results }));
