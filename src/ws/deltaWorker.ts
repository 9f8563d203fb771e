/**
 * The worker thread of {@link WsDeltas}: applies each tick's world diff to its replica and answers
 * with every `/ws` viewer's `world:update` frame. After each answer it bumps the shared counter,
 * so the World's thread can block on it (Atomics.wait) instead of waiting for its event loop.
 */
import { workerData, type MessagePort } from "node:worker_threads";
import { DeltaBuilder, type DeltaInput } from "../game/world/ViewTracker.ts";

const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };
const builder = new DeltaBuilder();

port.on("message", (input: DeltaInput) => {
  let reply: { tick: number; frames: (number | string)[] } | { tick: number; error: string };
  try {
    reply = { tick: input.tick, frames: builder.step(input) };
  } catch (err) {
    reply = { tick: input.tick, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  port.postMessage(reply);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
});
