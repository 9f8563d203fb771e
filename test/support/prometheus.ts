/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), for tests: every
 * line must be a `# HELP`, a `# TYPE`, a sample of the family last declared, or blank; label
 * values are unescaped; values are read as Prometheus reads them; a histogram's buckets must be
 * cumulative and end with `+Inf` equal to its `_count`. Anything else throws, naming the line.
 */
const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const LABEL = "[a-zA-Z_][a-zA-Z0-9_]*";
/** As Prometheus reads a value (Go's ParseFloat): special values in any case (prom-client writes `Nan`). */
const VALUE = "[-+]?(?:[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|[nN][aA][nN])";
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (${VALUE})(?: (-?[0-9]+))?$`);
const LABEL_PAIR = new RegExp(`^(${LABEL})="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"(,|$)`);
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  help: string;
  samples: Sample[];
}

function parseValue(raw: string): number {
  if (/^[-+]?inf(inity)?$/i.test(raw)) return raw.startsWith("-") ? -Infinity : Infinity;
  if (/^[-+]?nan$/i.test(raw)) return NaN;
  return Number(raw);
}

function parseLabels(raw: string, line: number): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = raw;
  while (rest !== "") {
    const m = LABEL_PAIR.exec(rest);
    if (m === null) throw new Error(`line ${line}: bad labels "${raw}"`);
    if (m[1]! in labels) throw new Error(`line ${line}: label ${m[1]} twice`);
    labels[m[1]!] = m[2]!.replace(/\\(["\\n])/g, (_s, c: string) => (c === "n" ? "\n" : c));
    rest = rest.slice(m[0].length);
  }
  return labels;
}

/** The sample names a family may hold. */
function belongs(family: Family, sample: string): boolean {
  if (family.type === "histogram") return [`${family.name}_bucket`, `${family.name}_sum`, `${family.name}_count`].includes(sample);
  if (family.type === "summary") return [family.name, `${family.name}_sum`, `${family.name}_count`].includes(sample);
  return sample === family.name;
}

function checkHistogram(family: Family): void {
  const series = new Map<string, Sample[]>();
  const key = (s: Sample) =>
    JSON.stringify(
      Object.entries(s.labels)
        .filter(([k]) => k !== "le")
        .sort(),
    );
  for (const s of family.samples) {
    if (!series.has(key(s))) series.set(key(s), []);
    series.get(key(s))!.push(s);
  }
  for (const [labels, samples] of series) {
    const buckets = samples.filter((s) => s.name.endsWith("_bucket"));
    const count = samples.find((s) => s.name.endsWith("_count"));
    if (buckets.length === 0 || count === undefined || !samples.some((s) => s.name.endsWith("_sum"))) {
      throw new Error(`${family.name}${labels}: a histogram needs buckets, _sum and _count`);
    }
    let previous = 0;
    for (const b of buckets) {
      if (b.labels.le === undefined) throw new Error(`${family.name}: a bucket without le`);
      if (b.value < previous) throw new Error(`${family.name}${labels}: buckets are not cumulative`);
      previous = b.value;
    }
    const last = buckets.at(-1)!;
    if (last.labels.le !== "+Inf" || last.value !== count.value) throw new Error(`${family.name}${labels}: the +Inf bucket must equal _count`);
  }
}

export function parsePrometheus(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  let current: Family | undefined;
  const lines = text.split("\n");
  if (lines.at(-1) !== "") throw new Error("the exposition must end with a newline");
  lines.forEach((line, i) => {
    const n = i + 1;
    if (line === "") return;
    if (line.startsWith("#")) {
      const m = new RegExp(`^# (HELP|TYPE) (${NAME}) ?(.*)$`).exec(line);
      if (m === null) return; // a plain comment
      const [, kind, name, rest] = m as unknown as [string, string, string, string];
      let family = families.get(name);
      if (family === undefined) {
        family = { name, type: "untyped", help: "", samples: [] };
        families.set(name, family);
      } else if (family !== current) {
        throw new Error(`line ${n}: family ${name} declared again after other families`);
      }
      if (family.samples.length > 0) throw new Error(`line ${n}: ${kind} of ${name} after its samples`);
      if (kind === "TYPE") {
        if (!TYPES.has(rest)) throw new Error(`line ${n}: unknown type "${rest}"`);
        family.type = rest;
      } else {
        family.help = rest.replace(/\\(n|\\)/g, (_s, c: string) => (c === "n" ? "\n" : "\\"));
      }
      current = family;
      return;
    }
    const m = SAMPLE.exec(line);
    if (m === null) throw new Error(`line ${n}: not a sample: "${line}"`);
    const sample: Sample = { name: m[1]!, labels: parseLabels(m[2] ?? "", n), value: parseValue(m[3]!) };
    if (current === undefined || !belongs(current, sample.name))
      throw new Error(`line ${n}: ${sample.name} outside its family (current: ${current?.name ?? "none"})`);
    current.samples.push(sample);
  });
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

/**
 * The value of the one sample of `name` whose labels include `labels`: throws if there are
 * several, or none unless `absent` is given (a counter's series that has not happened yet).
 */
export function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}, absent?: number): number {
  const family = families.get(name) ?? families.get(name.replace(/_(bucket|sum|count)$/, ""));
  if (family === undefined) throw new Error(`no metric ${name}`);
  const found = family.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length === 0 && absent !== undefined) return absent;
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} with ${JSON.stringify(labels)}`);
  return found[0]!.value;
}
