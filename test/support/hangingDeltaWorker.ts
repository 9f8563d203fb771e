/**
 * The real `/ws` delta worker (src/ws/deltaWorker.ts), but stuck for good in its fourth tick, as a
 * worker in an endless loop would be (test/ws/wsDeltas.test.ts: a hung worker is given up).
 */
import { workerData, type MessagePort } from "node:worker_threads";

const port = (workerData as { port: MessagePort }).port;
const on = port.on.bind(port) as (event: string, listener: (...args: unknown[]) => void) => MessagePort;
let inputs = 0;
port.on = ((event: string, listener: (...args: unknown[]) => void) =>
  on(event, (...args: unknown[]) => {
    if (event === "message" && ++inputs === 4) for (;;);
    listener(...args);
  })) as MessagePort["on"];
await import("../../src/ws/deltaWorker.ts");
