/**
 * The options of a tile's context menu: for each thing on it what can be done (Attack, Chop /
 * Mine / Fish, Bank with / Trade a service NPC, Talk to, Use a bank booth, Pick up, Trade with,
 * Open / Close a door, Climb-down / Climb-up, an agility obstacle's verb, Examine), then Walk here.
 * Each option sends the client
 * event the server's table defines (src/game/clientEvents.ts) and shows the way there.
 */
import type { ClientEvent, ClientEventName } from "../../src/game/clientEvents.ts";
import { isMakeStation } from "./dialogs/Make.ts";
import type { EntityState, PlayerState } from "../../schema/WorldState.ts";
import { SERVICE_RANGE } from "../../src/game/rules.ts";
import type { MenuItem } from "./contextMenu.ts";
import { itemLabel, type Content } from "./content.ts";
import type { Tile } from "./WorldScene.ts";
import { placeName, placeOptions } from "./places.ts";

export type Send = <K extends ClientEventName>(type: K, data: ClientEvent<K>) => void;

const GATHER_VERB = { woodcutting: "Chop", mining: "Mine", fishing: "Fish" } as const;

export interface WorldMenuHost {
  content: Content;
  send: Send;
  player(id: string): PlayerState | undefined;
  entity(id: string): EntityState | undefined;
  /** A station (content, not synced state) by id. */
  station(id: string): { type: string; x: number; z: number; name: string; examine?: string | undefined } | undefined;
  walkTo(tile: Tile): void;
  /** Shows the way to something the player is about to walk to (within `reach` tiles of it). */
  approach(tile: Tile, reach: number): void;
  tradeWith(playerId: string, name: string): void;
  /** A line in the chat, from the client itself (what it knows without asking the server). */
  say(text: string): void;
  /** The spell chosen in the Spellbook to cast on the next monster, if any. */
  spell?(): { id: string; name: string } | undefined;
  /** That spell was cast: the Spellbook lets go of it. */
  spellCast?(): void;
}

/** The name of what a menu is about: the thing's name, or the tile's coordinates. */
export function menuTitle(host: WorldMenuHost, ids: readonly string[], tile: Tile): string {
  if (ids.length === 1) {
    const id = ids[0]!;
    const name = host.player(id)?.name ?? nameOf(host, id);
    if (name !== undefined) return name;
  }
  return `Tile ${tile.x}, ${tile.z}`;
}

function nameOf(host: WorldMenuHost, id: string): string | undefined {
  const e = host.entity(id);
  if (e === undefined) return host.station(id)?.name;
  switch (e.kind) {
    case "item":
      return itemLabel(host.content, e.ref, e.quantity);
    case "resource":
      return host.content.registry.resources.get(e.ref)?.name ?? e.ref;
    case "object":
      return e.ref === "fire" ? "Fire" : (placeName(host.content, id) ?? e.ref);
    case "npc":
      // The content's name as the client shows it (names.ts: a monster in sentence case).
      return host.content.registry.npcs.get(e.ref)?.name ?? e.name;
    default:
      return e.name;
  }
}

/** The options for one thing on the tile. */
export function optionsFor(host: WorldMenuHost, id: string): MenuItem[] {
  const act = (action: ClientEvent<"player:action">["action"], at: Tile, reach: number) => () => {
    host.send("player:action", { action, targetId: id });
    host.approach(at, reach);
  };
  const examine = (name: string) => ({ label: `Examine ${name}`, run: () => host.send("player:action", { action: "examine", targetId: id }) });

  const p = host.player(id);
  if (p !== undefined) {
    return [
      { label: `Trade with ${p.name}`, run: () => host.tradeWith(id, p.name) },
      { label: `Examine ${p.name}`, run: () => host.say(`${p.name}, combat level ${p.combatLevel}.`) },
    ];
  }
  const e = host.entity(id);
  if (e === undefined) {
    const s = host.station(id);
    if (s === undefined) return [];
    const look = { label: `Examine ${s.name}`, run: () => host.say(s.examine ?? `A ${s.name.toLowerCase()}.`) };
    // A bank booth opens the bank (the server walks within 2 tiles of it, as to a banker).
    if (s.type === "bank") return [{ label: `Use ${s.name}`, run: act("interact", s, SERVICE_RANGE) }, look];
    // A furnace, an anvil, a tanner, a rune altar: the server walks within 1 tile and lists its recipes (the Make dialog).
    return isMakeStation(host, s.type) ? [{ label: `Use ${s.name}`, run: act("interact", s, 1) }, look] : [look];
  }
  const at = { x: e.x, z: e.z };
  const name = nameOf(host, id)!;
  switch (e.kind) {
    case "npc": {
      const def = host.content.registry.npcs.get(e.ref);
      const out: MenuItem[] = [];
      const spell = host.spell?.();
      if (def?.combat?.attackable === true && spell !== undefined)
        out.push({ label: `Cast ${spell.name} on ${name}`, run: () => castOn(host, id, spell.id, at) });
      if (def?.combat?.attackable === true) out.push({ label: `Attack ${name} (level ${e.level})`, run: act("attack", at, 1) });
      else {
        // A banker's or keeper's service at once (interact), as the genre's "Bank" and "Trade"; Talk to opens the dialogue box.
        const service = def?.services?.enabled === true ? def.services.types : [];
        if (service.includes("bank")) out.push({ label: `Bank with ${name}`, run: act("interact", at, SERVICE_RANGE) });
        if (service.includes("shop")) out.push({ label: `Trade ${name}`, run: act("interact", at, SERVICE_RANGE) });
        out.push({ label: `Talk to ${name}`, run: act("talk", at, service.length > 0 ? SERVICE_RANGE : 1) });
      }
      out.push(def?.description !== undefined ? examine(name) : { label: `Examine ${name}`, run: () => host.say(`${name}.`) });
      return out;
    }
    case "resource": {
      const node = host.content.registry.resources.get(e.ref);
      const out: MenuItem[] = [];
      if (!e.depleted && node !== undefined) out.push({ label: `${GATHER_VERB[node.gathering]} ${name}`, run: act("gather", at, 1) });
      out.push(examine(name));
      return out;
    }
    case "item":
      return [{ label: `Pick up ${name}`, run: act("pickup", at, 0) }, examine(name)];
    case "object":
      // A door, a ladder, an obstacle (places.ts): open or close, climb, try it.
      return (
        placeOptions(host.content, e, (to, reach) => act("interact", to, reach), examine(name)) ?? [
          { label: `Examine ${name}`, run: () => host.say(e.ref === "fire" ? "A fire. Use raw food on it to cook." : `${name}.`) },
        ]
      );
    default:
      return [];
  }
}

/** Casts the Spellbook's spell on a monster: the server walks within 10 tiles (MAGIC_RANGE) and casts once. */
export function castOn(host: WorldMenuHost, targetId: string, spellId: string, at: Tile): void {
  host.send("player:action", { action: "cast", spellId, targetId });
  host.approach(at, 10);
  host.spellCast?.();
}

/** The first monster of a tile's things that a spell can be cast on. */
export function castTarget(host: WorldMenuHost, ids: readonly string[]): { id: string; at: Tile } | undefined {
  for (const id of ids) {
    const e = host.entity(id);
    if (e?.kind === "npc" && host.content.registry.npcs.get(e.ref)?.combat?.attackable === true) return { id, at: { x: e.x, z: e.z } };
  }
  return undefined;
}

/**
 * Every option of a tile: each thing's (topmost first), then Walk here (to a blocked tile: the
 * server walks to the nearest reachable one, as RuneScape does).
 */
export function tileMenu(host: WorldMenuHost, ids: readonly string[], tile: Tile): MenuItem[] {
  // Alike things (four logs dropped on one tile) give their options once: the first one's.
  const seen = new Set<string>();
  const items = ids.flatMap((id) => optionsFor(host, id)).filter((item) => !seen.has(item.label) && seen.add(item.label));
  return [...items, { label: "Walk here", run: () => host.walkTo(tile) }];
}

/**
 * What a left click on a tile does, as in the genre: the top action of its menu (Attack, Chop,
 * Talk to, Pick up, Use a bank booth), and where the top is only Examine or Trade with (a player,
 * a fire, a station), Walk here. A right click (or Enter from the keyboard) opens the whole menu.
 */
export function topAction(items: readonly MenuItem[]): MenuItem {
  return items.find((i) => !/^(Examine|Trade with) /.test(i.label)) ?? items.at(-1)!;
}
