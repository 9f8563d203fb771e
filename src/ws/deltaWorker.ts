/**
 * The worker thread of {@link WsDeltas}: applies each tick's world diff to its replica and answers
 * first with what entered and left the interest viewers' views (the Colyseus clients', which the
 * World's thread waits for before it changes their StateViews; in INTEREST_PARTS answers, so that
 * it starts on the first while the rest is worked out), then with every `/ws` viewer's
 * `world:update` frame. After each answer it bumps the shared counter, so the World's thread can
 * block on it (Atomics.wait) instead of waiting for its event loop.
 */
import { workerData, type MessagePort } from "node:worker_threads";
import { DeltaBuilder, type DeltaInput } from "../game/world/ViewTracker.ts";
import { INTEREST_PARTS, type Reply } from "./WsDeltas.ts";

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
      // In parts: the World's thread changes the first part's views while the next is worked out.
      for (let part = 0; part < INTEREST_PARTS; part++) {
        const { changes, unseeded } = builder.interests(part, INTEREST_PARTS);
        answer({ tick: input.tick, interests: changes, unseeded, last: part === INTEREST_PARTS - 1 }, [changes.buffer as ArrayBuffer]);
      }
    }
    answer({ tick: input.tick, frames: builder.frames() });
  } catch (err) {
    answer({ tick: input.tick, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
