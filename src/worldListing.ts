/**
 * This process's world as the cluster's world list shows it (src/cluster/worlds.ts): how full it
 * is, whether it restarts, where to reach it. Composed by src/server.ts for the world room.
 */
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { worldRank, worldStatus, type WorldMetadata } from "./cluster/worlds.ts";
import type { Config } from "./config/env.ts";
import type { World } from "./game/world/World.ts";
import { worldUrls } from "./listening.ts";
import type { ModerationService } from "./moderation/ModerationService.ts";
import type { WorldService } from "./sessions/WorldService.ts";

export function worldListing(config: Config, world: World, service: WorldService, moderation: ModerationService, httpServer: http.Server): () => WorldMetadata {
  let urls: { wsUrl: string; httpUrl: string } | undefined;
  return () => {
    const players = world.players.size;
    let restarting = false;
    try {
      moderation.restarts.admit();
    } catch {
      restarting = true;
    }
    const status = worldStatus(players, config.world.capacity, restarting);
    urls ??= worldUrls(config, (httpServer.address() as AddressInfo).port);
    return {
      world: config.world.id,
      players,
      wsPlayers: service.playersByTransport().ws,
      capacity: config.world.capacity,
      status,
      rank: worldRank(players, config.world.capacity, status),
      ...urls,
    };
  };
}
