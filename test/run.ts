/**
 * `npm test`: the whole suite. Finds a PostgreSQL server (TEST_PG_URL, else 127.0.0.1:5432
 * database `test`) or starts an embedded one, so that every database test runs on SQLite and on
 * PostgreSQL, and a Redis (TEST_REDIS_URL, else a `redis-server` it starts, else 127.0.0.1:6379)
 * for the cluster suites; then runs mocha over test/**\/*.test.ts. In CI (`CI=true`) a missing
 * PostgreSQL or Redis is a failure, and so is any skipped test. Ends with one line: `tests: N passed, N failed, N skipped`.
 */
import fs from "node:fs";
import path from "node:path";
import Mocha from "mocha";
import { providePostgres } from "./support/postgres.ts";
import { provideRedis } from "./support/redis.ts";
import { watchBlockedLoop } from "./support/watchdog.ts";
import { parseCli } from "../src/cli.ts";

const root = path.join(import.meta.dirname);
const filter = parseCli(
  {
    command: "npm test -- [part of a test file's path ...]",
    summary: "Runs the test suite (mocha over test/**/*.test.ts, on SQLite and PostgreSQL): every file, or those whose path contains one of the parts given.",
  },
  { options: {}, allowPositionals: true },
).positionals;
const files = fs
  .globSync("**/*.test.ts", { cwd: root })
  .map((f) => path.join(root, f))
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort();

const ci = /^(true|1)$/i.test(process.env.CI ?? "");
const pgServer = await providePostgres();
if (pgServer === undefined) {
  // Suites read TEST_PG_URL to decide; an unreachable one must not stay set.
  delete process.env.TEST_PG_URL;
  if (ci) {
    process.stderr.write("tests: no PostgreSQL server could be found or started; CI requires the PostgreSQL runs.\n");
    process.exit(1);
  }
  process.stderr.write("\n*** WARNING: no PostgreSQL available: the PostgreSQL runs of the database tests are SKIPPED. ***\n\n");
} else {
  process.env.TEST_PG_URL = pgServer.adminUrl;
  process.stdout.write(`tests: PostgreSQL at ${pgServer.adminUrl.replace(/\/\/[^@]*@/, "//")} (${pgServer.kind})\n`);
}

// Redis for the cluster suites (several server processes sharing Colyseus' Redis presence and driver).
const redisServer = await provideRedis();
if (redisServer === undefined) {
  delete process.env.TEST_REDIS_URL;
  if (ci) {
    process.stderr.write(
      "tests: no Redis at TEST_REDIS_URL or 127.0.0.1:6379 and no redis-server to start (apt-get install redis-server); CI requires the cluster runs.\n",
    );
    process.exit(1);
  }
  process.stderr.write("\n*** WARNING: no Redis available (none at 127.0.0.1:6379, no redis-server installed): the cluster tests are SKIPPED. ***\n\n");
} else {
  process.env.TEST_REDIS_URL = redisServer.url;
  process.stdout.write(`tests: Redis at ${redisServer.url} (${redisServer.kind})\n`);
}

const mocha = new Mocha({ timeout: 30_000, slow: 2_000, reporter: "spec", forbidOnly: ci });
for (const f of files) mocha.addFile(f);
await mocha.loadFilesAsync();
const runner = mocha.run();
watchBlockedLoop((onTest) => runner.on("test", (test) => onTest(test.fullTitle())));
const stats = await new Promise<Mocha.Stats>((resolve) => runner.on("end", () => resolve(runner.stats!)));
await pgServer?.stop();
await redisServer?.stop();
process.stdout.write(`\ntests: ${stats.passes} passed, ${stats.failures} failed, ${stats.pending} skipped\n`);
// In CI nothing may be skipped in silence (no PostgreSQL, a missing fixture): a skip fails the run.
if (ci && stats.pending > 0) process.stderr.write(`tests: ${stats.pending} skipped; CI requires every test to run.\n`);
process.exit(stats.failures > 0 || stats.tests === 0 || (ci && stats.pending > 0) ? 1 : 0);
