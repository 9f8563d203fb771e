/**
 * The browser client: the start screen (Play anonymously or sign in, then a character), then the
 * world room through the Colyseus SDK, whose state sync drives the world view and the panels.
 * Server event payloads are typed by the server's own table (src/game/serverEvents.ts), client
 * events by src/game/clientEvents.ts.
 */
import * as Phaser from "phaser";
import { Callbacks, Client } from "@colyseus/sdk";
import { chebyshev } from "../../src/game/map/CollisionMap.ts";
import type { ServerEvent } from "../../src/game/serverEvents.ts";
import { spawnStations } from "../../src/game/world/spawn.ts";
import type { EntityState, PlayerState, WorldState } from "../../schema/WorldState.ts";
import { keepConnected, status } from "./connection.ts";
import { closeMenu, openMenu } from "./contextMenu.ts";
import { loadContent } from "./content.ts";
import { showFeedback } from "./feedback.ts";
import { chatLine, mountChat } from "./panels/chat.ts";
import { EquipmentPanel } from "./panels/equipment.ts";
import { InventoryPanel } from "./panels/inventory.ts";
import { SkillsPanel } from "./panels/skills.ts";
import { SpellbookPanel } from "./panels/spellbook.ts";
import { CombatPanel } from "./panels/combat.ts";
import { PrayerPanel } from "./panels/prayer.ts";
import { mountTabs } from "./panels/tabs.ts";
import { mountRunToggle } from "./runToggle.ts";
import { entitySprite, playerSprite } from "./sprites.ts";
import { runStartScreen, type Choice } from "./start.ts";
import { castOn, castTarget, menuTitle, tileMenu, type Send, type WorldMenuHost } from "./worldMenu.ts";
import { WorldScene } from "./WorldScene.ts";
import { mountDialogs, requestTrade } from "./dialogs/index.ts";
import "./style.css";

/** How far (tiles) an object may be to be offered as a target of "Use … on". */
const USE_ON_RANGE = 15;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const size = (b: { minX: number; maxX: number; minZ: number; maxZ: number }) => (b.maxX - b.minX + 1) * (b.maxZ - b.minZ + 1);

async function play(choice: Choice): Promise<void> {
  status("Connecting…", "connecting");
  const content = await loadContent();
  const client = new Client(location.origin);
  client.auth.token = choice.token;
  const room = await client.joinOrCreate<WorldState>("world", { characterId: choice.characterId });
  // Handlers are registered before anything is awaited, so that no message is missed.
  let welcomed!: (w: ServerEvent<"welcome">) => void;
  const welcome = new Promise<ServerEvent<"welcome">>((resolve) => (welcomed = resolve));
  room.onMessage("welcome", (w: ServerEvent<"welcome">) => {
    chatLine(`Welcome, ${w.name}.`, "system");
    welcomed(w);
  });
  room.onMessage("chat:message", (m: ServerEvent<"chat:message">) => {
    chatLine(m.channel === "system" ? m.message : `${m.fromName}: ${m.message}`, m.channel);
  });
  room.onMessage("error", (e: ServerEvent<"error">) => chatLine(e.message, "error"));
  // Events handled elsewhere or not shown (player:sync duplicates the synced state) are accepted.
  room.onMessage("*", () => {});
  keepConnected(room, { reconnected: () => chatLine("Reconnected.", "system"), left: () => closeMenu(false) });

  const { playerId, tickMs } = await welcome;
  const send: Send = (type, data) => room.send(type, data);
  // Chat works as soon as the game is shown, before the world view is ready.
  mountChat(send);
  $("start").hidden = true;
  $("game").hidden = false;
  status("Connected", "connected");
  // Bank, Store and Trade dialogs over the world view (client/src/dialogs).
  mountDialogs({ client, room, content, playerId, token: choice.token, parent: $("world") });

  const stations = new Map(spawnStations(content.registry).map((s) => [s.id, s]));
  const stationDefs = new Map(content.registry.stations.map((s) => [s.type, s]));
  const menuHost: WorldMenuHost = {
    content,
    send,
    player: (id) => room.state.players.get(id),
    entity: (id) => room.state.entities.get(id),
    station: (id) => {
      const s = stations.get(id);
      return s === undefined ? undefined : { type: s.type, name: stationDefs.get(s.type)?.name ?? s.type, examine: stationDefs.get(s.type)?.examine };
    },
    walkTo: (tile) => {
      send("player:move", { x: tile.x, z: tile.z });
      world.showPath(tile);
    },
    approach: (tile, reach) => world.showPath(tile, reach),
    tradeWith: (id, name) => {
      chatLine(`Sending a trade request to ${name}…`, "system");
      requestTrade(id);
    },
    say: (text) => chatLine(text, "system"),
    spell: () => spellbook.selected(),
    spellCast: () => spellbook.select(undefined),
  };
  const spellbook = new SpellbookPanel({ content, send, say: menuHost.say });

  const world = new WorldScene({
    content,
    playerId: () => playerId,
    tickMs: () => tickMs,
    walkTo: (tile) => menuHost.walkTo(tile),
    openTileMenu: (req) => {
      // A spell chosen in the Spellbook: a left click on a monster casts it (a right click still opens the menu).
      const spell = spellbook.selected();
      const target = spell !== undefined && !req.always ? castTarget(menuHost, req.ids) : undefined;
      if (spell !== undefined && target !== undefined) {
        castOn(menuHost, target.id, spell.id, target.at);
        return;
      }
      const items = tileMenu(menuHost, req.ids, req.tile);
      openMenu(items, { label: menuTitle(menuHost, req.ids, req.tile), x: req.pageX, y: req.pageY, returnFocus: game.canvas });
    },
  });
  const game = new Phaser.Game({
    type: Phaser.AUTO,
    parent: "world",
    scale: { mode: Phaser.Scale.RESIZE, width: "100%", height: "100%" },
    // The world's wild land (WorldScene draws areas and obstacles over it): a clear, not a fill.
    backgroundColor: "#3f6b35",
    // The page's keys belong to the page (chat, menus); the world view listens on its canvas only.
    input: { keyboard: false },
    // Measured in headless Chromium's software GPU (bench/client): no MSAA, and a fragment shader
    // that chooses among 4 textures, not every unit there is (200 NPCs: 17 → 45 frames/s).
    render: { antialiasGL: false, maxTextures: 4 },
    scene: [world],
  });
  game.events.once(Phaser.Core.Events.READY, () => {
    game.canvas.setAttribute("aria-label", "Game world");
    game.canvas.setAttribute("role", "application");
    game.canvas.setAttribute("aria-roledescription", "game world; arrow keys move a tile cursor, Enter opens its menu");
  });

  // Scene objects exist only once the scene has run create(); the state callbacks below replay
  // what is already in the state when they are registered.
  await world.ready;
  room.onMessage("error", (e: ServerEvent<"error">) => {
    // A refused walk or action: its path is not walked.
    if (e.event === "player:move" || e.event === "player:action") world.clearPath();
  });
  const $s = Callbacks.get(room);
  $s.onAdd("players", (p: PlayerState, id: string) => {
    const draw = () => world.place(id, playerSprite(p, id === playerId), p.x, p.z);
    draw();
    $s.onChange(p, draw);
  });
  $s.onRemove("players", (_p: PlayerState, id: string) => world.remove(id));
  $s.onAdd("entities", (e: EntityState, id: string) => {
    const draw = () => world.place(id, entitySprite(content, e), e.x, e.z);
    draw();
    $s.onChange(e, draw);
  });
  $s.onRemove("entities", (_e: EntityState, id: string) => world.remove(id));
  // The first frame drawn with the synced world in it (bench/client times navigation to it).
  game.events.once(Phaser.Core.Events.POST_RENDER, () => performance.mark("rsworld:first-world-frame"));

  const nameOf = (id: string) => room.state.players.get(id)?.name ?? room.state.entities.get(id)?.name ?? content.registry.npcs.get(id)?.name;
  showFeedback(room, world, playerId, nameOf);

  const inventory = new InventoryPanel({
    content,
    send,
    useTargets: () => {
      const me = room.state.players.get(playerId);
      if (me === undefined) return [];
      const near = (t: { x: number; z: number }) => chebyshev(me, t) <= USE_ON_RANGE;
      const fires = [...room.state.entities.values()].filter((e) => e.kind === "object" && e.ref === "fire" && near(e)).map((e) => ({ id: e.id, label: `Fire (${e.x}, ${e.z})` }));
      const ranges = [...stations.values()].filter((s) => s.type === "range" && near(s)).map((s) => ({ id: s.id, label: `${stationDefs.get(s.type)?.name ?? "Range"} (${s.x}, ${s.z})` }));
      return [...fires, ...ranges];
    },
  });
  const equipment = new EquipmentPanel(content, send);
  const skills = new SkillsPanel();
  const runToggle = mountRunToggle(send);
  const combat = new CombatPanel(content, send);
  const prayer = new PrayerPanel(content, send, (text) => chatLine(text, "system"));
  mountTabs($("panel-tabs"));

  // The area you stand in: the smallest that holds your tile (a town inside a wider region).
  const areas = [...content.registry.areas].sort((a, b) => size(a.bounds) - size(b.bounds));
  const areaAt = (x: number, z: number) => areas.find((a) => x >= a.bounds.minX && x <= a.bounds.maxX && z >= a.bounds.minZ && z <= a.bounds.maxZ)?.name ?? "";

  // The panels read the local player's synced state after every patch (its owner-only fields,
  // such as the inventory, reach this client only).
  const panels = () => {
    const me = room.state.players.get(playerId);
    if (me === undefined) return;
    const area = areaAt(me.x, me.z);
    if ($("area").textContent !== area) $("area").textContent = area;
    const position = `Position ${me.x}, ${me.z}`;
    if ($("position").textContent !== position) $("position").textContent = position;
    const health = `Health ${me.health} / ${me.maxHealth}`;
    if ($("health").textContent !== health) $("health").textContent = health;
    inventory.render(me);
    equipment.render(me);
    skills.render(me);
    spellbook.render(me);
    runToggle(me);
    combat.render(me);
    prayer.render(me);
  };
  panels();
  room.onStateChange(panels);
}

// The agent dashboard (/agents) is a page of this client too (client/src/dashboard), loaded there only.
if (location.pathname.replace(/\/+$/, "") === "/agents") {
  $("start").hidden = true;
  import("./dashboard/index.ts")
    .then((d) => d.mountDashboard())
    .catch((err: unknown) => (document.body.textContent = `The agent dashboard could not be loaded: ${err instanceof Error ? err.message : String(err)}. Reload the page to try again.`));
} else if (location.pathname.replace(/\/+$/, "") === "/hiscores") {
  $("start").hidden = true;
  void import("./hiscores.ts").then((h) => h.mountHiscores());
} else {
  // The chat form never submits natively (a page load that would end the game): from the start,
  // not only once the chat is mounted.
  $("chat-form").addEventListener("submit", (ev) => ev.preventDefault());
  runStartScreen(play);
}
