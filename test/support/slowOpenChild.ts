/**
 * The real socket process, but its word that a handshake is done reaches the server 300 ms late
 * (test/io/socketProcess.test.ts: a handshake answered after the server gave it up).
 */
const send = process.send!.bind(process) as (message: unknown, ...rest: unknown[]) => boolean;
process.send = ((message: { t?: string }, ...rest: unknown[]) => {
  if (message?.t !== "open") return send(message, ...rest);
  setTimeout(() => send(message, ...rest), 300);
  return true;
}) as typeof process.send;
await import("../../src/io/child.ts");
