/**
 * The area you stand in (world-areas.json), and its name shown over the world view as you enter it,
 * as the genre does: "Hollowbrook Woods", and for an area that is not a safe zone a warning under
 * it ("Danger: level 12 monsters here may attack you.": the levels of the monsters that spawn there
 * and attack unprovoked, not the area's difficulty rank), also said in the chat. The banner is a
 * `role=status` line (announced by screen readers) that fades after a few seconds.
 */
import type { PlacedArea } from "../../src/manifests/registry.ts";
import type { NpcDef } from "../../src/manifests/schemas/npcs.ts";
import type { Content } from "./content.ts";
import { midSentence } from "../../src/game/sentence.ts";
import { chatLine } from "./panels/chat.ts";

/** How long the banner stays (ms). */
const BANNER_MS = 4_000;

const size = (b: { minX: number; maxX: number; minZ: number; maxZ: number }) => (b.maxX - b.minX + 1) * (b.maxZ - b.minZ + 1);

/** Finds the area of a tile: the smallest that holds it (a town inside a wider region). */
export function areaFinder(content: Content): (x: number, z: number) => PlacedArea | undefined {
  const areas = [...content.registry.areas].sort((a, b) => size(a.bounds) - size(b.bounds));
  return (x, z) => areas.find((a) => x >= a.bounds.minX && x <= a.bounds.maxX && z >= a.bounds.minZ && z <= a.bounds.maxZ);
}

/**
 * The warning an area gives on entering it, if it is dangerous: other players may attack there, or
 * monsters that attack unprovoked spawn there. Their levels are said (the genre's players judge an
 * area by them), not the area's difficulty rank: "level 3" in a cistern of level 38 to 58 monsters
 * misled, and a yard without monsters warned of some.
 */
export function dangerOf(area: PlacedArea, npcs: ReadonlyMap<string, NpcDef>): string | undefined {
  if (area.pvpEnabled) return "Danger: other players can attack you here.";
  if (area.safeZone) return undefined;
  const levels = area.mobSpawns
    .map((m) => npcs.get(m.mobId))
    .filter((d) => d?.combat?.aggressive === true)
    .map((d) => d!.stats?.level ?? 1);
  if (levels.length === 0) return undefined;
  const [lo, hi] = [Math.min(...levels), Math.max(...levels)];
  return `Danger: level ${lo === hi ? lo : `${lo} to ${hi}`} monsters here may attack you.`;
}

export class AreaBanner {
  private readonly el: HTMLElement;
  private current: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  private readonly npcs: ReadonlyMap<string, NpcDef>;

  constructor(parent: HTMLElement, npcs: ReadonlyMap<string, NpcDef>) {
    this.npcs = npcs;
    this.el = document.createElement("div");
    this.el.id = "area-banner";
    this.el.setAttribute("role", "status");
    this.el.hidden = true;
    parent.append(this.el);
  }

  /** You stand in `area` now: on a change, its name (and danger) is shown and said. */
  entered(area: PlacedArea | undefined): void {
    const id = area?.id;
    if (id === this.current) return;
    this.current = id;
    if (area === undefined) return;
    const danger = dangerOf(area, this.npcs);
    const name = document.createElement("strong");
    name.textContent = area.name;
    this.el.replaceChildren(name);
    if (danger !== undefined) {
      const warn = document.createElement("span");
      warn.className = "danger";
      warn.textContent = danger;
      this.el.append(warn);
    }
    this.el.dataset.danger = String(danger !== undefined);
    this.el.hidden = false;
    const inText = midSentence(area.name);
    chatLine(danger !== undefined ? `You enter ${inText}. ${danger}` : `You enter ${inText}.`, danger !== undefined ? "error" : "system");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => (this.el.hidden = true), BANNER_MS);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.el.remove();
  }
}
