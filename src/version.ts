/** The server's version, from package.json (reported by `/health`). */
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = pkg.version;
