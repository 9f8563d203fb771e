/**
 * What goes around the world view once the game runs: the minimap (click to walk), the area banner
 * on entering an area, chat over the speakers' heads, and the sound effects (hits and misses on you
 * or by you, level-ups, item actions), each in its own module; this wires them to the room.
 */
import type { ServerEvent } from "../../src/game/serverEvents.ts";
import { AreaBanner, areaFinder } from "./areaBanner.ts";
import type { Content } from "./content.ts";
import type { WorldRoom } from "./gameRooms.ts";
import { Minimap } from "./minimap.ts";
import { OverheadChat } from "./overhead.ts";
import { inventoryKey, play } from "./sounds.ts";
import type { Tile, WorldScene } from "./WorldScene.ts";

export interface ExtrasHost {
  room: WorldRoom;
  scene: WorldScene;
  content: Content;
  playerId: string;
  /** The world view's box. */
  parent: HTMLElement;
  walkTo(tile: Tile): void;
}

/** Mounts them; the function returned takes them away (the session's end). */
export function mountWorldExtras(host: ExtrasHost): () => void {
  const { room, playerId } = host;
  const minimap = new Minimap({
    content: host.content,
    parent: host.parent,
    playerId,
    me: () => room.state.players?.get(playerId),
    players: () => room.state.players?.entries() ?? [],
    entities: () => room.state.entities?.values() ?? [],
    walkTo: host.walkTo,
  });
  const banner = new AreaBanner(host.parent, host.content.registry.npcs);
  const areaAt = areaFinder(host.content);
  const overhead = new OverheadChat(host.scene);

  room.onMessage("chat:message", (m: ServerEvent<"chat:message">) => {
    if (m.channel === "local") overhead.say(m.fromId, m.fromName, m.message);
  });
  room.onMessage("combat:hit", (h: ServerEvent<"combat:hit">) => {
    if (h.targetId === playerId || h.attackerId === playerId) play(h.damage > 0 ? "hit" : "miss");
  });
  room.onMessage("skill:xp", (x: ServerEvent<"skill:xp">) => {
    if (x.levelUp) play("levelup");
  });
  let held: string | undefined;
  const changed = () => {
    const me = room.state.players?.get(playerId);
    if (me === undefined) return;
    banner.entered(areaAt(me.x, me.z));
    const key = inventoryKey(me.inventory, me.coins);
    if (held !== undefined && key !== held) play("item");
    held = key;
  };
  changed();
  room.onStateChange(changed);
  return () => {
    room.onStateChange.remove(changed);
    minimap.dispose();
    banner.dispose();
    overhead.dispose();
  };
}
