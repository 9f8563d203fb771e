import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError, loadConfig, MIN_ADMIN_CODE_LENGTH, MIN_JWT_SECRET_BYTES, PRODUCTION_REQUIRED, publicEnv } from "../../src/config/env.ts";
import { readDotEnv } from "../../src/config/dotenv.ts";
import { runToExit } from "../support/process.ts";

const PROD_SECRETS = {
  NODE_ENV: "production",
  DATABASE_URL: "postgresql://u:p@db.internal:5432/game",
  JWT_SECRET: "s".repeat(32),
  ADMIN_CODE: "admin-code-0123",
  PUBLIC_IDP_APP_ID: "app-id",
  IDP_APP_SECRET: "idp-secret",
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
    return err.problems;
  }
  assert.fail("expected the configuration to be refused");
}

describe("configuration", () => {
  it("gives every variable of the spec's table its default with an empty environment", () => {
    const c = loadConfig({}, "/srv/game");
    assert.equal(c.nodeEnv, "development");
    assert.equal(c.port, 5555);
    assert.equal(c.worldDir, "/srv/game/world");
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.useLocalPostgres, false);
    assert.equal(c.publicCdnUrl, "http://localhost:8080");
    assert.equal(c.publicApiUrl, "http://localhost:5555");
    assert.equal(c.publicWsUrl, "ws://localhost:5555/ws");
    assert.equal(c.publicAppUrl, undefined);
    assert.equal(c.clientUrl, undefined);
    assert.deepEqual(c.agentRuntime, { apiUrl: "http://localhost:4001", url: "http://localhost:4001", port: 4001 });
    assert.equal(c.voice, undefined);
    assert.equal(c.skipManifests, false);
    assert.equal(c.skipAssets, false);
    assert.equal(c.ci, false);
    assert.equal(c.saveIntervalS, 60);
    assert.equal(c.wsHeartbeatMs, 30_000);
    assert.equal(c.rateLimitDisabled, false);
    assert.equal(c.commitHash, undefined);
    assert.equal(c.anonymousMode, true, "no identity provider configured means anonymous mode");
  });

  it("reads every variable it is given", () => {
    const c = loadConfig({
      PORT: "6000",
      WORLD: "/data/w",
      PUBLIC_CDN_URL: "https://cdn.example.com/",
      PUBLIC_API_URL: "https://api.example.com",
      PUBLIC_WS_URL: "wss://api.example.com/ws",
      PUBLIC_APP_URL: "https://play.example.com",
      CLIENT_URL: "https://client.example.com",
      AGENT_RT_API_URL: "http://agents.internal:4100",
      AGENT_RT_URL: "ws://agents.internal:4101",
      AGENT_RT_PORT: "4100",
      VOICE_API_KEY: "k",
      VOICE_API_SECRET: "vs",
      VOICE_URL: "wss://voice.example.com",
      SKIP_MANIFESTS: "true",
      SKIP_ASSETS: "1",
      CI: "true",
      SAVE_INTERVAL: "15",
      WS_HEARTBEAT_MS: "250",
      COMMIT_HASH: "abc123",
      PUBLIC_IDP_APP_ID: "app",
      IDP_APP_SECRET: "secret",
      USE_LOCAL_POSTGRES: "true",
      DISABLE_RATE_LIMIT: "true",
    });
    assert.equal(c.port, 6000);
    assert.equal(c.worldDir, "/data/w");
    assert.equal(c.publicCdnUrl, "https://cdn.example.com", "trailing slash removed");
    assert.equal(c.publicWsUrl, "wss://api.example.com/ws");
    assert.deepEqual(c.agentRuntime, { apiUrl: "http://agents.internal:4100", url: "ws://agents.internal:4101", port: 4100 });
    assert.deepEqual(c.voice, { apiKey: "k", apiSecret: "vs", url: "wss://voice.example.com" });
    assert.equal(c.skipManifests, true);
    assert.equal(c.skipAssets, true);
    assert.equal(c.ci, true);
    assert.equal(c.saveIntervalS, 15);
    assert.equal(c.wsHeartbeatMs, 250);
    assert.equal(c.commitHash, "abc123");
    assert.equal(c.anonymousMode, false);
    assert.equal(c.useLocalPostgres, true);
    assert.equal(c.rateLimitDisabled, true);
    assert.deepEqual(c.cors.extraOrigins, [
      "https://play.example.com",
      "https://client.example.com",
      "http://agents.internal:4100",
      "http://agents.internal:4101",
    ]);
  });

  it("accepts only development, production or test as NODE_ENV", () => {
    for (const env of ["development", "production", "test"]) {
      const extra = env === "production" ? PROD_SECRETS : {};
      assert.equal(loadConfig({ ...extra, NODE_ENV: env }).nodeEnv, env);
    }
    const problems = problemsOf({ NODE_ENV: "staging" });
    assert.match(problems.join("\n"), /NODE_ENV/);
  });

  it("names the variable of an invalid value", () => {
    assert.match(problemsOf({ PORT: "abc" }).join("\n"), /^PORT: expected an integer/m);
    assert.match(problemsOf({ PORT: "70000" }).join("\n"), /^PORT:/m);
    assert.match(problemsOf({ SAVE_INTERVAL: "0" }).join("\n"), /^SAVE_INTERVAL:/m);
    assert.match(problemsOf({ WS_HEARTBEAT_MS: "0" }).join("\n"), /^WS_HEARTBEAT_MS: expected an integer from 100/m);
    assert.match(problemsOf({ SKIP_MANIFESTS: "maybe" }).join("\n"), /^SKIP_MANIFESTS: expected true or false/m);
    assert.match(problemsOf({ PUBLIC_CDN_URL: "not a url" }).join("\n"), /^PUBLIC_CDN_URL:/m);
    assert.match(problemsOf({ PUBLIC_WS_URL: "wss://x.example.com/socket" }).join("\n"), /PUBLIC_WS_URL: must end in \/ws/);
    assert.match(problemsOf({ VOICE_API_KEY: "k" }).join("\n"), /VOICE_API_KEY, VOICE_API_SECRET and VOICE_URL/);
  });

  it("holds the clients' sockets in a child process where there is a second core, unless told (SOCKET_PROCESS)", () => {
    const cores = os.availableParallelism();
    assert.equal(loadConfig({}).socketProcess, cores >= 2, `${cores} cores`);
    assert.equal(loadConfig({ SOCKET_PROCESS: "auto" }).socketProcess, cores >= 2);
    assert.equal(loadConfig({ SOCKET_PROCESS: "yes" }).socketProcess, true);
    assert.equal(loadConfig({ SOCKET_PROCESS: "off" }).socketProcess, false);
    assert.match(problemsOf({ SOCKET_PROCESS: "both" }).join("\n"), /^SOCKET_PROCESS: expected true, false or auto, got "both"/m);
  });

  it("builds the /ws deltas in a worker thread where there is a second core, unless told (WS_DELTAS_WORKER)", () => {
    const cores = os.availableParallelism();
    assert.equal(loadConfig({}).wsDeltasWorker, cores >= 2, `${cores} cores`);
    assert.equal(loadConfig({ WS_DELTAS_WORKER: "auto" }).wsDeltasWorker, cores >= 2);
    assert.equal(loadConfig({ WS_DELTAS_WORKER: " AUTO " }).wsDeltasWorker, cores >= 2);
    assert.equal(loadConfig({ WS_DELTAS_WORKER: "true" }).wsDeltasWorker, true);
    assert.equal(loadConfig({ WS_DELTAS_WORKER: "0" }).wsDeltasWorker, false);
    assert.match(problemsOf({ WS_DELTAS_WORKER: "sometimes" }).join("\n"), /^WS_DELTAS_WORKER: expected true, false or auto, got "sometimes"/m);
    // `auto` is a word of this variable only.
    assert.match(problemsOf({ SKIP_MANIFESTS: "auto" }).join("\n"), /^SKIP_MANIFESTS: expected true or false/m);
  });

  it("holds a Colyseus seat for 45 s unless told (SEAT_RESERVATION_S), longer than Colyseus' own 15", () => {
    assert.equal(loadConfig({}).seatReservationS, 45);
    assert.equal(loadConfig({ SEAT_RESERVATION_S: "20" }).seatReservationS, 20);
    assert.match(problemsOf({ SEAT_RESERVATION_S: "0" }).join("\n"), /^SEAT_RESERVATION_S: /m);
    assert.match(problemsOf({ SEAT_RESERVATION_S: "soon" }).join("\n"), /^SEAT_RESERVATION_S: /m);
  });

  it("writes a tick's Colyseus patches once all are encoded unless told (TICK_WRITES: burst, each, or a number)", () => {
    assert.equal(loadConfig({}).tickWrites, 0);
    assert.equal(loadConfig({ TICK_WRITES: " Each " }).tickWrites, 1);
    assert.equal(loadConfig({ TICK_WRITES: "burst" }).tickWrites, 0);
    assert.equal(loadConfig({ TICK_WRITES: "200" }).tickWrites, 200);
    for (const bad of ["sometimes", "0", "-3", "2.5", "1e3"]) {
      assert.match(problemsOf({ TICK_WRITES: bad }).join("\n"), /^TICK_WRITES: expected burst, each or a number of sockets from 1/m, bad);
    }
  });

  it("lists every invalid variable at once", () => {
    const problems = problemsOf({ PORT: "abc", SAVE_INTERVAL: "x", CI: "perhaps" });
    assert.deepEqual(problems.map((p) => p.split(":")[0]).sort(), ["CI", "PORT", "SAVE_INTERVAL"]);
  });

  it("refuses production without its secrets, listing every missing one in one message", () => {
    const problems = problemsOf({ NODE_ENV: "production" });
    assert.equal(problems.length, 1);
    for (const name of PRODUCTION_REQUIRED) assert.ok(problems[0]!.includes(name), `${name} is listed`);
    const partial = problemsOf({ ...PROD_SECRETS, JWT_SECRET: "", ADMIN_CODE: "" });
    assert.match(partial[0]!, /JWT_SECRET, ADMIN_CODE/);
    assert.doesNotMatch(partial[0]!, /DATABASE_URL/);
    assert.equal(loadConfig(PROD_SECRETS).isProduction, true);
  });

  describe("weak secrets in production", () => {
    // Each case: the environment's change, and the problem line it must produce (and only it).
    const WEAK: [string, Record<string, string>, RegExp][] = [
      ["a JWT_SECRET under 32 bytes", { JWT_SECRET: "a" }, /^JWT_SECRET: must be at least 32 bytes in production, got 1 /],
      ["a JWT_SECRET of 31 bytes", { JWT_SECRET: "s".repeat(31) }, /^JWT_SECRET: must be at least 32 bytes in production, got 31 /],
      [
        "a JWT_SECRET equal to IDP_APP_SECRET",
        { JWT_SECRET: "same".repeat(8), IDP_APP_SECRET: "same".repeat(8) },
        /^JWT_SECRET: must differ from IDP_APP_SECRET/,
      ],
      ["an ADMIN_CODE under 12 characters", { ADMIN_CODE: "short-code1" }, /^ADMIN_CODE: must be at least 12 characters in production, got 11$/],
    ];
    for (const [what, change, problem] of WEAK) {
      it(`refuses ${what}`, () => {
        const problems = problemsOf({ ...PROD_SECRETS, ...change });
        assert.equal(problems.length, 1, problems.join("\n"));
        assert.match(problems[0]!, problem);
      });
    }

    it("lists every weak secret at once, with the other invalid values", () => {
      const problems = problemsOf({ ...PROD_SECRETS, JWT_SECRET: "a", IDP_APP_SECRET: "a", ADMIN_CODE: "x", PORT: "abc", DATABASE_URL: "" });
      assert.equal(problems.length, 5, problems.join("\n"));
      assert.match(problems.join("\n"), /^PORT: expected an integer/m);
      assert.match(problems.join("\n"), /^production requires these variables, which are not set: DATABASE_URL$/m);
      assert.match(problems.join("\n"), /^JWT_SECRET: must be at least 32 bytes/m);
      assert.match(problems.join("\n"), /^JWT_SECRET: must differ from IDP_APP_SECRET/m);
      assert.match(problems.join("\n"), /^ADMIN_CODE: must be at least 12 characters/m);
    });

    it("accepts the least strong secrets, counting bytes for JWT_SECRET and characters for ADMIN_CODE", () => {
      assert.equal(MIN_JWT_SECRET_BYTES, 32);
      assert.equal(MIN_ADMIN_CODE_LENGTH, 12);
      const c = loadConfig({ ...PROD_SECRETS, JWT_SECRET: "é".repeat(16), ADMIN_CODE: "1234567890ab" });
      assert.equal(c.jwtSecret, "é".repeat(16));
      assert.match(problemsOf({ ...PROD_SECRETS, ADMIN_CODE: "é".repeat(11) })[0]!, /got 11$/);
    });

    it("are not refused outside production", () => {
      for (const nodeEnv of ["development", "test"]) {
        const c = loadConfig({ NODE_ENV: nodeEnv, JWT_SECRET: "a", IDP_APP_SECRET: "a", PUBLIC_IDP_APP_ID: "app", ADMIN_CODE: "x" });
        assert.equal(c.jwtSecret, "a");
      }
    });
  });

  it("refuses REDIS_URL without JWT_SECRET in one line naming both, outside production too (production lists JWT_SECRET as missing)", () => {
    for (const nodeEnv of ["development", "test"]) {
      assert.deepEqual(problemsOf({ NODE_ENV: nodeEnv, REDIS_URL: "redis://127.0.0.1:6379" }), [
        "JWT_SECRET: required with REDIS_URL, so that every process of the cluster signs and checks with one secret (npm run cluster:start makes one)",
      ]);
    }
    const production = problemsOf({ ...PROD_SECRETS, JWT_SECRET: "", REDIS_URL: "redis://127.0.0.1:6379" });
    assert.equal(production.length, 1, production.join("\n"));
    assert.match(production[0]!, /^production requires these variables, which are not set: JWT_SECRET$/);
    const c = loadConfig({ REDIS_URL: "redis://127.0.0.1:6379", JWT_SECRET: "cluster-secret" });
    assert.equal(c.cluster?.redisUrl, "redis://127.0.0.1:6379");
  });

  it("honours DISABLE_RATE_LIMIT and USE_LOCAL_POSTGRES outside production only", () => {
    assert.equal(loadConfig({ NODE_ENV: "development", DISABLE_RATE_LIMIT: "true" }).rateLimitDisabled, true);
    assert.equal(loadConfig({ NODE_ENV: "test", DISABLE_RATE_LIMIT: "true" }).rateLimitDisabled, true);
    assert.equal(loadConfig({ ...PROD_SECRETS, DISABLE_RATE_LIMIT: "true" }).rateLimitDisabled, false);
    assert.match(problemsOf({ ...PROD_SECRETS, USE_LOCAL_POSTGRES: "true" }).join("\n"), /USE_LOCAL_POSTGRES/);
  });

  it("exposes only PUBLIC_* values to clients", () => {
    const c = loadConfig({
      ...PROD_SECRETS,
      PUBLIC_APP_URL: "https://play.example.com",
      VOICE_API_KEY: "k",
      VOICE_API_SECRET: "vs",
      VOICE_URL: "wss://v.example.com",
    });
    const pub = publicEnv(c);
    assert.deepEqual(Object.keys(pub).sort(), [
      "PUBLIC_AGENT_RT_URL",
      "PUBLIC_API_URL",
      "PUBLIC_APP_URL",
      "PUBLIC_CDN_URL",
      "PUBLIC_IDP_APP_ID",
      "PUBLIC_WS_URL",
    ]);
    assert.equal(pub.PUBLIC_IDP_APP_ID, "app-id");
    const text = JSON.stringify(pub);
    for (const secret of ["s".repeat(32), "admin-code-0123", "idp-secret", "vs", "u:p@"]) assert.ok(!text.includes(secret));
  });

  it("tells clients where the agent runtime is (AGENT_RT_URL, else port AGENT_RT_PORT on localhost)", () => {
    assert.equal(publicEnv(loadConfig({ NODE_ENV: "test" })).PUBLIC_AGENT_RT_URL, "http://localhost:4001");
    assert.equal(publicEnv(loadConfig({ NODE_ENV: "test", AGENT_RT_PORT: "4100" })).PUBLIC_AGENT_RT_URL, "http://localhost:4100");
    assert.equal(publicEnv(loadConfig({ NODE_ENV: "test", AGENT_RT_URL: "https://agents.example.com" })).PUBLIC_AGENT_RT_URL, "https://agents.example.com");
  });

  describe(".env files", () => {
    let dir: string;
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-env-"));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("fills in unset variables, and the real environment wins", () => {
      fs.writeFileSync(path.join(dir, ".env"), 'PORT=7001\nSAVE_INTERVAL=5\n# comment\nCOMMIT_HASH="from-file"\n');
      const env = readDotEnv(dir, { SAVE_INTERVAL: "9" });
      assert.equal(env.PORT, "7001");
      assert.equal(env.SAVE_INTERVAL, "9");
      assert.equal(env.COMMIT_HASH, "from-file");
    });

    it("is optional", () => {
      assert.deepEqual(readDotEnv(dir, { A: "1" }), { A: "1" });
    });
  });

  describe("the server process", function () {
    this.timeout(30_000);

    it("refuses to start in production without secrets, listing all of them, and exits non-zero", async () => {
      const r = await runToExit({ NODE_ENV: "production" });
      assert.equal(r.code, 78);
      assert.match(r.stderr, /refusing to start/);
      for (const name of PRODUCTION_REQUIRED) assert.ok(r.stderr.includes(name), `${name} missing from:\n${r.stderr}`);
    });

    it("refuses to start in production with weak secrets, naming each one, alone and all together", async () => {
      const cases: [Record<string, string>, RegExp[]][] = [
        [{ JWT_SECRET: "a" }, [/JWT_SECRET: must be at least 32 bytes/]],
        [{ JWT_SECRET: "same".repeat(8), IDP_APP_SECRET: "same".repeat(8) }, [/JWT_SECRET: must differ from IDP_APP_SECRET/]],
        [{ ADMIN_CODE: "short" }, [/ADMIN_CODE: must be at least 12 characters/]],
        [
          { JWT_SECRET: "a", IDP_APP_SECRET: "a", ADMIN_CODE: "short" },
          [/JWT_SECRET: must be at least 32 bytes/, /JWT_SECRET: must differ from IDP_APP_SECRET/, /ADMIN_CODE: must be at least 12 characters/],
        ],
      ];
      for (const [change, expected] of cases) {
        const r = await runToExit({ ...PROD_SECRETS, ...change });
        assert.equal(r.code, 78, r.stderr);
        assert.match(r.stderr, /refusing to start/);
        for (const problem of expected) assert.match(r.stderr, problem);
        assert.equal(r.stderr.match(/^ {2}- /gm)?.length, expected.length, r.stderr);
      }
    });

    it("refuses to start a cluster process without JWT_SECRET, with the configuration's exit code", async () => {
      const r = await runToExit({ NODE_ENV: "development", REDIS_URL: "redis://127.0.0.1:6379" });
      assert.equal(r.code, 78, r.stderr);
      assert.match(r.stderr, /refusing to start/);
      assert.match(r.stderr, /^ {2}- JWT_SECRET: required with REDIS_URL, /m);
    });

    it("reads .env from its working directory (PORT=abc there is refused by name)", async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-envproc-"));
      try {
        fs.writeFileSync(path.join(dir, ".env"), "PORT=abc\n");
        const r = await runToExit({ NODE_ENV: "test" }, dir);
        assert.equal(r.code, 78);
        assert.match(r.stderr, /PORT: expected an integer/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
