/**
 * A real server for a test: real HTTP on an ephemeral port, a temporary world directory with the
 * bundled content in it, and the database URL the test chooses (SQLite in the world dir by default).
 */
import fs from "node:fs";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { startServer, type GameServer } from "../../src/server.ts";
import { makeWorldDir, type WorldContent } from "./world.ts";

export interface TestServer {
  server: GameServer;
  baseUrl: string;
  wsUrl: string;
  worldDir: string;
  close(): Promise<void>;
}

/**
 * Starts a server on a fresh world directory, or on `reuseWorld` (a restart: that directory is
 * then left in place at close).
 */
export async function startTestServer(
  env: Record<string, string> = {},
  content: WorldContent = "bundled",
  reuseWorld?: string,
  /** Receives every log record at `info` and above (parsed), instead of the default silent logger. */
  onLog?: (record: Record<string, unknown>) => void,
): Promise<TestServer> {
  const worldDir = reuseWorld ?? makeWorldDir(content);
  const ownsWorld = reuseWorld === undefined;
  const config = loadConfig({ NODE_ENV: "test", PORT: "0", HOST: "127.0.0.1", WORLD: worldDir, ...env });
  let server: GameServer;
  try {
    const logger =
      onLog !== undefined
        ? pino({ level: "info" }, { write: (line: string) => onLog(JSON.parse(line) as Record<string, unknown>) })
        : pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
    server = await startServer(config, logger);
  } catch (err) {
    if (ownsWorld) fs.rmSync(worldDir, { recursive: true, force: true });
    throw err;
  }
  return {
    server,
    baseUrl: `http://127.0.0.1:${server.port}`,
    wsUrl: `ws://127.0.0.1:${server.port}/ws`,
    worldDir,
    async close() {
      await server.close();
      if (ownsWorld) fs.rmSync(worldDir, { recursive: true, force: true });
    },
  };
}
