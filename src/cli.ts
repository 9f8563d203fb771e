/**
 * The command line of every script and entry point (`npm start`, `npm run bench:…`, scripts/…):
 * Node's `util.parseArgs` with `--help` (`-h`) added, which prints the usage (the script's summary
 * and its options, from the same table) and exits 0; a flag that is not in the table, or a value
 * missing, prints one line to stderr and exits 2, never a stack.
 */
import path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** How a script is described to `--help`: what it does, and a line per option (by its name). */
export interface Usage {
  /** How it is run (`npm run bench:logins -- [options]`); by default `node <its path> [options]`. */
  command?: string;
  /** What it does, a few lines. */
  summary: string;
  /** What each option means, by its name (its default is added from the table). */
  help?: Record<string, string>;
  /** What the positional arguments are, when it takes them (`<name>`). */
  positionals?: string;
}

const exitCode = { help: 0, bad: 2 } as const;

function scriptName(): string {
  const file = process.argv[1] ?? "script";
  return path.relative(process.cwd(), file) || file;
}

/** The usage text of a script: its command, summary and one line an option. */
export function usageText(usage: Usage, options: Options): string {
  const command =
    usage.command ?? `node ${scriptName()}${Object.keys(options).length > 0 ? " [options]" : ""}${usage.positionals ? ` ${usage.positionals}` : ""}`;
  const lines = [`Usage: ${command}`, "", usage.summary.trim()];
  const rows = Object.entries(options).map(([name, o]) => {
    const flag = `--${name}${o.type === "string" ? " <value>" : ""}${o.short ? `, -${o.short}` : ""}`;
    const dflt = o.default !== undefined && o.default !== false ? ` (default ${String(o.default)})` : "";
    return [flag, `${usage.help?.[name] ?? ""}${dflt}`.trim()] as const;
  });
  rows.push(["--help, -h", "print this and exit"]);
  const width = Math.max(...rows.map(([f]) => f.length));
  lines.push("", "Options:", ...rows.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`.trimEnd()));
  return lines.join("\n") + "\n";
}

/**
 * `parseArgs` for a script: `--help` prints {@link usageText} (or `usage` as it is, when a text)
 * and exits 0; a bad command line
 * prints `<script>: <what is wrong> (see --help)` and exits 2.
 */
export function parseCli<O extends Options, P extends boolean = false>(
  usage: Usage | string,
  config: { options: O; allowPositionals?: P; args?: string[] },
): ReturnType<typeof parseArgs<{ options: O; allowPositionals: P; strict: true }>> {
  const args = config.args ?? process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(typeof usage === "string" ? `${usage.trimEnd()}\n` : usageText(usage, config.options));
    process.exit(exitCode.help);
  }
  try {
    return parseArgs({ options: config.options, allowPositionals: (config.allowPositionals ?? false) as P, strict: true, args });
  } catch (err) {
    const message = err instanceof Error ? err.message.split("\n")[0] : String(err);
    process.stderr.write(`${scriptName()}: ${message} (see --help)\n`);
    process.exit(exitCode.bad);
  }
}
