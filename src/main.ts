/**
 * Entry point: `npm start`. Reads `.env`, validates the configuration (refusing to start with a
 * list of every problem), starts the server, and shuts it down gracefully on SIGTERM/SIGINT with
 * a watchdog that exits anyway after {@link SHUTDOWN_WATCHDOG_MS}. An uncaught exception saves
 * every player, then exits with {@link EXIT_FATAL}. Importing this module starts a server: what
 * others need of it is in ./exit.ts.
 */
import { ConfigError, loadConfig } from "./config/env.ts";
import { readDotEnv } from "./config/dotenv.ts";
import { createLogger } from "./logger.ts";
import { ManifestValidationError } from "./manifests/validate.ts";
import { startServer } from "./server.ts";
import { RESTARTING_NOW_LINE } from "./game/restart.ts";
import { EXIT_CONFIG, EXIT_FATAL, SHUTDOWN_WATCHDOG_MS } from "./exit.ts";
import { StartupError } from "./startupError.ts";
import { parseCli } from "./cli.ts";

async function main(): Promise<void> {
  parseCli(
    {
      command: "npm start",
      summary:
        "Starts the game server: its configuration from the environment and .env (docs/configuration.md), the world on PORT (default 5555). Takes no options.",
    },
    { options: {} },
  );
  let config;
  try {
    config = loadConfig(readDotEnv(process.cwd(), process.env));
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`rs-world-server: refusing to start.\n${err.message}\n`);
      process.exit(EXIT_CONFIG);
    }
    throw err;
  }
  const logger = createLogger(config);
  // The handlers go in before the server starts: a signal that arrives while it starts (or right as
  // it says it listens, before this function would go on) waits for the start, then shuts down
  // gracefully, instead of killing the process with the signal's default action.
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let pending: string | undefined;
  let startupWatchdog: NodeJS.Timeout | undefined;
  let stopping = false;
  /** `exitCode`: once closed (0: the supervisor's restart of a clean stop). */
  const stop = (signal: string, exitCode = 0) => {
    if (server === undefined) {
      // A start that never finishes (a database that never answers) still ends.
      pending ??= signal;
      startupWatchdog ??= setTimeout(() => {
        logger.error({ signal }, `${signal} during startup, and the start did not finish within ${SHUTDOWN_WATCHDOG_MS} ms: exiting`);
        process.exit(1);
      }, SHUTDOWN_WATCHDOG_MS);
      return;
    }
    clearTimeout(startupWatchdog);
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "signal received, shutting down");
    const watchdog = setTimeout(() => {
      logger.error(`shutdown did not finish within ${SHUTDOWN_WATCHDOG_MS} ms: exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_WATCHDOG_MS);
    // Players hear of it before their sockets close (a signal or a scheduled restart alike).
    server.close({ notice: RESTARTING_NOW_LINE }).then(
      () => {
        clearTimeout(watchdog);
        process.exit(exitCode);
      },
      (err: unknown) => {
        logger.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  try {
    server = await startServer(config, logger);
  } catch (err) {
    if (err instanceof ManifestValidationError) {
      process.stderr.write(`rs-world-server: refusing to start.\n${err.message}\n`);
      process.exit(65); // EX_DATAERR
    }
    if (err instanceof StartupError) {
      // One line an operator acts on (a service down, a port in use); the trace of what it came
      // from only when asked for (LOG_LEVEL=debug or trace).
      const cause = logger.isLevelEnabled("debug") && err.cause instanceof Error ? `${err.cause.stack ?? err.cause.message}\n` : "";
      process.stderr.write(`rs-world-server: failed to start: ${err.message}\n${cause}`);
      process.exit(err.exitCode);
    }
    throw err;
  }

  if (pending !== undefined) stop(pending);
  // PM2 (`wait_ready`, ecosystem.config.cjs) counts the process as started once it says so.
  process.send?.("ready");
  // A scheduled maintenance restart (POST /api/admin/restart) ends as SIGTERM does: the graceful
  // close, then exit 0, and the supervisor (PM2's autorestart) starts the process again.
  server.onRestart = () => stop("scheduled restart");
  // A world room disposed while the process runs (a bug; the monitor's DISPOSE is refused) left a
  // process that answered but ran no world: it closes as at a signal (everyone saved and told),
  // and exits non-zero, a failure for the supervisor to restart.
  server.onWorldLost = () => stop("world room disposed", EXIT_FATAL);

  // The last resort: an exception nothing contained (the tick contains its own, see World.step and
  // WorldRoom.onUncaughtException). The process may be in any state, so it does not try to go on:
  // every player is saved, then it exits non-zero and the supervisor (PM2) starts it again.
  let dying = false;
  const fatal = (err: unknown) => {
    logger.fatal({ err }, "uncaught exception: saving every player, then exiting");
    if (dying) return;
    dying = true;
    setTimeout(() => {
      logger.error(`the last save did not finish within ${SHUTDOWN_WATCHDOG_MS} ms: exiting anyway`);
      process.exit(EXIT_FATAL);
    }, SHUTDOWN_WATCHDOG_MS).unref();
    server.world.saveEveryone().then(
      () => process.exit(EXIT_FATAL),
      (saveErr: unknown) => {
        logger.error({ err: saveErr }, "the last save failed");
        process.exit(EXIT_FATAL);
      },
    );
  };
  process.on("uncaughtException", fatal);
  process.on("unhandledRejection", fatal);
}

main().catch((err: unknown) => {
  process.stderr.write(`rs-world-server: failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
