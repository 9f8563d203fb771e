/**
 * Structured logs (pino): JSON lines in production and test, pretty-printed in development.
 */
import { pino, type Logger } from "pino";

export type { Logger };

/** What the logger is made from (the Config's fields of these names, src/config/env.ts). */
export interface LoggerOptions {
  nodeEnv: string;
  logLevel: string;
  commitHash: string | undefined;
}

export function createLogger(config: LoggerOptions): Logger {
  const pretty = config.nodeEnv === "development";
  return pino({
    level: config.logLevel,
    base: { service: "rs-world-server", ...(config.commitHash ? { commit: config.commitHash } : {}) },
    redact: { paths: ["req.headers.authorization", "*.token", "*.password"], censor: "[redacted]" },
    // Pretty: without the fields every line repeats (the service) or that a request line's message
    // already says (see http/requestLog.ts), so a request is one line.
    ...(pretty
      ? { transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service,req,res,responseTime" } } }
      : {}),
  });
}
