/**
 * The cluster's shared parts (REDIS_URL): Colyseus' Redis presence (pub/sub and shared keys:
 * social messages, takeovers, remote room calls) and Redis driver (the room listing every process
 * matchmakes from). Without REDIS_URL, Colyseus' local presence and driver: one process on its own.
 */
import type { MatchMakerDriver, Presence } from "@colyseus/core";
import { RedisDriver } from "@colyseus/redis-driver";
import { RedisPresence } from "@colyseus/redis-presence";

export interface ClusterBackends {
  presence: Presence;
  driver: MatchMakerDriver;
}

export function redisBackends(redisUrl: string): ClusterBackends {
  return { presence: new RedisPresence(redisUrl), driver: new RedisDriver(redisUrl) };
}
