/**
 * The Trade dialog, as PROTOCOL.md's trade section runs a trade for a Colyseus client:
 *
 * - On the world room: `tradeRequest` and `tradeRequestRespond` go out; `tradeIncoming`,
 *   `tradeStarted`, `tradeUpdated`, `tradeConfirmScreen`, `tradeCompleted`, `tradeCancelled` and
 *   `tradeError` come in (the server sends every trade event to the player's connection).
 * - On `tradeStarted` the client takes its seat in the `trade` room whose id is the trade id
 *   (`client.joinById(tradeId)`): the room's synced state holds both offers, both acceptances and
 *   the screen (offer, confirm, committing), and the offer commands (`tradeAddItem`,
 *   `tradeSetCoins`, `tradeRemoveItem`, `tradeAccept`, `tradeCancel`) go to it. The server makes the room as the
 *   trade starts, so the first join may come too early and is tried again; should the seat never be
 *   taken, the same commands go through the world room, which takes them too.
 *
 * Screens: an incoming request (Accept, Decline); waiting for an answer (Cancel); the offers (add
 * from the inventory and take back by slot with the chosen quantity, an amount of coins, each
 * side's acceptance, Accept, Cancel); the confirmation with the offers' values (Accept, Cancel); the
 * received items and coins once the swap is stored; and why a trade ended or a command was refused,
 * in words. The model and its rules are in tradeState.ts, the words in tradeText.ts.
 *
 * An accept names the screen it accepts (`tradeAccept {screen}`: the server refuses it once the
 * trade has left that screen, TRADE_SCREEN_CHANGED), and Accept stays disabled from the click until
 * the server's answer, so a double click or Enter twice on the offer screen cannot accept the
 * confirmation screen too. A new confirmation screen keeps Accept disabled until its values are in
 * (the seat's state may say `confirm` before `tradeConfirmScreen` arrives) and does not put the
 * focus on Accept.
 */
import { ErrorCode } from "@colyseus/sdk";
import type { ClientEvent } from "../../../src/game/clientEvents.ts";
import type { ServerEvent } from "../../../src/game/serverEvents.ts";
import type { TradeState } from "../../../schema/TradeState.ts";
import type { TradeRoomType, TradeSeat } from "../gameRooms.ts";
import { Dialog, QuantityPicker, tradeErrorText } from "./dialog.ts";
import { me, type DialogHost } from "./host.ts";
import { TradeScreens } from "./tradeScreen.ts";
import { acceptable, emptyOffer, offeredFrom, offerOf, offersKey, type Offer, type Screen, type Session, type View } from "./tradeState.ts";
import { cancelText } from "./tradeText.ts";

/** The commands of an open trade, sent to its room once seated. */
type TradeCommand = "tradeAddItem" | "tradeSetCoins" | "tradeRemoveItem" | "tradeAccept" | "tradeCancel";

const SEAT_TRIES = 30;
const SEAT_RETRY_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class TradeDialog {
  private readonly host: DialogHost;
  private readonly dialog: Dialog;
  private view: View = { kind: "closed" };
  private session: Session | undefined;
  /** Requests to this player not answered yet, oldest first. */
  private readonly incoming: ServerEvent<"tradeIncoming">[] = [];
  /** Requests this player answered: their `tradeCancelled` (declined) needs no words. */
  private readonly answered = new Set<string>();
  /** A partner whose request this player stopped waiting for: a trade they still open is cancelled. */
  private withdrawn: string | undefined;
  /** What the open view was built for, so updates keep its elements (and the focus) when it is the same. */
  private built = "";
  private quantity = new QuantityPicker([1, 5, "All", "X"]);
  /** The view's elements. */
  private readonly screens: TradeScreens;
  /** Called when a trade starts (the other dialogs close: the server blocks them during a trade). */
  onTradeStarted: () => void = () => {};
  private readonly off: (() => void)[];

  constructor(host: DialogHost) {
    this.host = host;
    this.dialog = new Dialog(host.parent, "Trade", () => this.escape());
    this.screens = new TradeScreens(host, {
      respond: (accept) => this.respond(accept),
      stopWaiting: () => this.stopWaiting(),
      close: () => this.closeOrPrompt(),
      accept: () => this.accept(),
      cancel: () => this.cancel(),
      offer: (slot) => this.offer(slot),
      takeBack: (tradeSlot) => this.takeBack(tradeSlot),
      offerCoins: () => this.offerCoins(),
    });
    const room = host.room;
    this.off = [
      room.onMessage("tradeIncoming", (m: ServerEvent<"tradeIncoming">) => this.onIncoming(m)),
      room.onMessage("tradeStarted", (m: ServerEvent<"tradeStarted">) => this.onStarted(m)),
      room.onMessage("tradeUpdated", (m: ServerEvent<"tradeUpdated">) => this.onOffers(m.tradeId, m.myOffer, m.theirOffer)),
      room.onMessage("tradeConfirmScreen", (m: ServerEvent<"tradeConfirmScreen">) => {
        const s = this.session;
        if (s?.tradeId !== m.tradeId) return;
        s.screen = "confirm";
        s.values = m.values;
        s.mine = m.myOffer;
        s.theirs = m.theirOffer;
        s.valuedOffers = offersKey(s);
        s.acceptSent = undefined;
        this.render();
      }),
      room.onMessage("tradeCompleted", (m: ServerEvent<"tradeCompleted">) => this.onCompleted(m)),
      room.onMessage("tradeCancelled", (m: ServerEvent<"tradeCancelled">) => this.onCancelled(m)),
      room.onMessage("tradeError", (m: ServerEvent<"tradeError">) => this.onError(m)),
    ];
  }

  /** Stops listening to the world room (the dialogs are being replaced). */
  dispose(): void {
    for (const f of this.off) f();
    this.endSession();
  }

  // ---- what other parts of the client call -------------------------------------------------

  /** Asks another player to trade (the world view's "Trade with" calls this with a player id). */
  request(playerId: string): void {
    if (this.session !== undefined) {
      this.show();
      this.dialog.say("You are already trading.");
      return;
    }
    const partnerName = this.host.room.state.players.get(playerId)?.name || "that player";
    this.withdrawn = undefined;
    this.setView({ kind: "requesting", partnerId: playerId, partnerName });
    this.host.room.send("tradeRequest", { targetPlayerId: playerId });
  }

  /** Closes the dialog when it only tells how a trade ended (another dialog is opening). */
  dismissNews(): void {
    if (this.view.kind === "done" || this.view.kind === "ended") this.closeOrPrompt();
  }

  /** A refusal from the world room that answers a trade command (a malformed or too frequent one). */
  refused(code: string, message: string): void {
    this.acceptAnswered();
    this.notify(tradeErrorText(code, message));
  }

  /** After every world state patch: the inventory shown beside the offers follows it. */
  render(): void {
    if (this.view.kind === "trade") this.update();
  }

  // ---- server events -------------------------------------------------------------------------

  private onIncoming(m: ServerEvent<"tradeIncoming">): void {
    this.incoming.push(m);
    if (this.view.kind === "closed" || this.view.kind === "done" || this.view.kind === "ended") this.nextPrompt();
  }

  private onStarted(m: ServerEvent<"tradeStarted">): void {
    // A trade this side stopped waiting for: it is cancelled at once.
    if (this.withdrawn === m.partnerId && this.view.kind !== "requesting") {
      this.withdrawn = undefined;
      this.host.room.send("tradeCancel", { tradeId: m.tradeId });
      return;
    }
    this.session = {
      tradeId: m.tradeId,
      partnerId: m.partnerId,
      partnerName: m.partnerName,
      screen: "offer",
      mine: emptyOffer(),
      theirs: emptyOffer(),
      values: undefined,
      valuedOffers: undefined,
      acceptSent: undefined,
      seat: undefined,
      seatless: false,
      cancelling: false,
    };
    // Requests to this player made while it was free are void now (the server refuses them).
    this.incoming.length = 0;
    this.quantity = new QuantityPicker([1, 5, "All", "X"]);
    this.onTradeStarted();
    this.setView({ kind: "trade" });
    void this.takeSeat(m.tradeId);
  }

  private onOffers(tradeId: string, mine: Offer, theirs: Offer): void {
    const s = this.session;
    if (s?.tradeId !== tradeId) return;
    s.mine = mine;
    s.theirs = theirs;
    // The server answers an accept with this (or tradeConfirmScreen, or a tradeError). An update of
    // an earlier change may come first and re-enable Accept early: the server then refuses an accept
    // of a screen the trade has left.
    s.acceptSent = undefined;
    // Nobody's acceptance: the offers changed (or never were accepted), so any values are of
    // other offers. (The world room's events come in order: a later tradeConfirmScreen sets new ones.)
    if (!mine.accepted && !theirs.accepted) s.values = undefined;
    // Without the room's screen: a change on the confirmation screen clears both acceptances and
    // goes back to the offers (an acceptance there sets one; the confirmation itself comes as
    // tradeConfirmScreen, with both cleared).
    if (s.seat === undefined && s.screen === "confirm" && !mine.accepted && !theirs.accepted) s.screen = "offer";
    this.render();
  }

  private onCompleted(m: ServerEvent<"tradeCompleted">): void {
    const s = this.session;
    if (s?.tradeId !== m.tradeId) return;
    this.endSession();
    this.setView({ kind: "done", partnerName: s.partnerName, received: m.receivedItems, coins: m.receivedCoins });
  }

  private onCancelled(m: ServerEvent<"tradeCancelled">): void {
    const s = this.session;
    if (s?.tradeId === m.tradeId) {
      this.endSession();
      if (s.cancelling) this.closeOrPrompt();
      else this.setView({ kind: "ended", message: cancelText(m.reason, s.partnerName, "trade") });
      return;
    }
    const i = this.incoming.findIndex((r) => r.tradeId === m.tradeId);
    if (i >= 0) {
      const [request] = this.incoming.splice(i, 1);
      if (this.view.kind === "incoming" && this.view.request.tradeId === m.tradeId) {
        this.setView({ kind: "ended", message: cancelText(m.reason, request!.fromPlayerName, "their request") });
      }
      return;
    }
    if (this.answered.delete(m.tradeId)) return;
    // The answer to this side's own request (whose id only the asked player learns).
    if (this.view.kind === "requesting") this.setView({ kind: "ended", message: cancelText(m.reason, this.view.partnerName, "my request") });
  }

  private onError(m: ServerEvent<"tradeError">): void {
    if (m.tradeId === undefined || m.tradeId === this.session?.tradeId) this.acceptAnswered();
    const text = tradeErrorText(m.code, m.message);
    // A request that could not be made, or an answer that could not start the trade.
    if (this.session === undefined && (this.view.kind === "requesting" || this.view.kind === "accepting")) {
      this.setView({ kind: "ended", message: text });
      return;
    }
    this.notify(text);
  }

  // ---- the seat in the trade room ------------------------------------------------------------

  private async takeSeat(tradeId: string): Promise<void> {
    const client = this.host.client;
    if (!client.auth.token && this.host.token !== undefined) client.auth.token = this.host.token;
    for (let attempt = 0; attempt < SEAT_TRIES; attempt++) {
      if (this.session?.tradeId !== tradeId) return;
      try {
        const seat = await client.joinById<TradeRoomType>(tradeId);
        if (this.session?.tradeId !== tradeId) {
          void seat.leave();
          return;
        }
        this.attach(this.session, seat);
        return;
      } catch (err) {
        // The room is made as the trade starts and may not be listed yet (or the request did not
        // get through); any other refusal (not a participant, a seat already taken) is final.
        const code = (err as { code?: unknown }).code;
        if (code !== undefined && code !== ErrorCode.MATCHMAKE_INVALID_ROOM_ID) break;
        await sleep(SEAT_RETRY_MS);
      }
    }
    if (this.session?.tradeId !== tradeId) return;
    this.session.seatless = true;
    this.render();
  }

  private attach(s: Session, seat: TradeSeat): void {
    s.seat = seat;
    seat.onMessage("error", (e: ServerEvent<"error">) => {
      this.acceptAnswered();
      this.notify(tradeErrorText(e.code, e.message));
    });
    seat.onMessage("*", () => {});
    seat.onLeave(() => {
      if (s.seat === seat) s.seat = undefined;
    });
    const fromState = (state: TradeState) => {
      if (this.session !== s || state.tradeId !== s.tradeId) return;
      const mine = state.a.playerId === this.host.playerId ? state.a : state.b;
      const theirs = mine === state.a ? state.b : state.a;
      s.mine = offerOf(mine);
      s.theirs = offerOf(theirs);
      const screen = state.screen as Screen;
      // The accept in flight is answered once the state shows it (this side accepted, or the screen
      // moved on); a patch of an earlier change leaves it in flight. (The values are not cleared
      // here: this state may lag behind the world room's newer tradeConfirmScreen.)
      if (s.acceptSent !== undefined && (s.mine.accepted || screen !== s.acceptSent)) s.acceptSent = undefined;
      s.screen = screen;
      this.render();
    };
    seat.onStateChange(fromState);
    if (seat.state !== undefined) fromState(seat.state);
  }

  /** A trade command: to the trade room once seated (as the server intends), else to the world room. */
  private send<K extends TradeCommand>(type: K, data: Omit<ClientEvent<K>, "tradeId">): void {
    const s = this.session;
    if (s === undefined) return;
    this.dialog.say("");
    // A seat whose connection is closing (the server closes the room as the trade ends; its leave
    // comes after the close) takes nothing more: the world room takes trade commands too.
    const seat = s.seat?.connection.isOpen ? s.seat : undefined;
    // The SDK cannot resolve the payload type of a name that is still a type parameter; this
    // method's signature ties it to the event table.
    const message = { ...data, tradeId: s.tradeId } as never;
    if (seat !== undefined) seat.send(type, message);
    else this.host.room.send(type, message);
  }

  /** Accepts the screen shown, once: Accept is disabled until the server answers. */
  private accept(): void {
    const s = this.session;
    if (s === undefined || !acceptable(s)) return;
    s.acceptSent = s.screen;
    this.send("tradeAccept", { screen: s.screen });
    this.render();
  }

  /** The server answered this side's trade command (a refusal): an accept in flight is over. */
  private acceptAnswered(): void {
    const s = this.session;
    if (s === undefined || s.acceptSent === undefined) return;
    s.acceptSent = undefined;
    this.render();
  }

  private endSession(): void {
    const seat = this.session?.seat;
    this.session = undefined;
    // The server closes the room as the trade ends; leaving first is harmless, and once its close
    // has come (before the SDK's leave, which follows the close handshake) there is nothing to leave:
    // a send on a closing WebSocket is an error in the browser.
    if (seat !== undefined && seat.connection.isOpen) void seat.leave().catch(() => {});
  }

  // ---- the dialog ----------------------------------------------------------------------------

  private escape(): void {
    switch (this.view.kind) {
      case "incoming":
        return this.respond(false);
      case "requesting":
        return this.stopWaiting();
      case "trade":
        return this.cancel();
      default:
        return this.closeOrPrompt();
    }
  }

  private respond(accept: boolean): void {
    if (this.view.kind !== "incoming") return;
    const { request } = this.view;
    this.incoming.splice(this.incoming.indexOf(request), 1);
    this.answered.add(request.tradeId);
    this.host.room.send("tradeRequestRespond", { tradeId: request.tradeId, accept });
    if (accept) this.setView({ kind: "accepting", partnerName: request.fromPlayerName });
    else this.closeOrPrompt();
  }

  private stopWaiting(): void {
    if (this.view.kind !== "requesting") return;
    // There is no withdrawal in the protocol: the request expires by itself; if it is accepted
    // meanwhile, the trade that starts is cancelled.
    this.withdrawn = this.view.partnerId;
    this.closeOrPrompt();
  }

  private cancel(): void {
    const s = this.session;
    if (s === undefined || s.screen === "committing") return;
    this.send("tradeCancel", {});
    s.cancelling = true;
    this.closeOrPrompt();
  }

  private closeOrPrompt(): void {
    if (this.incoming.length > 0 && this.session === undefined) this.nextPrompt();
    else this.setView({ kind: "closed" });
  }

  private nextPrompt(): void {
    const request = this.incoming[0];
    if (request !== undefined) this.setView({ kind: "incoming", request });
  }

  private show(): void {
    this.dialog.show();
  }

  /** A refusal or news for the open dialog (opened for it when closed). */
  private notify(text: string): void {
    if (!this.dialog.isOpen) this.setView({ kind: "ended", message: text });
    else this.dialog.say(text);
  }

  private setView(view: View): void {
    this.view = view;
    this.built = "";
    this.dialog.say("");
    if (view.kind === "closed") {
      this.screens.parts = undefined;
      this.dialog.body.replaceChildren();
      this.dialog.hide();
      return;
    }
    this.update();
    this.dialog.show();
    this.dialog.focusFirst();
  }

  /** Builds the view's elements when it changed, then brings them up to date. */
  private update(): void {
    const view = this.view;
    const s = this.session;
    // The confirmation screen stays built while the swap is stored (committing): the focus stays.
    const key = view.kind === "trade" ? `trade:${s?.tradeId}:${s?.screen === "offer" ? "offer" : "confirm"}` : view.kind;
    const rebuilt = key !== this.built;
    if (rebuilt) {
      this.built = key;
      this.screens.parts = undefined;
      this.dialog.body.replaceChildren(...this.screens.build(view, s, this.quantity));
    }
    if (view.kind === "trade" && s !== undefined) this.screens.fill(s);
    // A new screen of the same trade: the offers' focus goes to its first control; the confirmation's
    // to its heading, never to Accept (a key pressed twice must not accept what was not seen).
    if (rebuilt && view.kind === "trade" && this.dialog.isOpen) {
      if (this.screens.parts?.lead !== undefined) this.screens.parts.lead.focus();
      else this.dialog.focusFirst();
    }
  }

  private offer(inventorySlot: number): void {
    const s = this.session;
    const slot = me(this.host)?.inventory.find((o) => o.slot === inventorySlot);
    if (s === undefined || slot === undefined) return;
    const left = slot.quantity - offeredFrom(s.mine, inventorySlot);
    if (left < 1) return;
    const quantity = this.quantity.quantity(left);
    if (typeof quantity === "string") return this.dialog.say(quantity);
    this.send("tradeAddItem", { inventorySlot, quantity });
  }

  /** Sets the offer's coins to the amount typed (the server refuses more than carried). */
  private offerCoins(): void {
    const s = this.session;
    const input = this.screens.parts?.coinsInput;
    if (s === undefined || input === undefined) return;
    const amount = Number(input.value.trim() === "" ? "0" : input.value);
    if (!Number.isSafeInteger(amount) || amount < 0 || amount > 2_147_483_647) return this.dialog.say("Type a whole number of coins, 0 or more.");
    this.send("tradeSetCoins", { amount });
  }

  private takeBack(tradeSlot: number): void {
    const s = this.session;
    const entry = s?.mine.items.find((i) => i.tradeSlot === tradeSlot);
    if (s === undefined || entry === undefined) return;
    const quantity = this.quantity.quantity(entry.quantity);
    if (typeof quantity === "string") return this.dialog.say(quantity);
    // The whole entry: no quantity (the protocol's "all").
    this.send("tradeRemoveItem", quantity >= entry.quantity ? { tradeSlot } : { tradeSlot, quantity });
  }
}
