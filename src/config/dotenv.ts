/**
 * `.env` support: values from `<cwd>/.env` fill in variables the real environment leaves unset
 * (the real environment always wins, so a deploy platform can override a checked-in file).
 * Uses Node's own parser (`util.parseEnv`), the same one behind `node --env-file`.
 */
import fs from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";

export function readDotEnv(cwd: string, env: Record<string, string | undefined>): Record<string, string | undefined> {
  const file = path.join(cwd, ".env");
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { ...env };
    throw err;
  }
  return { ...parseEnv(text), ...env };
}
