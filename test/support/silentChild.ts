/** A socket process that never says it is ready (test/io/socketProcess.test.ts), and goes with its parent. */
setInterval(() => {}, 1_000);
process.on("disconnect", () => process.exit(0));
