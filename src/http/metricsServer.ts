/**
 * The Prometheus endpoint: `GET /metrics` on a port of its own (METRICS_PORT), apart from the
 * public HTTP server, so that a scraper needs no credentials and the endpoint can be kept off the
 * public network (METRICS_HOST, a firewall). Nothing else is served there.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../logger.ts";

export const METRICS_PATH = "/metrics";

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(options: {
  port: number;
  host: string | undefined;
  text(): Promise<string>;
  contentType: string;
  logger: Logger;
}): Promise<MetricsServer> {
  const { logger } = options;
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://metrics").pathname;
    if (path !== METRICS_PATH) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end(`not found: metrics are at ${METRICS_PATH}\n`);
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("method not allowed\n");
      return;
    }
    options.text().then(
      (body) => {
        res.writeHead(200, { "content-type": options.contentType, "cache-control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      (err: unknown) => {
        logger.error({ err }, "collecting the metrics failed");
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("collecting the metrics failed\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (err) => logger.error({ err }, "metrics server error"));
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, host: options.host ?? "all interfaces" }, "metrics served at /metrics");
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
