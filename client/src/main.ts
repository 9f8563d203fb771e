/**
 * The browser client: a start screen (Play, anonymous), then the world room through the Colyseus
 * SDK, whose state sync drives the world view and the panels. Server event payloads are typed by
 * the server's own table (src/game/serverEvents.ts).
 */
import * as Phaser from "phaser";
import { Callbacks, Client } from "@colyseus/sdk";
import type { ServerEvent } from "../../src/game/serverEvents.ts";
import type { EntityState, PlayerState, WorldState } from "../../schema/WorldState.ts";
import { itemLabel, loadContent, type Content } from "./content.ts";
import { WorldScene, type Sprite } from "./WorldScene.ts";
import "./style.css";

/** Where the anonymous identity's token is kept, so that a reload comes back as the same player. */
const TOKEN_KEY = "rsworld.token";
const INVENTORY_SIZE = 28;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = (text: string, state: string) => {
  const el = $("connection");
  el.textContent = text;
  el.dataset.state = state;
};

function chatLine(text: string, kind: "local" | "system" | "error"): void {
  const li = document.createElement("li");
  li.className = kind;
  li.textContent = text;
  const log = $("chat-log");
  log.append(li);
  while (log.children.length > 100) log.firstElementChild!.remove();
  log.scrollTop = log.scrollHeight;
}

async function join(client: Client) {
  const token = localStorage.getItem(TOKEN_KEY);
  if (token !== null) client.auth.token = token;
  try {
    return await client.joinOrCreate<WorldState>("world");
  } catch (err) {
    // A kept token the server no longer accepts (its secret changed, it expired): start anew.
    if (token === null || (err as { code?: number }).code !== 401) throw err;
    localStorage.removeItem(TOKEN_KEY);
    client.auth.token = undefined as unknown as string;
    return await client.joinOrCreate<WorldState>("world");
  }
}

async function play(): Promise<void> {
  status("Connecting…", "connecting");
  const content = await loadContent();
  const client = new Client(location.origin);
  const room = await join(client);
  // Handlers are registered before anything is awaited, so that no message is missed.
  let welcomed!: (w: ServerEvent<"welcome">) => void;
  const welcome = new Promise<ServerEvent<"welcome">>((resolve) => (welcomed = resolve));
  room.onMessage("welcome", (w: ServerEvent<"welcome">) => {
    if (w.token !== undefined) localStorage.setItem(TOKEN_KEY, w.token);
    chatLine(`Welcome, ${w.name}.`, "system");
    welcomed(w);
  });
  room.onMessage("chat:message", (m: ServerEvent<"chat:message">) => {
    chatLine(m.channel === "system" ? m.message : `${m.fromName}: ${m.message}`, m.channel);
  });
  room.onMessage("error", (e: ServerEvent<"error">) => chatLine(e.message, "error"));
  // Events this screen does not show yet (skills, trade, bank, …) are accepted and ignored.
  room.onMessage("*", () => {});
  room.onDrop(() => status("Connection lost: reconnecting…", "reconnecting"));
  room.onReconnect(() => status("Connected", "connected"));
  room.onLeave((code) => status(`Disconnected (${code})`, "disconnected"));

  const { playerId, tickMs } = await welcome;
  $("start").hidden = true;
  $("game").hidden = false;
  status("Connected", "connected");

  const scene = new WorldScene({
    content,
    playerId: () => playerId,
    tickMs: () => tickMs,
    walkTo: (tile) => room.send("player:move", { x: tile.x, z: tile.z }),
  });
  const game = new Phaser.Game({
    type: Phaser.AUTO,
    parent: "world",
    scale: { mode: Phaser.Scale.RESIZE, width: "100%", height: "100%" },
    backgroundColor: "#1d2b3a",
    scene: [scene],
  });
  game.events.once(Phaser.Core.Events.READY, () => {
    game.canvas.setAttribute("aria-label", "Game world");
    game.canvas.setAttribute("role", "img");
  });

  // Scene objects exist only once the scene has run create(); the state callbacks below replay
  // what is already in the state when they are registered.
  await scene.ready;
  const $s = Callbacks.get(room);
  const playerSprite = (p: PlayerState): Sprite => ({ kind: "player", label: p.name, color: p.id === playerId ? 0x3fa9f5 : 0xf5f5f5 });
  $s.onAdd("players", (p: PlayerState, id: string) => {
    const draw = () => scene.place(id, playerSprite(p), p.x, p.z);
    draw();
    $s.onChange(p, draw);
  });
  $s.onRemove("players", (_p: PlayerState, id: string) => scene.remove(id));
  $s.onAdd("entities", (e: EntityState, id: string) => {
    const draw = () => scene.place(id, entitySprite(content, e), e.x, e.z);
    draw();
    $s.onChange(e, draw);
  });
  $s.onRemove("entities", (_e: EntityState, id: string) => scene.remove(id));

  // The panels read the local player's synced state after every patch (its owner-only fields,
  // such as the inventory, reach this client only).
  const panels = () => {
    const me = room.state.players.get(playerId);
    if (me === undefined) return;
    $("position").textContent = `Position ${me.x}, ${me.z}`;
    renderInventory(content, room, me);
    $("coins").textContent = `Coins: ${me.coins}`;
  };
  panels();
  room.onStateChange(panels);

  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $<HTMLInputElement>("chat-input");
    const message = input.value.trim();
    if (message !== "") room.send("player:chat", { message });
    input.value = "";
  });
}

function entitySprite(content: Content, e: EntityState): Sprite {
  switch (e.kind) {
    case "npc":
      return { kind: "npc", label: e.level > 0 ? `${e.name} (${e.level})` : e.name, color: 0xd9534f };
    case "item":
      return { kind: "item", label: itemLabel(content, e.ref, e.quantity), color: 0xf0c419 };
    case "resource":
      return { kind: "resource", label: content.registry.resources.get(e.ref)?.name ?? e.ref, color: 0x1e8449, depleted: e.depleted };
    default:
      return { kind: e.kind, label: e.name || e.ref, color: 0x8e5b3a };
  }
}

type WorldRoom = Awaited<ReturnType<typeof join>>;

/** 28 slot buttons, kept (so keyboard focus stays) and relabelled when the inventory changes. */
function renderInventory(content: Content, room: WorldRoom, p: PlayerState): void {
  const box = $("inventory-slots");
  if (box.children.length === 0) {
    for (let i = 0; i < INVENTORY_SIZE; i++) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "slot";
      b.dataset.slot = String(i);
      // Use: the server decides what that means for the item (eat, equip, light…).
      b.addEventListener("click", () => {
        if (b.dataset.item !== undefined) room.send("inventory:use", { slot: i });
      });
      box.append(b);
    }
  }
  const bySlot = new Map<number, { itemId: string; quantity: number }>();
  for (const s of p.inventory) bySlot.set(s.slot, s);
  for (let i = 0; i < INVENTORY_SIZE; i++) {
    const b = box.children[i] as HTMLButtonElement;
    const s = bySlot.get(i);
    const label = s === undefined ? "Empty" : itemLabel(content, s.itemId, s.quantity);
    if (b.textContent !== label) b.textContent = label;
    if (s === undefined) delete b.dataset.item;
    else b.dataset.item = s.itemId;
    b.classList.toggle("empty", s === undefined);
  }
}

$("play").addEventListener("click", () => {
  $<HTMLButtonElement>("play").disabled = true;
  play().catch((err: unknown) => {
    $<HTMLButtonElement>("play").disabled = false;
    const text = `Could not join the world: ${err instanceof Error ? err.message : String(err)}`;
    $("start-error").textContent = text;
    chatLine(text, "error");
    status("Offline", "offline");
  });
});
