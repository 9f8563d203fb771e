// PM2 process file (CommonJS, as PM2 loads it with require(); the package itself is an ES module):
//   npm run cluster:start             (pm2 start ecosystem.config.cjs; --env production for production)
//   npm run cluster:status / cluster:logs / cluster:stop
// One process per world, one per core by default (WORLDS=N for another count). PM2 gives each
// instance i NODE_APP_INSTANCE=i, and the server (src/config/env.ts) runs world 1 + i on PORT + i
// (METRICS_PORT + i), so the instances are worlds 1..N on consecutive ports. They are one cluster
// through Redis (REDIS_URL; the local one by default) and one database (DATABASE_URL; by default
// the SQLite file of the world directory, which the processes share; PostgreSQL in production).
// The pinned Node 24 from node_modules runs the TypeScript sources directly: no build step.
// The processes of a cluster must share JWT_SECRET (the server refuses REDIS_URL without it): when
// it is not set, the development instances get the one kept in <WORLD>/local/jwt-secret, made here
// (owner-only) if missing; production must be given its own (env_production does not take this one).
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const instances = Number(process.env.WORLDS) > 0 ? Number(process.env.WORLDS) : os.availableParallelism();

/** The world directory's token secret, as a single process makes it (src/config/secrets.ts). */
function localJwtSecret() {
  const file = path.join(path.resolve(process.env.WORLD || "world"), "local", "jwt-secret");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret === "") throw new Error(`${file} is empty: delete it, or set JWT_SECRET`);
  return secret;
}
const jwtSecret = process.env.JWT_SECRET || localJwtSecret();

module.exports = {
  apps: [
    {
      name: "rs-world",
      script: "src/main.ts",
      interpreter: "./node_modules/.bin/node",
      // As `npm start`: a larger young generation, and V8's collector on the world's thread alone
      // (see bench/README.md, "V8 young generation" and "the collector's threads").
      node_args: ["--max-semi-space-size=64", "--single-threaded-gc"],
      exec_mode: "fork",
      instances,
      autorestart: true,
      // A configuration the server refuses (exit 78: a bad variable, a refused database login)
      // fails the same way on every restart: stop rather than loop. A dependency that is down
      // (exit 69: PostgreSQL or Redis unreachable) is retried, waiting longer each time (100 ms
      // doubling up to 15 s), so a restarting database is not hammered.
      stop_exit_codes: [78],
      exp_backoff_restart_delay: 100,
      // The server sends "ready" once it listens with its world open; PM2 waits for it (up to
      // listen_timeout) before it counts the instance as started or restarts the next one.
      wait_ready: true,
      listen_timeout: 60_000,
      // SIGTERM, then SIGKILL after this long: above the server's own 10 s shutdown watchdog.
      kill_timeout: 12_000,
      max_memory_restart: "2G",
      env: { NODE_ENV: "development", REDIS_URL: process.env.REDIS_URL || "redis://127.0.0.1:6379", JWT_SECRET: jwtSecret },
      env_production: { NODE_ENV: "production", JWT_SECRET: process.env.JWT_SECRET || "" },
    },
  ],
};
