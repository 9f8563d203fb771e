import { Worker } from "node:worker_threads";
/**
 * A watchdog for a blocked event loop. Mocha's timeouts are timers: a test that spins in a
 * synchronous loop (a search that never ends, a busy wait) blocks them too, and the run would hang
 * until CI's own limit, saying nothing. A worker thread, which keeps running while the main thread
 * is blocked, reads a heartbeat the main thread writes every second; when it is older than
 * TEST_WATCHDOG_SECONDS (300), it names the test that was running and kills the run.
 */
export function watchBlockedLoop(subscribe: (onTest: (title: string) => void) => void, limit = Number(process.env.TEST_WATCHDOG_SECONDS ?? 300)): void {
  const heartbeat = new Int32Array(new SharedArrayBuffer(4));
  const beat = () => Atomics.store(heartbeat, 0, Math.floor(Date.now() / 1000));
  beat();
  setInterval(beat, 1000).unref();
  const worker = new Worker(
    `
    const { workerData, parentPort } = process.getBuiltinModule("node:worker_threads");
    const fs = process.getBuiltinModule("node:fs");
    let title = "(between tests)";
    parentPort.on("message", (t) => { title = t; });
    setInterval(() => {
      const still = Math.floor(Date.now() / 1000) - Atomics.load(workerData.heartbeat, 0);
      if (still < workerData.limit) return;
      fs.writeSync(2, "\\ntests: the event loop has been blocked for " + still + " s (a synchronous loop that never ends?) in: " + title + "\\ntests: run stopped.\\n");
      process.kill(process.pid, "SIGKILL");
    }, 1000);
    `,
    { eval: true, workerData: { heartbeat, limit } },
  );
  worker.on("error", (err) => process.stderr.write(`tests: the watchdog for a blocked event loop failed: ${err.message}\n`));
  worker.unref();
  subscribe((title) => worker.postMessage(title));
}
