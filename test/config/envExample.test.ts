/**
 * `.env.example`, docs/configuration.md's table and src/config/env.ts name the same variables,
 * and `.env.example` holds the defaults: read as a `.env`, with or without its commented
 * variables, it configures the server exactly as an empty environment does.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { CONFIG_VARIABLES, loadConfig } from "../../src/config/env.ts";
import { ROOT } from "../support/process.ts";

const EXAMPLE = fs.readFileSync(path.join(ROOT, ".env.example"), "utf8");
const README = fs.readFileSync(path.join(ROOT, "docs", "configuration.md"), "utf8");
const VARIABLE_LINE = /^(# )?([A-Z][A-Z0-9_]*)=(.*)$/;

/** Every variable line of `.env.example`, set or commented. */
function exampleVariables(): { name: string; commented: boolean }[] {
  return EXAMPLE.split("\n").flatMap((line) => {
    const m = VARIABLE_LINE.exec(line);
    return m === null ? [] : [{ name: m[2]!, commented: m[1] !== undefined }];
  });
}

/** The variables named in the first column of docs/configuration.md's table. */
function readmeVariables(): string[] {
  const section = README.split(/^## /m).find((s) => s.startsWith("Configuration\n"));
  assert.ok(section !== undefined, "the README has a Configuration section");
  const rows = section.split("\n").filter((line) => line.startsWith("| `"));
  assert.ok(rows.length > 30, "the table has its rows");
  return rows.flatMap((row) => [...row.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

describe(".env.example and docs/configuration.md's table", () => {
  it("list exactly the variables the server reads", () => {
    assert.ok(CONFIG_VARIABLES.length > 40 && CONFIG_VARIABLES.includes("METRICS_PORT"));
    assert.deepEqual(sorted(exampleVariables().map((v) => v.name)), sorted(CONFIG_VARIABLES), ".env.example");
    assert.deepEqual(sorted(readmeVariables()), sorted(CONFIG_VARIABLES), "the README table");
  });

  it("name each variable once in .env.example", () => {
    const names = exampleVariables().map((v) => v.name);
    assert.deepEqual(
      names.filter((n, i) => names.indexOf(n) !== i),
      [],
    );
  });

  it("as a .env, .env.example gives every default, and uncommenting its commented lines changes nothing", () => {
    const cwd = "/srv/game";
    const defaults = loadConfig({}, cwd);
    const asIs = parseEnv(EXAMPLE);
    assert.deepEqual(
      Object.keys(asIs).sort(),
      sorted(
        exampleVariables()
          .filter((v) => !v.commented)
          .map((v) => v.name),
      ),
    );
    assert.deepEqual(loadConfig(asIs, cwd), defaults);
    const uncommented = parseEnv(EXAMPLE.replace(/^# ([A-Z][A-Z0-9_]*=)/gm, "$1"));
    assert.equal(Object.keys(uncommented).length, CONFIG_VARIABLES.length);
    assert.deepEqual(loadConfig(uncommented, cwd), defaults);
  });

  it("comments only the variables whose default is unset or computed", () => {
    // A value given for a commented variable would be a default this test cannot check.
    for (const line of EXAMPLE.split("\n")) {
      const m = VARIABLE_LINE.exec(line);
      if (m?.[1] !== undefined) assert.equal(m[3], "", `${m[2]}: a commented variable has no value`);
      if (m !== null && m[1] === undefined) assert.notEqual(m[3], "", `${m[2]}: a set variable has its default`);
    }
  });
});
