/**
 * Every script and entry point answers `--help` with its usage (exit 0), and a flag it does not
 * know with one line on stderr and a non-zero exit, never a stack (src/cli.ts). The list is the
 * tree's: every file of scripts/, every run.ts of bench/ and the children they start, and what
 * package.json's scripts run, so a new script is held to it too.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "../support/process.ts";

/** Files of bench/ that are modules of a bench, not run on their own. */
const MODULES = /\/(common|ladder|ladderQuests|scale|clients)\.ts$/;
/** MikroORM's own CLI (scripts/mikro-orm.ts hands it the command line): a bad flag prints its usage, not one line. */
const OWN_CLI = new Set(["scripts/mikro-orm.ts"]);

function scripts(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const fromNpm = Object.values(pkg.scripts).flatMap((s) => [...s.matchAll(/\bnode (?:--\S+ )*(\S+\.ts)\b/g)].map((m) => m[1]!));
  const found = [...fs.globSync("scripts/*.ts", { cwd: ROOT }), ...fs.globSync("bench/*/*.ts", { cwd: ROOT }).filter((f) => !MODULES.test(f))];
  return [...new Set([...fromNpm, ...found])].sort();
}

function run(file: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { cwd: ROOT, env: { ...process.env, NODE_ENV: "test" }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("scripts' command lines", function () {
  this.timeout(600_000);
  const files = scripts();

  it("are found: the npm scripts' entry points, scripts/ and the benches", () => {
    for (const f of ["src/main.ts", "agent-runtime/main.ts", "test/run.ts", "scripts/client-fresh.ts", "bench/world-load/run.ts", "bench/world-load/bots.ts"])
      assert.ok(files.includes(f), f);
    for (const f of files) assert.ok(fs.existsSync(path.join(ROOT, f)), `${f} exists`);
  });

  it("answer --help with their usage and exit 0, and a bad flag with one line and a non-zero exit", async () => {
    const problems: string[] = [];
    // Two at a time: each loads its part of the server.
    const queue = [...files];
    const worker = async () => {
      for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
        const help = await run(f, ["--help"]);
        if (help.code !== 0) problems.push(`${f} --help: exit ${help.code} ${help.stderr.split("\n")[0]}`);
        else if (!/^usage:/i.test(help.stdout)) problems.push(`${f} --help: no usage on stdout (${JSON.stringify(help.stdout.slice(0, 80))})`);
        const bad = await run(f, ["--no-such-flag"]);
        const lines = bad.stderr.trim().split("\n");
        if (bad.code === 0 || bad.code === null) problems.push(`${f} --no-such-flag: exit ${bad.code}`);
        else if (/^\s+at /m.test(bad.stderr) || /^\s+at /m.test(bad.stdout)) problems.push(`${f} --no-such-flag: a stack trace`);
        else if (!OWN_CLI.has(f) && (lines.length !== 1 || !lines[0]!.includes("--no-such-flag")))
          problems.push(`${f} --no-such-flag: not one line naming the flag: ${JSON.stringify(bad.stderr)}`);
      }
    };
    await Promise.all([worker(), worker()]);
    assert.deepEqual(problems, []);
  });
});
