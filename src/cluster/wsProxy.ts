/**
 * `/ws` connections reach their world wherever it runs: a process asked for a world that another
 * process holds passes the connection on, byte for byte, to that process's public address (a TCP
 * proxy of the upgrade request and then of the WebSocket frames), with the client's address in a
 * signed header (forwarded.ts). The client sees one socket; nothing in the protocol changes.
 */
import type { IncomingMessage } from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import { FORWARDED_HEADER } from "./forwarded.ts";

/** How long the proxy waits for the other process to accept the TCP connection, ms. */
export const PROXY_CONNECT_TIMEOUT_MS = 5_000;

export interface ProxyTarget {
  host: string;
  port: number;
  /** A path prefix of the public address (`host:port/prefix`), before `/ws`. */
  prefix: string;
}

/** `host:port[/path]` (PUBLIC_ADDRESS) as a connect target; the port defaults to 80. */
export function proxyTarget(publicAddress: string): ProxyTarget {
  const url = new URL(`http://${publicAddress}`);
  return { host: url.hostname.replace(/^\[|\]$/g, ""), port: url.port === "" ? 80 : Number(url.port), prefix: url.pathname.replace(/\/+$/, "") };
}

/**
 * Passes an upgrade request on to `target`. `onFail` runs when the other process cannot be reached
 * before anything was passed on (the caller can still answer the client); after that a failure of
 * either side closes the other.
 */
export function proxyUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, target: ProxyTarget, forwarded: string, onFail: (err: Error) => void): void {
  const upstream = net.connect({ host: target.host, port: target.port });
  upstream.setNoDelay(true);
  let piped = false;
  const timer = setTimeout(
    () => upstream.destroy(new Error(`no connection to ${target.host}:${target.port} within ${PROXY_CONNECT_TIMEOUT_MS} ms`)),
    PROXY_CONNECT_TIMEOUT_MS,
  );
  upstream.once("connect", () => {
    clearTimeout(timer);
    const lines = [`${req.method ?? "GET"} ${target.prefix}${req.url ?? "/"} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      if (name.toLowerCase() === FORWARDED_HEADER) continue;
      lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
    }
    lines.push(`${FORWARDED_HEADER}: ${forwarded}`);
    upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    piped = true;
    socket.pipe(upstream);
    upstream.pipe(socket);
  });
  let failed = false;
  upstream.on("error", (err) => {
    clearTimeout(timer);
    if (!piped && !failed) {
      failed = true;
      onFail(err);
      return;
    }
    if (piped) socket.destroy();
  });
  upstream.on("close", () => {
    if (piped) socket.destroy();
  });
  socket.on("error", () => {
    if (!failed) upstream.destroy();
  });
  socket.on("close", () => {
    if (!failed) upstream.destroy();
  });
}
