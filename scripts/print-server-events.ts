/** Prints docs/protocol.md's table of server events from src/game/serverEvents.ts: `npm run docs:events`. */
import { serverEventsMarkdown } from "../src/game/serverEvents.ts";
import { parseCli } from "../src/cli.ts";

parseCli({ command: "npm run docs:events", summary: "Prints docs/protocol.md's table of server events from src/game/serverEvents.ts." }, { options: {} });

process.stdout.write(`${serverEventsMarkdown()}\n`);
