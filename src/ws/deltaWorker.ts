/**
 * The worker thread of {@link WsDeltas}: applies each tick's world diff to its replica and answers
 * first with what entered and left the interest viewers' views (the Colyseus clients', which the
 * World's thread waits for before it changes their StateViews), then with every `/ws` viewer's
 * `world:update` frame. After each answer it bumps the shared counter, so the World's thread can
 * block on it (Atomics.wait) instead of waiting for its event loop.
 */
import { workerData, type MessagePort } from "node:worker_threads";
import { DeltaBuilder, type DeltaInput } from "../game/world/ViewTracker.ts";
import type { Reply } from "./WsDeltas.ts";

const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };
const builder = new DeltaBuilder();

function answer(reply: Reply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(reply, transfer);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

port.on("message", (input: DeltaInput & { interests: boolean }) => {
  try {
    builder.apply(input);
    if (input.interests) {
      const { changes, unseeded } = builder.interests();
      answer({ tick: input.tick, interests: changes, unseeded }, [changes.buffer as ArrayBuffer]);
    }
    answer({ tick: input.tick, frames: builder.frames() });
  } catch (err) {
    answer({ tick: input.tick, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
