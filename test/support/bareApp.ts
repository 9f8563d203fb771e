/**
 * The Express app alone (createApp), over real HTTP on an ephemeral port, with routes the test
 * mounts: for what the app does around routes (errors, the response check) without a game server.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Application } from "express";
import { pino, type Logger } from "pino";
import { Authenticator } from "../../src/auth/Authenticator.ts";
import { TokenService } from "../../src/auth/tokens.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/orm.ts";
import { DatabaseProbe } from "../../src/db/probe.ts";
import { createApp } from "../../src/http/app.ts";
import { createOriginCheck } from "../../src/http/cors.ts";
import { buildRegistry } from "../../src/manifests/registry.ts";

export async function bareApp(
  env: Record<string, string>,
  mount: (app: Application) => void,
  logger: Logger = pino({ level: "silent" }),
): Promise<{ url: string; close(): Promise<void> }> {
  const config = loadConfig(env);
  const db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: "sqlite::memory:" }), pino({ level: "silent" }));
  const app = createApp({
    config,
    logger,
    auth: new Authenticator(new TokenService({ jwtSecret: "k".repeat(32), idp: config.idp }), db),
    adminCode: "code",
    probe: new DatabaseProbe("sqlite", async () => 1),
    isAllowedOrigin: createOriginCheck(config.cors),
    content: buildRegistry(new Map()).registry,
    mount,
  });
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await db.close();
    },
  };
}
