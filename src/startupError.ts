/**
 * A start that cannot go on for a reason its user fixes (a port in use, a missing package, a
 * directory the postgres user cannot enter). main.ts prints a failed start's stack: this one's is
 * its message alone, since a trace would only bury the fix. The error it came from stays as `cause`
 * (main.ts prints its trace under LOG_LEVEL=debug). `exitCode`: the process's (1 unless given; see
 * ./exit.ts for the others).
 */
export class StartupError extends Error {
  readonly exitCode: number;
  constructor(message: string, options?: { cause?: unknown; exitCode?: number }) {
    super(message, options);
    this.name = "StartupError";
    this.stack = message;
    this.exitCode = options?.exitCode ?? 1;
  }
}
