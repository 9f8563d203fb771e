/**
 * The Bank, Store and Trade dialogs over the world view, wired to the world room: `mountDialogs`
 * once the world is joined; then `talkTo(npcId)` (a banker or a keeper opens their dialog) and
 * `requestTrade(playerId)` for the world view's context menu ("Talk to", "Trade with").
 */
import type { ServerEvent } from "../../../src/game/serverEvents.ts";
import { BankDialog } from "./Bank.ts";
import { DialogueBox } from "./Dialogue.ts";
import { MakeDialog } from "./Make.ts";
import { StoreDialog } from "./Store.ts";
import { TradeDialog } from "./Trade.ts";
import type { DialogHost } from "./host.ts";
import "./dialogs.css";

export type { DialogHost } from "./host.ts";

export interface Dialogs {
  /** Uses an NPC's service (by its instance id, the synced entity's id): a banker or a keeper opens their dialog; anyone else talks. */
  talkTo(npcId: string): void;
  /** Asks another player (by id) to trade. */
  requestTrade(playerId: string): void;
  /** "Make with <item>…": the recipes made anywhere that use the item. */
  makeWith(itemId: string): void;
}

let mounted: (Dialogs & { unmount(): void }) | undefined;

/** Builds the dialogs and hands them the world room's events; a second call replaces the first. */
export function mountDialogs(host: DialogHost): Dialogs {
  mounted?.unmount();
  const bank = new BankDialog(host);
  const store = new StoreDialog(host);
  const trade = new TradeDialog(host);
  const dialogue = new DialogueBox(host);
  const make = new MakeDialog(host);
  // The server blocks banking and buying while a trade is open.
  trade.onTradeStarted = () => {
    bank.close();
    store.close();
  };
  const room = host.room;
  const off = [
    room.onMessage("dialogue:open", (m: ServerEvent<"dialogue:open">) => dialogue.open(m)),
    room.onMessage("dialogue:close", () => dialogue.close()),
    room.onMessage("interface:open", (m: ServerEvent<"interface:open">) => {
      trade.dismissNews();
      dialogue.close();
      if (m.type === "bank") {
        store.close();
        bank.open(m.npcId);
      } else {
        bank.close();
        store.open(m);
      }
    }),
    room.onMessage("store:update", (m: ServerEvent<"store:update">) => store.update(m)),
    room.onMessage("skill:recipes", (m: ServerEvent<"skill:recipes">) => make.recipes(m)),
    room.onMessage("skill:makeProgress", (m: ServerEvent<"skill:makeProgress">) => make.progressed(m)),
    room.onMessage("skill:makeStopped", (m: ServerEvent<"skill:makeStopped">) => make.stopped(m)),
    room.onMessage("error", (e: ServerEvent<"error">) => {
      if (e.event === "bank:deposit" || e.event === "bank:withdraw") bank.refused(e.code, e.message);
      else if (e.event === "store:buy" || e.event === "store:sell") store.refused(e.code, e.message);
      else if (e.event?.startsWith("trade")) trade.refused(e.code, e.message);
      else if (e.event === "dialogue:choose") dialogue.refused(e.message);
      else if (e.event === "skill:make") make.refused(e.message);
    }),
  ];
  const render = () => {
    bank.render();
    store.render();
    trade.render();
  };
  room.onStateChange(render);
  const dialogs: Dialogs = {
    talkTo: (npcId) => room.send("player:action", { action: "interact", targetId: npcId }),
    requestTrade: (playerId) => trade.request(playerId),
    makeWith: (itemId) => make.openFor(itemId),
  };
  mounted = {
    ...dialogs,
    unmount() {
      for (const f of off) f();
      trade.dispose();
      dialogue.dispose();
      room.onStateChange.remove(render);
      for (const d of Array.from(host.parent.querySelectorAll(":scope > dialog.game-dialog"))) d.remove();
    },
  };
  return dialogs;
}

/** Removes the dialogs (the session ended: a logout, a hop). */
export function unmountDialogs(): void {
  mounted?.unmount();
  mounted = undefined;
}

/** Talks to an NPC once the dialogs are mounted (a no-op before). */
export function talkTo(npcId: string): void {
  mounted?.talkTo(npcId);
}

/** Opens the Make dialog for an inventory item once the dialogs are mounted (a no-op before). */
export function makeWith(itemId: string): void {
  mounted?.makeWith(itemId);
}

/** Asks a player to trade once the dialogs are mounted (a no-op before). */
export function requestTrade(playerId: string): void {
  mounted?.requestTrade(playerId);
}
