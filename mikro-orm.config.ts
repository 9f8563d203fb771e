/**
 * The MikroORM CLI's configuration, for `npm run migration:list`, `migration:pending`,
 * `migration:up` and `migration:down`: the database the server would open, read by the server's
 * own code. The environment and `.env` go through `loadConfig` (`DATABASE_URL`, `WORLD`,
 * `USE_LOCAL_POSTGRES`), `databaseLocation` picks the database (the SQLite default is
 * `<WORLD>/local/game.sqlite`), and `ormOptions` gives the ORM options `openDatabase` opens it
 * with, with the migrations folder of its dialect (`src/db/migrations/<dialect>/`).
 *
 * The npm scripts run the CLI through `scripts/mikro-orm.ts`, which passes this file as
 * `--config`. In package.json, `"mikro-orm": {"preferTs": false}` keeps the CLI from looking for a
 * TypeScript loader (oxc, swc, tsx…) and warning when there is none: Node 24 strips the types of
 * this file and of everything it imports itself. (The CLI's own binary, without `--config`, then
 * looks only for `mikro-orm.config.js`.)
 *
 * With `USE_LOCAL_POSTGRES` the CLI does not start the local PostgreSQL: it uses the one the
 * server runs (same port and credentials), and says so when none is running.
 */
import net from "node:net";
import { pino } from "pino";
import { loadConfig } from "./src/config/env.ts";
import { readDotEnv } from "./src/config/dotenv.ts";
import { databaseLocation, ormOptions } from "./src/db/orm.ts";

/** How long to wait for the local PostgreSQL's port to answer. */
const LOCAL_POSTGRES_PROBE_MS = 2_000;

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1", timeout: LOCAL_POSTGRES_PROBE_MS });
    const done = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  });
}

export default async function mikroOrmCliConfig() {
  const config = loadConfig(readDotEnv(process.cwd(), process.env));
  const { url, local } = databaseLocation(config);
  if (local && !(await portAnswers(config.localPostgresPort))) {
    throw new Error(
      `USE_LOCAL_POSTGRES: no local PostgreSQL answers on port ${config.localPostgresPort}; it runs while the server runs (npm start): start the server, or set DATABASE_URL`,
    );
  }
  // The ORM's own log lines (queries, with MIKRO_ORM_CLI_VERBOSE=true) go to stderr, apart from
  // the CLI's tables on stdout.
  const logger = pino({ level: "debug", base: { component: "mikro-orm-cli" } }, pino.destination(2));
  return ormOptions(url, logger);
}
