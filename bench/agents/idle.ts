/**
 * Idle clients for the agents benchmark's comparison (scale.ts forks this, and talks to it over
 * the IPC channel): one `/ws` connection per character, opened with its owner's token and
 * `characterId`, that reads what the server sends and sends nothing. `node bench/agents/idle.ts <input.json>`.
 */
import fs from "node:fs";
import WebSocket from "ws";
import { parseCli } from "../../src/cli.ts";

export interface IdleInput {
  wsUrl: string;
  clients: { token: string; characterId: string }[];
  rampPerSecond: number;
}

export type ToIdle = { type: "stop" };
export type FromIdle =
  | { type: "ready"; connected: number; failed: number; rampMs: number }
  | { type: "report"; connected: number; disconnects: number; messages: number; bytes: number; errors: Record<string, number> }
  | { type: "fatal"; message: string };

const { positionals } = parseCli(
  {
    positionals: "<input.json>",
    summary: "A child process of npm run bench:agents (its run.ts starts it with the file of its input); not run by hand. See bench/agents/README.md.",
  },
  { options: {}, allowPositionals: true },
);
const input = JSON.parse(fs.readFileSync(positionals[0] ?? "", "utf8")) as IdleInput;
const send = (m: FromIdle) => process.send!(m);
const sockets: WebSocket[] = [];
let stopping = false;
let connected = 0;
let failed = 0;
let disconnects = 0;
let messages = 0;
let bytes = 0;
const errors: Record<string, number> = {};

/** Resolves true once the client is in the world (`welcome`), false when it could not get in (20 s at most). */
function open(c: IdleInput["clients"][number]): Promise<boolean> {
  return new Promise((resolve) => {
    const u = new URL(input.wsUrl);
    u.searchParams.set("token", c.token);
    u.searchParams.set("characterId", c.characterId);
    const ws = new WebSocket(u, { perMessageDeflate: false });
    let settled = false;
    const settle = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ok);
    };
    const timer = setTimeout(() => {
      ws.terminate();
      settle(false);
    }, 20_000);
    ws.on("message", (raw: Buffer, isBinary) => {
      messages++;
      bytes += raw.length;
      if (settled || isBinary) return;
      // Only the first frames are looked at: the welcome, or the error that refuses the login.
      const text = raw.toString();
      if (text.startsWith('{"type":"welcome"')) settle(true);
      else if (text.startsWith('{"type":"error"')) {
        const code = /"code":"(\w+)"/.exec(text)?.[1] ?? "?";
        errors[code] = (errors[code] ?? 0) + 1;
      }
    });
    ws.on("error", () => {});
    ws.on("close", () => {
      if (settled && !stopping) disconnects++;
      settle(false);
    });
    sockets.push(ws);
  });
}

const started = Date.now();
const pending: Promise<void>[] = [];
for (let i = 0; i < input.clients.length; i++) {
  const due = started + (i * 1000) / input.rampPerSecond;
  if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
  pending.push(open(input.clients[i]!).then((ok) => void (ok ? connected++ : failed++)));
}
await Promise.all(pending);
send({ type: "ready", connected, failed, rampMs: Date.now() - started });

process.on("message", (m: ToIdle) => {
  if (m.type !== "stop") return;
  stopping = true;
  send({ type: "report", connected, disconnects, messages, bytes, errors });
  // A normal close logs each character out at once (no reconnection grace).
  for (const ws of sockets) ws.close(1000);
  setTimeout(() => process.exit(0), 2_000).unref();
});
