/**
 * The browser client: the start screen (Play anonymously or sign in, then a character), then the
 * world room through the Colyseus SDK, whose state sync drives the world view and the panels.
 * Server event payloads are typed by the server's own table (src/game/serverEvents.ts), client
 * events by src/game/clientEvents.ts.
 */
import * as Phaser from "phaser";
import { Callbacks, Client } from "@colyseus/sdk";
import type { GameServerDefinition } from "../../src/app.config.ts";
import type { GameClient, WorldRoom } from "./gameRooms.ts";
import { chebyshev } from "../../src/game/map/CollisionMap.ts";
import { sentence } from "../../src/game/sentence.ts";
import type { ServerEvent } from "../../src/game/serverEvents.ts";
import { spawnStations } from "../../src/game/world/spawn.ts";
import type { EntityState, PlayerState } from "../../schema/WorldState.ts";
import { keepConnected, leaveQuietly, status, stopLeavingQuietly } from "./connection.ts";
import { closeMenu, openMenu } from "./contextMenu.ts";
import { areaFinder } from "./areaBanner.ts";
import { itemLabel, loadContent, type Content } from "./content.ts";
import { showFeedback } from "./feedback.ts";
import { chatLine, clearChat, mountChat } from "./panels/chat.ts";
import { EquipmentPanel } from "./panels/equipment.ts";
import { FriendsPanel } from "./panels/friends.ts";
import { InventoryPanel } from "./panels/inventory.ts";
import { SkillsPanel } from "./panels/skills.ts";
import { SpellbookPanel } from "./panels/spellbook.ts";
import { CombatPanel } from "./panels/combat.ts";
import { PrayerPanel } from "./panels/prayer.ts";
import { QuestPanel } from "./panels/quests.ts";
import { mountTabs } from "./panels/tabs.ts";
import { mountRunToggle } from "./runToggle.ts";
import { WorldsPanel } from "./panels/worlds.ts";
import { endSession, keepResume, onSessionEnd } from "./session.ts";
import { entitySprite, playerSprite } from "./sprites.ts";
import { syncDoor } from "./places.ts";
import { runStartScreen, type Choice, type StartScreen } from "./start.ts";
import { castOn, castTarget, menuTitle, tileMenu, topAction, type Send, type WorldMenuHost } from "./worldMenu.ts";
import { WorldScene } from "./WorldScene.ts";
import { renameIn } from "./names.ts";
import { mountDialogs, requestTrade, unmountDialogs } from "./dialogs/index.ts";
import { mountMuteToggle } from "./sounds.ts";
import { mountWorldExtras } from "./worldExtras.ts";
import "./style.css";

/** How far (tiles) an object may be to be offered as a target of "Use … on". */
const USE_ON_RANGE = 15;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

let startScreen: StartScreen | undefined;
let tabs: ReturnType<typeof mountTabs> | undefined;

/** Joins the world as the chosen character (in the chosen world, else the one the server picks). */
async function play(choice: Choice): Promise<void> {
  status("Connecting…", "connecting");
  const content = await loadContent();
  const client: GameClient = new Client<GameServerDefinition>(location.origin);
  client.auth.token = choice.token;
  const room = await client.joinOrCreate("world", { characterId: choice.characterId, ...(choice.world !== undefined ? { world: choice.world } : {}) });
  await run(client, room, content, choice);
}

/**
 * The game on a joined world room. A hop joins the other world first (the server then closes this
 * room: SESSION_REPLACED) and only then ends this session; a refused hop leaves it as it was.
 */
async function run(client: GameClient, room: WorldRoom, content: Content, choice: Choice): Promise<void> {
  // Handlers are registered before anything is awaited, so that no message is missed.
  let welcomed!: (w: ServerEvent<"welcome">) => void;
  const welcome = new Promise<ServerEvent<"welcome">>((resolve) => (welcomed = resolve));
  room.onMessage("welcome", (w: ServerEvent<"welcome">) => {
    chatLine(`Welcome, ${w.name}.`, "system");
    welcomed(w);
  });
  room.onMessage("chat:message", (m: ServerEvent<"chat:message">) => {
    // The server's lines name things as the content does; the client's names are in sentence case (names.ts).
    chatLine(m.channel === "system" ? renameIn(m.message, content.renamed ?? new Map()) : `${m.fromName}: ${m.message}`, m.channel);
  });
  // A hop under way: this room's SESSION_REPLACED is the hop itself, not news.
  let hopping = false;
  room.onMessage("error", (e: ServerEvent<"error">) => {
    if (!(hopping && e.code === "SESSION_REPLACED")) chatLine(renameIn(sentence(e.message), content.renamed ?? new Map()), "error");
  });
  // Events handled elsewhere or not shown (player:sync duplicates the synced state) are accepted.
  room.onMessage("*", () => {});
  // A final disconnection (taken over by another tab, …) is not resumed by the next reload.
  const left = () => {
    closeMenu(false);
    keepResume(undefined);
  };
  keepConnected(room, { reconnected: () => chatLine("Reconnected.", "system"), left });
  // Last of the undoings: a room left behind (a hop's old world) reaches nothing on screen.
  onSessionEnd(() => room.removeAllListeners());

  const { playerId, tickMs, world: worldId } = await welcome;
  keepResume({ characterId: choice.characterId, world: worldId });
  // The payload as never: the SDK cannot resolve it for a name that is a type parameter; Send ties it to the event table.
  const send: Send = (type, data) => room.send(type, data as never);
  // Friends, ignore list and private messages; chat works as soon as the game is shown.
  const friends = new FriendsPanel(room, send);
  new QuestPanel(room, send);
  mountChat(send, () => friends.names());
  $("start").hidden = true;
  $("game").hidden = false;
  $("rejoin").hidden = true;
  status("Connected", "connected");
  // Bank, Store and Trade dialogs over the world view (client/src/dialogs).
  mountDialogs({ client, room, content, playerId, token: choice.token, parent: $("world") });
  onSessionEnd(unmountDialogs);
  onSessionEnd(() => closeMenu(false));
  const worlds = new WorldsPanel({
    current: () => worldId,
    hop: async (to) => {
      // The server closes this room once the other world takes the character (SESSION_REPLACED).
      hopping = true;
      leaveQuietly(room);
      let next: WorldRoom;
      try {
        next = await client.joinOrCreate("world", { characterId: choice.characterId, world: to });
      } catch (err) {
        stopLeavingQuietly(room);
        throw err;
      } finally {
        hopping = false;
      }
      endSession();
      chatLine(`You are now in world ${to}.`, "system");
      await run(client, next, content, { ...choice, world: to });
    },
  });
  worlds.entered();
  void worlds.refresh();
  onSessionEnd(() => worlds.dispose());
  $("logout").onclick = () => void logout(room);
  mountMuteToggle($("logout"));

  const stations = new Map(spawnStations(content.registry).map((s) => [s.id, s]));
  const stationDefs = new Map(content.registry.stations.map((s) => [s.type, s]));
  const menuHost: WorldMenuHost = {
    content,
    send,
    player: (id) => room.state.players.get(id),
    entity: (id) => room.state.entities.get(id),
    station: (id) => {
      const s = stations.get(id);
      return s === undefined
        ? undefined
        : { type: s.type, x: s.x, z: s.z, name: stationDefs.get(s.type)?.name ?? s.type, examine: stationDefs.get(s.type)?.examine };
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
  onSessionEnd(() => spellbook.dispose());

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
      // A left click does the top action (Attack, Chop, Talk to…); a right click opens the menu.
      if (!req.always) {
        topAction(items).run();
        return;
      }
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
  onSessionEnd(() => game.destroy(true));
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
    const draw = () => world.place(id, playerSprite(p, id === playerId, content), p.x, p.z);
    draw();
    $s.onChange(p, draw);
    // What you wear shows on you: your equipment (yours only) changes in patches of its own.
    if (id === playerId) room.onStateChange(draw);
  });
  $s.onRemove("players", (_p: PlayerState, id: string) => world.remove(id));
  $s.onAdd("entities", (e: EntityState, id: string) => {
    const draw = () => {
      syncDoor(content, e);
      world.place(id, entitySprite(content, e), e.x, e.z);
    };
    draw();
    $s.onChange(e, draw);
  });
  $s.onRemove("entities", (_e: EntityState, id: string) => world.remove(id));
  // The first frame drawn with the synced world in it (bench/client times navigation to it).
  game.events.once(Phaser.Core.Events.POST_RENDER, () => performance.mark("rsworld:first-world-frame"));

  // The minimap, the area banner, chat over heads and the sounds (worldExtras.ts).
  onSessionEnd(mountWorldExtras({ room, scene: world, content, playerId, parent: $("world"), walkTo: (tile) => menuHost.walkTo(tile) }));

  const nameOf = (id: string) => {
    const e = room.state.entities.get(id);
    return (
      room.state.players.get(id)?.name ??
      (e?.kind === "npc" ? content.registry.npcs.get(e.ref)?.name : undefined) ??
      e?.name ??
      content.registry.npcs.get(id)?.name
    );
  };
  showFeedback(room, world, playerId, nameOf, (itemId, quantity) => itemLabel(content, itemId, quantity));

  const inventory = new InventoryPanel({
    content,
    send,
    useTargets: () => {
      const me = room.state.players.get(playerId);
      if (me === undefined) return [];
      const near = (t: { x: number; z: number }) => chebyshev(me, t) <= USE_ON_RANGE;
      const fires = [...room.state.entities.values()]
        .filter((e) => e.kind === "object" && e.ref === "fire" && near(e))
        .map((e) => ({ id: e.id, label: `Fire (${e.x}, ${e.z})` }));
      const ranges = [...stations.values()]
        .filter((s) => s.type === "range" && near(s))
        .map((s) => ({ id: s.id, label: `${stationDefs.get(s.type)?.name ?? "Range"} (${s.x}, ${s.z})` }));
      return [...fires, ...ranges];
    },
  });
  const equipment = new EquipmentPanel(content, send);
  const skills = new SkillsPanel();
  const runToggle = mountRunToggle(send);
  const combat = new CombatPanel(content, send);
  const prayer = new PrayerPanel(content, send, (text) => chatLine(text, "system"));
  tabs ??= mountTabs($("panel-tabs"));

  // The area you stand in: the smallest that holds your tile (a town inside a wider region).
  const areaOf = areaFinder(content);
  const areaAt = (x: number, z: number) => areaOf(x, z)?.name ?? "";

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
    .catch(
      (err: unknown) =>
        (document.body.textContent = `The agent dashboard could not be loaded: ${err instanceof Error ? err.message : String(err)}. Reload the page to try again.`),
    );
} else if (location.pathname.replace(/\/+$/, "") === "/hiscores") {
  $("start").hidden = true;
  void import("./hiscores.ts").then((h) => h.mountHiscores());
} else {
  // The chat form never submits natively (a page load that would end the game): from the start,
  // not only once the chat is mounted.
  $("chat-form").addEventListener("submit", (ev) => ev.preventDefault());
  startScreen = runStartScreen(play);
}

/** Logs out (the server saves the character) and goes back to the character screen, without a page load. */
async function logout(room: WorldRoom): Promise<void> {
  leaveQuietly(room);
  keepResume(undefined);
  await room.leave(true).catch(() => {});
  endSession();
  clearChat();
  tabs?.select("Inventory");
  $("game").hidden = true;
  $("start").hidden = false;
  status("Offline", "offline");
  startScreen?.back("You have logged out.");
}
