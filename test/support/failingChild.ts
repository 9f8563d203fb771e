/** A socket process that dies before it is ready (test/io/socketProcess.test.ts). */
process.exit(3);
