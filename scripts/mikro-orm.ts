/**
 * The MikroORM CLI, as `npm run migration:list` (executed), `migration:pending`, `migration:up`
 * and `migration:down` run it: its own commands and options (`npm run migration:down -- --to 0`),
 * configured by `mikro-orm.config.ts` (the database the server would open). Two things differ
 * from its `mikro-orm` binary: that configuration is the default, and a failure (a bad
 * `DATABASE_URL`, a database that does not answer, a failing migration) is told in its message
 * alone, on stderr, with exit code 1, instead of under the whole usage text and a stack trace.
 * A mistyped option still gets the usage text.
 */
import path from "node:path";
import { configure } from "@mikro-orm/cli";

const CONFIG = path.join(import.meta.dirname, "..", "mikro-orm.config.ts");

const args = process.argv.slice(2);
if (!args.some((a) => a === "--config" || a.startsWith("--config="))) args.push("--config", CONFIG);

const cli = await configure();
await cli
  .fail((message: string, err: Error | undefined, yargs: { showHelp(): void }) => {
    if (err === undefined) {
      yargs.showHelp();
      process.stderr.write(`\n${message}\n`);
    } else {
      process.stderr.write(`mikro-orm: ${err.message}\n`);
    }
    process.exit(1);
  })
  .parse(args);
