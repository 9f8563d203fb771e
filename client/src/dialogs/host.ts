/** What the dialogs need from the rest of the client, and small readings of the synced state. */
import type { ItemSlotState, PlayerState } from "../../../schema/WorldState.ts";
import { spawnStations } from "../../../src/game/world/spawn.ts";
import type { Content } from "../content.ts";
import type { GameClient, WorldRoom } from "../gameRooms.ts";

export interface DialogHost {
  client: GameClient;
  room: WorldRoom;
  content: Content;
  playerId: string;
  /** The token the world room was joined with (trade rooms are joined with it too). */
  token: string | undefined;
  /** Where the dialogs go: the element over which they float (the world view). */
  parent: HTMLElement;
}

/** The local player's synced state (its owner-only fields reach this client only). */
export function me(host: DialogHost): PlayerState | undefined {
  return host.room.state.players.get(host.playerId);
}

/** The occupied inventory slots, in slot order. */
export function inventorySlots(p: PlayerState): ItemSlotState[] {
  return [...p.inventory].sort((a, b) => a.slot - b.slot);
}

/** How many of an inventory slot's item one command may move: a stack's size, else every slot of that item. */
export function movable(host: DialogHost, p: PlayerState, s: ItemSlotState): number {
  if (host.content.registry.items.get(s.itemId)?.stackable) return s.quantity;
  return p.inventory.reduce((n, o) => n + (o.itemId === s.itemId ? o.quantity : 0), 0);
}

/** Free inventory slots. */
export function freeSlots(p: PlayerState, size: number): number {
  return size - p.inventory.length;
}

export function itemName(host: DialogHost, itemId: string): string {
  return host.content.registry.items.get(itemId)?.name ?? itemId;
}

/** The content's stations (a bank booth opens the bank as a banker does), by id, once per content. */
const stationsOf = new WeakMap<Content, Map<string, { x: number; z: number }>>();
function station(content: Content, id: string): { x: number; z: number } | undefined {
  let m = stationsOf.get(content);
  if (m === undefined) stationsOf.set(content, (m = new Map(spawnStations(content.registry).map((s) => [s.id, s]))));
  return m.get(id);
}

/** Chebyshev distance in tiles from the local player to a synced entity or a station; Infinity when either is not in view. */
export function distanceTo(host: DialogHost, entityId: string): number {
  const p = me(host);
  const e = host.room.state.entities.get(entityId) ?? station(host.content, entityId);
  if (p === undefined || e === undefined) return Infinity;
  return Math.max(Math.abs(p.x - e.x), Math.abs(p.z - e.z));
}
