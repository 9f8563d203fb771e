/**
 * The real socket process, but busy for 50 ms with each handshake it is handed, as an overloaded
 * child during a ramp of joins is: it takes the next handle, and answers the server's pings, only
 * after (test/io/socketProcess.test.ts: a busy child is not taken for a hung one).
 */
const emit = process.emit.bind(process) as (event: string, ...args: unknown[]) => boolean;
process.emit = ((event: string, ...args: unknown[]) => {
  if (event === "message" && (args[0] as { t?: string } | undefined)?.t === "upgrade") {
    const until = performance.now() + 50;
    while (performance.now() < until);
  }
  return emit(event, ...args);
}) as typeof process.emit;
await import("../../src/io/child.ts");
