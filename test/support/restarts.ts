/**
 * Servers started one after another on the same world directory and database, for tests of what a
 * character keeps across a restart: `start()` starts the next one; every one started is closed, and
 * the world directory removed, after the suite. Registers the suite's before/after hooks.
 */
import fs from "node:fs";
import { startTestServer, type TestServer } from "./server.ts";
import { makeWorldDir } from "./world.ts";

export function restartableServers(databaseUrl: () => string, jwtSecret: string): { start: () => Promise<TestServer>; last: () => TestServer } {
  let worldDir: string;
  let env: Record<string, string>;
  const servers: TestServer[] = [];
  before(() => {
    worldDir = makeWorldDir("bundled");
    // A fixed secret: a token issued before a restart must still be valid after it.
    env = { DATABASE_URL: databaseUrl(), TICK_MS: "50", DISABLE_RATE_LIMIT: "true", JWT_SECRET: jwtSecret };
  });
  after(async () => {
    for (const t of servers) await t.close().catch(() => {});
    fs.rmSync(worldDir, { recursive: true, force: true });
  });
  return {
    start: async () => {
      const t = await startTestServer(env, "bundled", worldDir);
      servers.push(t);
      return t;
    },
    last: () => servers.at(-1)!,
  };
}
