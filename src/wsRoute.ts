/**
 * A `/ws` connection goes to its world (`?world=n`; none: the matchmaker's choice): this
 * process's own, or, in a cluster, passed on to the process that runs it (src/cluster/wsProxy.ts).
 * Moved out of src/server.ts, which hands it the upgrades of `/ws`.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { matchMaker } from "@colyseus/core";
import { normaliseWorldOption, WORLD_ROOM } from "../rooms/WorldRoom.ts";
import type { Config } from "./config/env.ts";
import type { Logger } from "./logger.ts";
import { CLOSE_BAD_REQUEST, CLOSE_TRY_AGAIN_LATER, type WsGateway } from "./ws/WsGateway.ts";
import type { ForwardedAddress } from "./cluster/forwarded.ts";
import { chooseWorld, listWorlds } from "./cluster/worlds.ts";
import { proxyTarget, proxyUpgrade } from "./cluster/wsProxy.ts";

/** Close code of a `/ws` connection asking for a world no process runs. */
export const CLOSE_UNKNOWN_WORLD = 4004;

export interface WsRouteDeps {
  config: Config;
  gateway: WsGateway;
  /** In a cluster: signs the client's address for the process a connection is passed on to. */
  forwarded: ForwardedAddress | undefined;
  requestAddress: (req: IncomingMessage) => string | undefined;
  logger: Logger;
}

/** What takes a `/ws` upgrade. */
export function wsRoute({
  config,
  gateway,
  forwarded,
  requestAddress,
  logger,
}: WsRouteDeps): (req: IncomingMessage, socket: Duplex, head: Buffer) => Promise<void> {
  return async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const asked = new URL(req.url ?? "/", "ws://server").searchParams.get("world");
    const options: { world?: unknown } = asked === null ? {} : { world: asked };
    try {
      normaliseWorldOption(options);
    } catch (err) {
      return gateway.refuseUpgrade(req, socket, head, "INVALID_WORLD", (err as Error).message.replace(/^INVALID_WORLD: /, ""), CLOSE_BAD_REQUEST);
    }
    const world = options.world as number | undefined;
    if (world === config.world.id || (world === undefined && config.cluster === undefined)) return gateway.handleUpgrade(req, socket, head);
    let target;
    try {
      const worlds = await listWorlds(WORLD_ROOM);
      target = world === undefined ? chooseWorld(worlds) : worlds.find((w) => w.world === world);
    } catch (err) {
      logger.warn({ err }, "/ws: the world list could not be read");
      return gateway.refuseUpgrade(req, socket, head, "WORLD_UNAVAILABLE", "the world list could not be read; try again", CLOSE_TRY_AGAIN_LATER);
    }
    if (target === undefined) return gateway.refuseUpgrade(req, socket, head, "UNKNOWN_WORLD", `there is no world ${world}`, CLOSE_UNKNOWN_WORLD);
    if (target.processId === matchMaker.processId || target.publicAddress === null || forwarded === undefined) return gateway.handleUpgrade(req, socket, head);
    proxyUpgrade(req, socket, head, proxyTarget(target.publicAddress), forwarded.sign(requestAddress(req) ?? "", target.processId), (err) => {
      logger.warn({ err, world: target.world }, "/ws: the process of the world could not be reached");
      gateway.refuseUpgrade(
        req,
        socket,
        head,
        "WORLD_UNAVAILABLE",
        `world ${target.world} cannot be reached; try again or choose another world`,
        CLOSE_TRY_AGAIN_LATER,
      );
    });
  };
}
