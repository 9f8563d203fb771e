/**
 * Entry point: `npm start`. Reads `.env`, validates the configuration (refusing to start with a
 * list of every problem), starts the server, and shuts it down gracefully on SIGTERM/SIGINT with
 * a watchdog that exits anyway after {@link SHUTDOWN_WATCHDOG_MS}.
 */
import { ConfigError, loadConfig } from "./config/env.ts";
import { readDotEnv } from "./config/dotenv.ts";
import { createLogger } from "./logger.ts";
import { ManifestValidationError } from "./manifests/validate.ts";
import { startServer } from "./server.ts";

export const SHUTDOWN_WATCHDOG_MS = 10_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(readDotEnv(process.cwd(), process.env));
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`rs-world-server: refusing to start.\n${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const logger = createLogger(config);
  let server;
  try {
    server = await startServer(config, logger);
  } catch (err) {
    if (err instanceof ManifestValidationError) {
      process.stderr.write(`rs-world-server: refusing to start.\n${err.message}\n`);
      process.exit(65); // EX_DATAERR
    }
    throw err;
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "signal received, shutting down");
    const watchdog = setTimeout(() => {
      logger.error(`shutdown did not finish within ${SHUTDOWN_WATCHDOG_MS} ms: exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_WATCHDOG_MS);
    server.close().then(
      () => {
        clearTimeout(watchdog);
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((err: unknown) => {
  process.stderr.write(`rs-world-server: failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
