/**
 * Worlds: the cluster's world list as `GET /api/v1/worlds` serves it (players, capacity, status,
 * the recommended world and the hop cooldown; docs/cluster.md). On the start screen a **World**
 * choice (the recommended one first chosen) goes with Play; in the game the **Worlds** panel lists
 * them with a **Hop to world N** button each, disabled with the seconds left while the hop cooldown
 * runs (counted from entering the current world; a refusal's own time wins). The panel lists the
 * worlds again when it is shown and every 5 s while it is.
 */
import { api } from "../api.ts";

export interface WorldRow {
  id: number;
  players: number;
  capacity: number;
  status: "online" | "full" | "restarting";
}

export interface WorldList {
  recommended: number | null;
  hopCooldownS: number;
  worlds: WorldRow[];
}

export function fetchWorlds(): Promise<WorldList> {
  return api<WorldList>(undefined, "GET", "/api/v1/worlds");
}

/** How often the shown panel lists the worlds again (the server refreshes its listing every second). */
const REFRESH_MS = 5_000;

const STATUS_TEXT: Record<WorldRow["status"], string> = { online: "", full: " (full)", restarting: " (restarting)" };

export function worldText(w: WorldRow): string {
  return `World ${w.id}: ${w.players} ${w.players === 1 ? "player" : "players"}${STATUS_TEXT[w.status]}`;
}

/** The start screen's World choice: filled from the list, the recommended world chosen (else the one chosen kept). */
export async function fillWorldChoice(select: HTMLSelectElement): Promise<void> {
  const chosen = select.value;
  const list = await fetchWorlds();
  const ids = list.worlds.map((w) => String(w.id));
  // The same worlds: only their counts change (an open drop-down stays open).
  if (ids.join() === Array.from(select.options, (o) => o.value).join()) {
    list.worlds.forEach((w, i) => (select.options[i]!.text = worldText(w)));
    return;
  }
  const keep = ids.includes(chosen) ? chosen : String(list.recommended ?? list.worlds[0]?.id ?? "");
  select.replaceChildren(...list.worlds.map((w) => new Option(worldText(w), String(w.id))));
  select.value = keep;
}

export interface WorldsHost {
  /** The world the player is in (undefined: not told). */
  current(): number | undefined;
  /** Hops to another world: resolves when it is entered, rejects with the refusal. */
  hop(world: number): Promise<void>;
}

/** The in-game Worlds panel (`#worlds`). */
export class WorldsPanel {
  private readonly host: WorldsHost;
  private readonly root = document.getElementById("worlds")!;
  private readonly list = document.createElement("ul");
  private readonly note = document.createElement("p");
  private readonly status = document.createElement("p");
  private rows: WorldList | undefined;
  /** When the current world was entered, and until when a refused hop was told to wait (ms since the epoch). */
  private enteredAt = 0;
  private refusedUntil = 0;
  private readonly timer: ReturnType<typeof setInterval>;
  private busy = false;
  /** When the list was last asked for while shown (0: not since it was hidden). */
  private fetchedAt = 0;

  constructor(host: WorldsHost) {
    this.host = host;
    const h = document.createElement("h3");
    h.id = "worlds-title";
    h.textContent = "Worlds";
    this.list.setAttribute("aria-labelledby", h.id);
    this.list.className = "world-list";
    const refresh = document.createElement("button");
    refresh.type = "button";
    refresh.textContent = "Refresh worlds";
    refresh.addEventListener("click", () => void this.refresh());
    this.status.setAttribute("role", "status");
    this.note.className = "hint";
    this.root.replaceChildren(h, this.note, this.list, refresh, this.status);
    // Every second: the cooldown's seconds, and the list again when shown (at once) or stale.
    this.timer = setInterval(() => {
      if (this.root.hidden) this.fetchedAt = 0;
      else if (Date.now() - this.fetchedAt >= REFRESH_MS) void this.refresh();
      if (this.hopAt > Date.now() - 1000) this.render();
    }, 1000);
  }

  /** The player entered a world now: the cooldown starts. */
  entered(): void {
    this.enteredAt = Date.now();
    this.render();
  }

  /** When another world may be entered (ms since the epoch). */
  private get hopAt(): number {
    return Math.max(this.enteredAt + (this.rows?.hopCooldownS ?? 0) * 1000, this.refusedUntil);
  }

  async refresh(): Promise<void> {
    this.fetchedAt = Date.now();
    try {
      this.rows = await fetchWorlds();
      this.render();
    } catch (err) {
      this.status.textContent = `Could not list the worlds: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  dispose(): void {
    clearInterval(this.timer);
  }

  private render(): void {
    if (this.rows === undefined) return;
    const here = this.host.current();
    const wait = Math.ceil((this.hopAt - Date.now()) / 1000);
    this.note.textContent = `${here !== undefined ? `You are in world ${here}.` : ""}${wait > 0 ? ` You can change worlds in ${wait} s.` : ""}`.trim();
    this.list.replaceChildren(
      ...this.rows.worlds.map((w) => {
        const li = document.createElement("li");
        const text = document.createElement("span");
        text.textContent = worldText(w) + (w.id === here ? " (you are here)" : "");
        li.append(text);
        if (w.id !== here) {
          const b = document.createElement("button");
          b.type = "button";
          b.textContent = wait > 0 ? `Hop to world ${w.id} (${wait} s)` : `Hop to world ${w.id}`;
          b.setAttribute("aria-label", `Hop to world ${w.id}`);
          b.disabled = wait > 0 || this.busy || w.status !== "online";
          b.addEventListener("click", () => void this.hop(w.id));
          li.append(b);
        }
        return li;
      }),
    );
  }

  private async hop(world: number): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.status.textContent = `Changing to world ${world}…`;
    this.render();
    try {
      await this.host.hop(world);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // HOP_COOLDOWN: "… you can enter this world at <ISO time>".
      const until = /(\d{4}-\d\d-\d\dT[\d:.]+Z)/.exec(message)?.[1];
      if (until !== undefined) this.refusedUntil = Date.parse(until);
      this.status.textContent = `Could not change to world ${world}: ${message.replace(/^[A-Z_]+: /, "")}`;
      this.busy = false;
      this.render();
    }
  }
}
