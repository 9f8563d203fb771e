/** Prints docs/protocol.md's table of server events from src/game/serverEvents.ts: `npm run docs:events`. */
import { serverEventsMarkdown } from "../src/game/serverEvents.ts";

process.stdout.write(`${serverEventsMarkdown()}\n`);
