/**
 * A TCP proxy in front of a real server, for failure tests: `stall()` keeps every connection
 * open but stops forwarding bytes (a hung database), `resume()` forwards again; `cut()` drops every
 * connection at once (a network failure), and `refuse(on)` drops new ones as they come.
 * `sent()` is what clients sent through it so far, as text (what someone on the path would see).
 */
import net from "node:net";

export interface TcpProxy {
  port: number;
  stall(): void;
  resume(): void;
  cut(): void;
  refuse(on: boolean): void;
  sent(): string;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let stalled = false;
  let refusing = false;
  const sockets = new Set<net.Socket>();
  const pending: (() => void)[] = [];
  const sent: Buffer[] = [];
  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    sockets.add(client).add(upstream);
    const pipe = (from: net.Socket, to: net.Socket) =>
      from.on("data", (chunk) => {
        if (stalled) pending.push(() => to.write(chunk));
        else to.write(chunk);
      });
    client.on("data", (chunk: Buffer) => sent.push(chunk));
    pipe(client, upstream);
    pipe(upstream, client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as net.AddressInfo).port,
    stall: () => {
      stalled = true;
    },
    resume: () => {
      stalled = false;
      for (const f of pending.splice(0)) f();
    },
    cut: () => {
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    refuse: (on) => {
      refusing = on;
    },
    sent: () => Buffer.concat(sent).toString("latin1"),
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
