/**
 * Secrets outside production. Production refuses to start without `JWT_SECRET` and `ADMIN_CODE`
 * (see env.ts); a development or test server makes its own instead of running unprotected:
 * - the token secret is generated once and kept in `<WORLD>/local/jwt-secret`, so anonymous
 *   players' tokens stay valid across restarts;
 * - the admin code is generated per process and logged once, so the monitor is usable locally.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "./env.ts";
import type { Logger } from "../logger.ts";

export interface Secrets {
  jwtSecret: string;
  adminCode: string;
}

export function resolveSecrets(config: Config, logger: Logger): Secrets {
  let jwtSecret = config.jwtSecret;
  if (jwtSecret === undefined) {
    const file = path.join(config.worldDir, "local", "jwt-secret");
    try {
      jwtSecret = fs.readFileSync(file, "utf8").trim();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    if (!jwtSecret) {
      jwtSecret = randomBytes(32).toString("base64url");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      try {
        // Exclusive: processes of a cluster starting together on one world directory (PM2) must
        // all end up with the same secret, the first one written.
        fs.writeFileSync(file, `${jwtSecret}\n`, { mode: 0o600, flag: "wx" });
        logger.info({ file }, "JWT_SECRET is not set: generated a local token secret");
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        // Written by another process an instant ago: read it once its line is there.
        for (const until = Date.now() + 2_000; ;) {
          jwtSecret = fs.readFileSync(file, "utf8").trim();
          if (jwtSecret !== "" || Date.now() > until) break;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
        }
        if (!jwtSecret) throw new Error(`${file} is empty: delete it, or set JWT_SECRET`, { cause: err });
      }
    }
  }
  let adminCode = config.adminCode;
  if (adminCode === undefined) {
    adminCode = randomBytes(12).toString("base64url");
    logger.warn(`ADMIN_CODE is not set: this process's admin code is ${adminCode} (monitor at /colyseus, any user name)`);
  }
  return { jwtSecret, adminCode };
}
