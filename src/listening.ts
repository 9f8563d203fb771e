/**
 * How the server listens: the kernel's backlog, the Colyseus transport that leaves `/ws` to the
 * gateway (and hands its sockets to the socket process when there is one), a listen that fails on
 * a port in use, and the addresses clients reach this process's world at. Moved out of
 * src/server.ts, which composes them.
 */
import type http from "node:http";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Server as ColyseusServer } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import type { WebSocket } from "ws";
import type { Config } from "./config/env.ts";
import type { SocketProcess } from "./io/SocketProcess.ts";
import { hasClientBuild } from "./http/clientBuild.ts";
import type { Logger } from "./logger.ts";
import { StartupError } from "./startupError.ts";
import { WsGateway } from "./ws/WsGateway.ts";

/**
 * Connections the kernel holds for the server before it accepts them (Linux caps it at
 * `net.core.somaxconn`, 4096 by default). Node accepts one connection per turn of its event loop,
 * and a loaded world's turns are long: at 2,000 players Node's default of 511 filled during a burst
 * of logins, and the connections beyond it were dropped and retried a second or more later (joins
 * of many seconds, some failed; bench/README.md, world-load). Held, they wait their turn instead.
 */
export const LISTEN_BACKLOG = 4096;

/** Colyseus' transport heartbeat (its defaults): ping interval, and unanswered pings before it terminates a client. */
export const COLYSEUS_PING_INTERVAL_MS = 3_000;
export const COLYSEUS_PING_MAX_RETRIES = 2;
/** Colyseus' transport's largest client frame (its default), in bytes. */
export const COLYSEUS_MAX_PAYLOAD = 4 * 1024;

/**
 * Colyseus' transport takes every upgrade on the server it is given; this one leaves `/ws` to
 * the gateway.
 */
export class PathFilteredTransport extends WebSocketTransport {
  /** With a socket process (SOCKET_PROCESS), the accepted connections are handed to it. */
  constructor(options: ConstructorParameters<typeof WebSocketTransport>[0], io: SocketProcess | undefined) {
    super(options);
    if (io === undefined) return;
    // Colyseus completes every accepted upgrade through `wss.handleUpgrade`, then emits
    // `connection` with the WebSocket: here that WebSocket is the socket process's.
    // Without a usable socket process (see SocketProcess), Colyseus' own.
    const local = this.wss.handleUpgrade.bind(this.wss);
    (this.wss as { handleUpgrade: unknown }).handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer, done: (ws: WebSocket) => void) =>
      io.handleUpgrade(
        req,
        socket,
        head,
        "colyseus",
        (remote) => done(remote as unknown as WebSocket),
        () => local(req, socket, head, done),
      );
  }

  override listenForUpgrade(server: http.Server, filter?: (req: IncomingMessage) => boolean): void {
    super.listenForUpgrade(server, (req) => !WsGateway.isWsPath(req) && (filter === undefined || filter(req)));
  }
}

/**
 * Colyseus' listen, failing as it does not: it listens for the server's `error` only once
 * listening, so a port in use (EADDRINUSE) left startup waiting forever.
 */
export async function listenOrFail(colyseus: ColyseusServer, httpServer: http.Server, config: Config, backlog: number): Promise<void> {
  let failed: ((err: Error) => void) | undefined;
  const refused = new Promise<never>((_, reject) => {
    failed = (err: NodeJS.ErrnoException) => {
      if (err.code !== "EADDRINUSE") return reject(err);
      reject(
        new StartupError(
          `port ${config.port} on ${config.host ?? "every interface"} is already in use (EADDRINUSE): is another server running there? Stop it, or set PORT to a free port`,
          { cause: err },
        ),
      );
    };
  });
  // While listening starts, the refusal is ours alone: the transport's own listener logged the same
  // error with its trace before the line above.
  const others = httpServer.listeners("error") as ((err: Error) => void)[];
  httpServer.removeAllListeners("error");
  httpServer.once("error", failed!);
  try {
    await Promise.race([colyseus.listen(config.port, config.host, backlog), refused]);
  } finally {
    httpServer.removeListener("error", failed!);
    for (const listener of others) httpServer.on("error", listener);
  }
}

/**
 * Where clients reach this process's world: in a cluster, its public address (PUBLIC_ADDRESS) with
 * the schemes of PUBLIC_WS_URL and PUBLIC_API_URL; on its own, those addresses themselves.
 */
export function worldUrls(config: Config, port: number): { wsUrl: string; httpUrl: string } {
  const world = `?world=${config.world.id}`;
  // PORT=0 (any free port, in tests): the default addresses name the port the server got.
  const listening = (url: string) => (config.port === 0 ? url.replace("//localhost:0", `//localhost:${port}`) : url);
  if (config.cluster === undefined) return { wsUrl: `${listening(config.publicWsUrl)}${world}`, httpUrl: listening(config.publicApiUrl) };
  const secure = (url: string) => url.startsWith("wss:") || url.startsWith("https:");
  const address = config.cluster.publicAddress;
  return {
    wsUrl: `${secure(config.publicWsUrl) ? "wss" : "ws"}://${address}/ws${world}`,
    httpUrl: `${secure(config.publicApiUrl) ? "https" : "http"}://${address}`,
  };
}

/** The lines that say the server listens, and where its game and agent dashboard are. */
export function logListening(config: Config, logger: Logger, port: number, dialect: string): void {
  logger.info(
    { port, dialect, anonymousMode: config.anonymousMode, world: config.world.id, cluster: config.cluster?.publicAddress ?? false },
    "server listening",
  );
  // Where to go next, in words (the line above names a port only).
  if (hasClientBuild(config.clientBuildDir)) {
    const url = worldUrls(config, port).httpUrl.replace(/\/$/, "");
    logger.info({ url }, `the game is at ${url}/ and the agent dashboard at ${url}/agents`);
  }
  if (config.trustProxy === true) {
    logger.warn(
      "TRUST_PROXY=true trusts every X-Forwarded-For entry, so a client can choose the address the rate and attempt limits see; set TRUST_PROXY to the number of proxies in front of the server instead",
    );
  }
}
