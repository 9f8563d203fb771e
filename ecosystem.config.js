// PM2 process file: `npx pm2 start ecosystem.config.js --env production`.
// One process for now (the world lives in one process's memory); multi-process comes with the
// Redis presence/driver. The pinned Node 24 from node_modules runs the TypeScript sources
// directly (type stripping), so there is no build step. PM2 loads this ES module with require(),
// which Node >= 22.12 supports; PM2 reads the named `apps` export.
export const apps = [
  {
    name: "rs-world-server",
    script: "src/main.ts",
    interpreter: "./node_modules/.bin/node",
    // As `npm start`: a larger young generation (see bench/README.md, "V8 young generation").
    node_args: ["--max-semi-space-size=64"],
    exec_mode: "fork",
    instances: 1,
    autorestart: true,
    // SIGTERM, then SIGKILL after this long: above the server's own 10 s shutdown watchdog.
    kill_timeout: 12_000,
    max_memory_restart: "2G",
    env: { NODE_ENV: "development" },
    env_production: { NODE_ENV: "production" },
  },
];
