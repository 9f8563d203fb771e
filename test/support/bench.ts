/** Runs a benchmark orchestrator (`bench/<name>/run.ts`) with a temporary results file, for the benches' smoke tests. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** Runs it to the end, asserts that it exited 0, and returns its results file. */
export async function runBench<T>(name: string, args: string[]): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-bench-test-`));
  const out = path.join(dir, "results.json");
  try {
    const child = spawn(process.execPath, [path.join(ROOT, "bench", name, "run.ts"), ...args, "--out", out], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stdout.resume();
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    assert.equal(code, 0, stderr);
    return JSON.parse(fs.readFileSync(out, "utf8")) as T;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
