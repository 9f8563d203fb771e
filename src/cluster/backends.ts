/**
 * The cluster's shared parts (REDIS_URL): Colyseus' Redis presence (pub/sub and shared keys:
 * social messages, takeovers, remote room calls) and Redis driver (the room listing every process
 * matchmakes from). Without REDIS_URL, Colyseus' local presence and driver: one process on its own.
 * Their connections are watched (redisWatch.ts): a Redis that goes away is logged once per
 * interval, not once per reconnection, and shows in `/health`.
 */
import type { MatchMakerDriver, Presence } from "@colyseus/core";
import { RedisDriver } from "@colyseus/redis-driver";
import { RedisPresence } from "@colyseus/redis-presence";
import { Redis } from "ioredis";
import type { RedisWatch } from "./redisWatch.ts";

export interface ClusterBackends {
  presence: Presence;
  driver: MatchMakerDriver;
}

/** Colyseus' presence, its two connections' errors said by the watch instead of a warning per reconnection. */
class WatchedRedisPresence extends RedisPresence {
  constructor(client: Redis, watch: RedisWatch) {
    super(client);
    for (const connection of [this.pub, this.sub] as Redis[]) {
      connection.removeAllListeners("error");
      watch.add(connection);
    }
  }
}

export function redisBackends(redisUrl: string, watch: RedisWatch): ClusterBackends {
  // The driver's own client had no `error` listener at all: ioredis printed each error's trace.
  return { presence: new WatchedRedisPresence(new Redis(redisUrl), watch), driver: new RedisDriver(watch.add(new Redis(redisUrl))) };
}
