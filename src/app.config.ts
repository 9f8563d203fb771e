/**
 * The Colyseus server, defined the Colyseus way (`defineServer`, as the official app template's
 * `app.config.ts` does): its rooms with their matchmaking, the transport, and in a cluster the
 * Redis presence and driver. src/server.ts builds it with the running server's services, so the
 * process under PM2 (src/main.ts), the tests (test/support/server.ts) and every other start share
 * this one definition; its type is the one a typed SDK client takes:
 * `new Client<GameServerDefinition>(url)` infers each room's type and join options from its name.
 */
import { defineRoom, defineServer, matchMaker, type MatchMakerDriver, type Presence, type Transport } from "@colyseus/core";
import type { ColyseusLogger } from "../rooms/badFrames.ts";
import { tradeRoomClass, type TradeRoomServices } from "../rooms/TradeRoom.ts";
import { worldRoomClass, type WorldRoomServices } from "../rooms/WorldRoom.ts";

export interface AppConfigOptions {
  transport: Transport;
  logger: ColyseusLogger;
  /** A cluster (REDIS_URL): the shared presence and driver, and where clients reach this process. */
  cluster?: { presence: Presence; driver: MatchMakerDriver; publicAddress: string };
  world: WorldRoomServices;
  trade: TradeRoomServices;
}

export function appConfig(options: AppConfigOptions) {
  return defineServer({
    transport: options.transport,
    ...(options.cluster ?? {}),
    // Every room lives in the process whose world it belongs to: its world room, and the trade rooms of that world's trades.
    selectProcessIdToCreateRoom: async () => matchMaker.processId,
    gracefullyShutdown: false,
    greet: false,
    logger: options.logger,
    rooms: {
      // A join names its world (`{world: n}`) or gets the matchmaker's choice: the highest rank
      // (src/cluster/worlds.ts: the fullest world below 80% of its capacity).
      world: defineRoom(worldRoomClass(options.world)).filterBy(["world"]).sortBy({ rank: -1 }),
      trade: defineRoom(tradeRoomClass(options.trade)),
    },
  });
}

/** The server's definition, for typed SDK clients. */
export type GameServerDefinition = ReturnType<typeof appConfig>;
