/**
 * A real server for a test: real HTTP on an ephemeral port, a temporary world directory, and the
 * database URL the test chooses (SQLite in the world dir by default).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { startServer, type GameServer } from "../../src/server.ts";

export interface TestServer {
  server: GameServer;
  baseUrl: string;
  wsUrl: string;
  worldDir: string;
  close(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const worldDir = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-world-"));
  const config = loadConfig({ NODE_ENV: "test", PORT: "0", HOST: "127.0.0.1", WORLD: worldDir, ...env });
  const server = await startServer(config, pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }));
  return {
    server,
    baseUrl: `http://127.0.0.1:${server.port}`,
    wsUrl: `ws://127.0.0.1:${server.port}/ws`,
    worldDir,
    async close() {
      await server.close();
      fs.rmSync(worldDir, { recursive: true, force: true });
    },
  };
}
