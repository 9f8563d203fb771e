/**
 * How the server process (src/main.ts) ends: its exit codes and the shutdown watchdog's time. Apart
 * from main.ts because importing main.ts starts a server: the tests import these from here.
 */

/** A shutdown (or a start a signal came during) not finished by then exits anyway, with code 1. */
export const SHUTDOWN_WATCHDOG_MS = 10_000;
/** Exit code after an uncaught exception (EX_SOFTWARE): every player was saved first. */
export const EXIT_FATAL = 70;
/** Exit code of a refused configuration (EX_CONFIG). */
export const EXIT_CONFIG = 78;
/**
 * Exit code of a start refused because a service it needs (PostgreSQL, Redis) cannot be reached
 * (EX_UNAVAILABLE): a later start may succeed once it is up.
 */
export const EXIT_UNAVAILABLE = 69;
