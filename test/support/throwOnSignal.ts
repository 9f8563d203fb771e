/**
 * Preloaded into a server process by a test (`node --import`): SIGUSR2 throws an exception from
 * the event loop that nothing catches, as a bug outside the tick would, so the test can watch the
 * process's last resort (src/main.ts) save everyone and exit.
 */
process.on("SIGUSR2", () => {
  setImmediate(() => {
    throw new Error("an exception nothing catches (injected by the test)");
  });
});
