import assert from "node:assert/strict";
import { runBench } from "../support/bench.ts";
import { freshRedisUrl } from "../support/redis.ts";

interface Latency {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface Joins {
  clients: number;
  joined: number;
  failed: number;
  joinsPerSecond: number;
  latency: Latency;
  byTransport: Record<"colyseus" | "ws", { attempts: number; joined: number; joinsPerSecond: number; latency: Latency }>;
  routed: { attempts: number };
  direct: { attempts: number };
  playersByWorld: Record<string, number>;
}

interface Step {
  players: number;
  ok: boolean;
  error?: string;
  botsConnected: number;
  world1: { ticks: { count: number; p50Ms: number; p99Ms: number; maxMs: number }; players: number };
  playersByWorld: Record<string, number>;
  cpuCores: { servers: Record<string, number | null>; bots: number; other: number };
  overThreshold: boolean;
}

interface Results {
  benchmark: string;
  ok: boolean;
  error?: string;
  command: string;
  machine: { cpus: number };
  cluster: { processes: number; database: string; tickMs: number; worlds: { world: number; port: number }[] };
  joins: Joins;
  privateMessages: {
    friendPairs: number;
    sent: number;
    delivered: number;
    acknowledged: number;
    lost: number;
    delivery: Latency;
    acknowledgement: Latency;
    ratePerSecond: number;
  };
  tick: {
    world: number;
    thresholdMs: number;
    steps: Step[];
    firstOverThreshold: { players: number; tickP99Ms: number } | null;
    overThresholdFrom: { players: number } | null;
    note: string;
  };
  shutdown: { world: number; code: number | null }[];
}

describe("bench/cluster (smoke)", function () {
  this.timeout(180_000);

  before(function () {
    if (!process.env.TEST_PG_URL || !process.env.TEST_REDIS_URL) this.skip();
  });

  it("runs three processes through joins, private messages across processes and a two-step tick ramp, and writes every field", async () => {
    const redis = await freshRedisUrl();
    const doc = await runBench<Results>("cluster", ["--smoke", "--redis-url", redis, "--pg-url", process.env.TEST_PG_URL!]);
    assert.equal(doc.benchmark, "cluster");
    assert.ok(doc.ok, doc.error);
    assert.match(doc.command, /^npm run bench:cluster -- --smoke/);
    assert.deepEqual(
      doc.cluster.worlds.map((w) => w.world),
      [1, 2, 3],
    );
    assert.equal(doc.cluster.database, "postgresql");

    // Joins: every client got in, on both transports, some through another process; figures present.
    const j = doc.joins;
    assert.equal(j.joined, j.clients);
    assert.equal(j.failed, 0);
    assert.equal(j.byTransport.colyseus.joined + j.byTransport.ws.joined, j.clients);
    assert.ok(j.byTransport.colyseus.joined > 0 && j.byTransport.ws.joined > 0);
    assert.equal(j.routed.attempts + j.direct.attempts, j.clients);
    for (const v of [j.joinsPerSecond, j.latency.p50Ms, j.latency.p99Ms, j.byTransport.ws.joinsPerSecond]) assert.equal(typeof v, "number");
    assert.equal(
      Object.values(j.playersByWorld).reduce((a, b) => a + b, 0),
      j.clients,
      "the joined players were in the worlds' list",
    );

    // Private messages: every one delivered and acknowledged across processes.
    const pm = doc.privateMessages;
    assert.ok(pm.friendPairs > 0);
    assert.ok(pm.sent > 0);
    assert.equal(pm.delivered, pm.sent);
    assert.equal(pm.acknowledged, pm.sent);
    assert.equal(pm.lost, 0);
    assert.equal(pm.delivery.samples, pm.sent);
    for (const v of [pm.delivery.p50Ms, pm.delivery.p99Ms, pm.delivery.maxMs, pm.acknowledgement.p99Ms, pm.ratePerSecond]) assert.equal(typeof v, "number");

    // Tick ramp: both steps ran on world 1 with every bot in, the tick measured (no timing asserted).
    assert.equal(doc.tick.world, 1);
    assert.equal(doc.tick.thresholdMs, 100);
    assert.ok("firstOverThreshold" in doc.tick && "overThresholdFrom" in doc.tick);
    assert.match(doc.tick.note, /same machine/);
    assert.deepEqual(
      doc.tick.steps.map((s) => [s.players, s.ok, s.error, s.botsConnected]),
      [
        [4, true, undefined, 4],
        [8, true, undefined, 8],
      ],
    );
    for (const s of doc.tick.steps) {
      assert.equal(s.world1.players, s.players + 1, "the bots and the anchor, all on world 1");
      assert.deepEqual(s.playersByWorld, { 1: s.players + 1, 2: 0, 3: 0 });
      assert.ok(s.world1.ticks.count > 0);
      for (const v of [s.world1.ticks.p50Ms, s.world1.ticks.p99Ms, s.cpuCores.bots, s.cpuCores.other]) assert.equal(typeof v, "number");
      assert.equal(typeof s.overThreshold, "boolean");
    }

    assert.deepEqual(
      doc.shutdown.map((s) => [s.world, s.code]),
      [
        [1, 0],
        [2, 0],
        [3, 0],
      ],
    );
  });

  it("refuses bad sizes, with its usage", async () => {
    await assert.rejects(runBench("cluster", ["--steps", "10,5"]), /--steps: increasing/);
  });
});
