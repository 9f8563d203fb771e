/** Relative links of a Markdown page that lead nowhere: a missing file, or an anchor no heading makes. */
import fs from "node:fs";
import path from "node:path";

export interface BrokenLink {
  line: number;
  target: string;
  why: string;
}

/** The anchors GitHub makes for a page's headings (outside code fences), in order. */
export function headingSlugs(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  let fence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    // GitHub: lower case, drop everything but letters, digits, spaces, hyphens and underscores, spaces to hyphens.
    const base = m[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
}

export function brokenLinks(file: string): BrokenLink[] {
  const text = fs.readFileSync(file, "utf8");
  const out: BrokenLink[] = [];
  let fence = false;
  text.split("\n").forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) return;
    const prose = line.replace(/`[^`]*`/g, "");
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      const [rel, anchor] = target.split("#", 2) as [string, string | undefined];
      const dest = rel === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(rel));
      if (!fs.existsSync(dest)) {
        out.push({ line: i + 1, target, why: "no such file" });
        continue;
      }
      if (anchor !== undefined && dest.endsWith(".md") && !headingSlugs(fs.readFileSync(dest, "utf8")).has(anchor)) {
        out.push({ line: i + 1, target, why: "no such heading" });
      }
    }
  });
  return out;
}
