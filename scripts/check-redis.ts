/* eslint-disable no-console */
/**
 * Before `npm run cluster:start` (`precluster:start`): the cluster's processes share one Redis, and
 * without it each one refused to start, and PM2 started them again, in a loop. This asks Redis
 * first: silent when it answers; else one line saying how to start it, exit 69, and PM2 is never
 * started (npm stops at a failed pre-script).
 *
 *   node scripts/check-redis.ts            # REDIS_URL, or the local Redis ecosystem.config.cjs uses
 *   node scripts/check-redis.ts --help
 */
import { redisAddress, redisProblem } from "../src/cluster/redisReach.ts";
import { parseCli } from "../src/cli.ts";

/** The Redis the cluster uses when REDIS_URL is unset (ecosystem.config.cjs). */
const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

parseCli(
  {
    summary: `Checks that the Redis of the cluster answers (REDIS_URL, else ${DEFAULT_REDIS_URL}, as
ecosystem.config.cjs). Exit 0 when it does; else one line saying how to start it, and exit 69
(78 when Redis refuses the login). npm run cluster:start runs it before PM2.`,
  },
  { options: {} },
);

const url = process.env.REDIS_URL || DEFAULT_REDIS_URL;
const problem = await redisProblem(url);
if (problem !== undefined) {
  const variable = process.env.REDIS_URL ? "REDIS_URL" : `REDIS_URL unset: the default ${DEFAULT_REDIS_URL}`;
  console.error(
    `rs-world: cannot reach Redis at ${redisAddress(url)} (${variable}): ${problem.reason}; start Redis (redis-server --daemonize yes; to install it: apt-get install redis-server, or brew install redis) or set REDIS_URL; the cluster was not started`,
  );
  process.exit(problem.exitCode);
}
