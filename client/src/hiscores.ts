/**
 * The Hiscores page (`/hiscores`, linked from the start screen's footer): a table of the overall
 * hiscores or one skill's (`GET /api/v1/hiscores`, 25 a page, Previous and Next), and the ranks of
 * this browser's characters in the table shown (`GET /api/characters/:id/hiscores`, with the token
 * the start screen kept: none, no ranks). A **Find …** button per character turns the table to
 * the page that holds its rank, its row marked (`aria-current`) and focused; your characters' rows
 * are marked on every page. **Look up** finds any player by name (`GET /api/v1/hiscores/player/:name`):
 * its rank in the table shown, and the table turned to its row as Find does.
 */
import { api, ApiError } from "./api.ts";
import { IDP_TOKEN_KEY, TOKEN_KEY } from "./start.ts";
import { SKILLS } from "../../src/game/skills.ts";
import { skillName } from "./panels/skills.ts";

interface Entry {
  rank: number;
  name: string;
  level: number;
  xp: number;
}
interface Page {
  skill: string;
  total: number;
  entries: Entry[];
}
interface Ranks {
  name: string;
  ranks: { skill: string; rank: number; level: number; xp: number }[];
}

const PAGE = 25;
const title = (s: string) => (s === "overall" ? "Overall" : skillName(s));
const n = (v: number) => v.toLocaleString("en");

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  return e;
}

export function mountHiscores(): void {
  const main = el("main");
  main.id = "hiscores";
  const heading = el("h1", "Hiscores");
  const label = el("label", "Table ");
  const select = el("select");
  for (const s of ["overall", ...SKILLS]) {
    const o = el("option", title(s));
    o.value = s;
    select.append(o);
  }
  label.append(select);
  const mine = el("p");
  mine.id = "hiscores-mine";
  const finders = el("div");
  finders.setAttribute("role", "group");
  finders.setAttribute("aria-label", "Find your characters");
  finders.hidden = true;
  const lookup = el("form");
  lookup.setAttribute("role", "search");
  lookup.setAttribute("aria-label", "Look up a player");
  const lookupLabel = el("label", "Player ");
  const lookupName = el("input");
  lookupName.type = "search";
  lookupName.maxLength = 32;
  lookupName.required = true;
  lookupLabel.append(lookupName);
  lookup.append(lookupLabel, el("button", "Look up"));
  const found = el("p");
  found.id = "hiscores-lookup";
  found.setAttribute("aria-live", "polite");
  const status = el("p");
  status.setAttribute("role", "status");
  const table = el("table");
  table.setAttribute("aria-label", "Hiscores");
  const head = el("tr");
  for (const h of ["Rank", "Name", "Level", "XP"]) head.append(el("th", h));
  const body = el("tbody");
  table.append(el("thead"), body);
  table.tHead!.append(head);
  const prev = el("button", "Previous");
  const next = el("button", "Next");
  const back = el("a", "Back to the game");
  back.href = "/";
  main.append(heading, label, mine, finders, lookup, found, table, status, prev, next, el("p"), back);
  document.body.append(main);

  let offset = 0;
  let ranks: Ranks[] = [];
  /** The character whose row is sought (a Find button): marked and focused when its page is in. */
  let sought: string | undefined;
  /** The player looked up last (Look up): its rank shown for the table chosen. */
  let looked: Ranks | undefined;
  const showLooked = () => {
    const at = looked?.ranks.find((x) => x.skill === select.value);
    found.textContent =
      looked === undefined || at === undefined ? "" : `${looked.name} in ${title(select.value)}: rank ${n(at.rank)} (level ${n(at.level)}, ${n(at.xp)} xp).`;
  };
  const showMine = () => {
    showLooked();
    const skill = select.value;
    const lines = ranks.map((r) => {
      const at = r.ranks.find((x) => x.skill === skill);
      return at === undefined ? "" : `${r.name}: rank ${n(at.rank)} (level ${n(at.level)}, ${n(at.xp)} xp)`;
    });
    mine.textContent = lines.length === 0 ? "" : `Your rank in ${title(skill)}: ${lines.join("; ")}.`;
    finders.replaceChildren(
      ...ranks.map((r) => {
        const b = el("button", `Find ${r.name}`);
        b.addEventListener("click", () => {
          const at = r.ranks.find((x) => x.skill === select.value);
          if (at === undefined) return;
          sought = r.name;
          offset = Math.floor((at.rank - 1) / PAGE) * PAGE;
          void load();
        });
        return b;
      }),
    );
    finders.hidden = ranks.length === 0;
  };
  const load = async () => {
    status.textContent = "Loading…";
    try {
      const page = await api<Page>(undefined, "GET", `/api/v1/hiscores?skill=${encodeURIComponent(select.value)}&limit=${PAGE}&offset=${offset}`);
      body.replaceChildren(
        ...page.entries.map((e) => {
          const tr = el("tr");
          tr.append(el("td", n(e.rank)), el("td", e.name), el("td", n(e.level)), el("td", n(e.xp)));
          if (ranks.some((r) => r.name === e.name)) tr.className = "mine";
          return tr;
        }),
      );
      // The sought character's row: marked as the current one, focused (so it is scrolled to and read).
      const row = sought === undefined ? undefined : Array.from(body.rows).find((tr) => tr.cells[1]?.textContent === sought);
      sought = undefined;
      if (row !== undefined) {
        row.setAttribute("aria-current", "true");
        row.tabIndex = -1;
        row.focus();
      }
      status.textContent = page.total === 0 ? "No one is ranked yet." : `Ranks ${n(offset + 1)}–${n(offset + page.entries.length)} of ${n(page.total)}.`;
      prev.disabled = offset === 0;
      next.disabled = offset + PAGE >= page.total;
      showMine();
    } catch (err) {
      status.textContent = `The hiscores could not be loaded: ${err instanceof Error ? err.message : String(err)}.`;
    }
  };
  lookup.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = lookupName.value.trim();
    if (name === "") return;
    found.textContent = "Looking up…";
    void (async () => {
      try {
        looked = await api<Ranks>(undefined, "GET", `/api/v1/hiscores/player/${encodeURIComponent(name)}`);
        const at = looked.ranks.find((x) => x.skill === select.value);
        if (at !== undefined) {
          sought = looked.name;
          offset = Math.floor((at.rank - 1) / PAGE) * PAGE;
          await load();
        }
        showLooked();
      } catch (err) {
        looked = undefined;
        found.textContent =
          err instanceof ApiError && err.status === 404
            ? `No player is named ${name}.`
            : `The player could not be looked up: ${err instanceof Error ? err.message : String(err)}.`;
      }
    })();
  });
  select.addEventListener("change", () => {
    offset = 0;
    void load();
  });
  prev.addEventListener("click", () => {
    offset = Math.max(0, offset - PAGE);
    void load();
  });
  next.addEventListener("click", () => {
    offset += PAGE;
    void load();
  });
  void load();

  // This browser's characters' ranks (the start screen's token, if any).
  const token = sessionStorage.getItem(IDP_TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY) ?? undefined;
  if (token !== undefined) {
    void (async () => {
      try {
        const { characters } = await api<{ characters: { id: string }[] }>(token, "GET", "/api/character");
        ranks = await Promise.all(characters.map((c) => api<Ranks>(token, "GET", `/api/characters/${encodeURIComponent(c.id)}/hiscores`)));
        showMine();
      } catch {
        // No ranks without a valid token: the table is still shown.
      }
    })();
  }
}
