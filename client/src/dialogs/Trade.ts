/**
 * The Trade dialog, as PROTOCOL.md's trade section runs a trade for a Colyseus client:
 *
 * - On the world room: `tradeRequest` and `tradeRequestRespond` go out; `tradeIncoming`,
 *   `tradeStarted`, `tradeUpdated`, `tradeConfirmScreen`, `tradeCompleted`, `tradeCancelled` and
 *   `tradeError` come in (the server sends every trade event to the player's connection).
 * - On `tradeStarted` the client takes its seat in the `trade` room whose id is the trade id
 *   (`client.joinById(tradeId)`): the room's synced state holds both offers, both acceptances and
 *   the screen (offer, confirm, committing), and the offer commands (`tradeAddItem`,
 *   `tradeRemoveItem`, `tradeAccept`, `tradeCancel`) go to it. The server makes the room as the
 *   trade starts, so the first join may come too early and is tried again; should the seat never be
 *   taken, the same commands go through the world room, which takes them too.
 *
 * Screens: an incoming request (Accept, Decline); waiting for an answer (Cancel); the offers (add
 * from the inventory and take back by slot with the chosen quantity, each side's acceptance,
 * Accept, Cancel); the confirmation with the offers' values (Accept, Cancel); the received items
 * once the swap is stored; and why a trade ended or a command was refused, in words.
 *
 * An accept names the screen it accepts (`tradeAccept {screen}`: the server refuses it once the
 * trade has left that screen, TRADE_SCREEN_CHANGED), and Accept stays disabled from the click until
 * the server's answer, so a double click or Enter twice on the offer screen cannot accept the
 * confirmation screen too. A new confirmation screen keeps Accept disabled until its values are in
 * (the seat's state may say `confirm` before `tradeConfirmScreen` arrives) and does not put the
 * focus on Accept.
 */
import { ErrorCode, type Room } from "@colyseus/sdk";
import type { ServerEvent } from "../../../src/game/serverEvents.ts";
import type { TradeSideState, TradeState } from "../../../schema/TradeState.ts";
import { itemLabel } from "../content.ts";
import { button, Dialog, group, QuantityPicker, syncButtons, tradeErrorText } from "./dialog.ts";
import { inventorySlots, me, type DialogHost } from "./host.ts";

interface OfferItem {
  tradeSlot: number;
  inventorySlot: number;
  itemId: string;
  quantity: number;
}
interface Offer {
  items: OfferItem[];
  accepted: boolean;
}
type Values = ServerEvent<"tradeConfirmScreen">["values"];
type CancelReason = ServerEvent<"tradeCancelled">["reason"];
type Screen = "offer" | "confirm" | "committing";

interface Session {
  tradeId: string;
  partnerId: string;
  partnerName: string;
  screen: Screen;
  mine: Offer;
  theirs: Offer;
  values: Values | undefined;
  /** The offers `values` were computed for (offersKey): values of other offers are not shown. */
  valuedOffers: string | undefined;
  /** The screen of an accept sent and not answered yet (Accept is disabled meanwhile). */
  acceptSent: Screen | undefined;
  /** The seat in the trade room, once taken. */
  seat: Room<unknown, TradeState> | undefined;
  /** Whether the seat could not be taken (the commands then go through the world room). */
  seatless: boolean;
  /** This side cancelled: the dialog is already closed, the server's answer is awaited. */
  cancelling: boolean;
}

/** What the dialog shows (the open trade itself is `session`). */
type View =
  | { kind: "closed" }
  | { kind: "incoming"; request: ServerEvent<"tradeIncoming"> }
  | { kind: "accepting"; partnerName: string }
  | { kind: "requesting"; partnerId: string; partnerName: string }
  | { kind: "trade" }
  | { kind: "done"; partnerName: string; received: { itemId: string; quantity: number }[] }
  | { kind: "ended"; message: string };

const SEAT_TRIES = 30;
const SEAT_RETRY_MS = 100;
const emptyOffer = (): Offer => ({ items: [], accepted: false });
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
  private parts:
    | { mine: ReturnType<typeof group>; theirs: ReturnType<typeof group>; inventory: ReturnType<typeof group>; status: HTMLElement; values?: HTMLElement; lead?: HTMLElement; accept?: HTMLButtonElement }
    | undefined;
  /** Called when a trade starts (the other dialogs close: the server blocks them during a trade). */
  onTradeStarted: () => void = () => {};
  private readonly off: (() => void)[];

  constructor(host: DialogHost) {
    this.host = host;
    this.dialog = new Dialog(host.parent, "Trade", () => this.escape());
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
    this.setView({ kind: "done", partnerName: s.partnerName, received: m.receivedItems });
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
        const seat = await client.joinById<TradeState>(tradeId);
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

  private attach(s: Session, seat: Room<unknown, TradeState>): void {
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
  private send(type: "tradeAddItem" | "tradeRemoveItem" | "tradeAccept" | "tradeCancel", data: Record<string, unknown>): void {
    const s = this.session;
    if (s === undefined) return;
    this.dialog.say("");
    // A seat whose connection is closing (the server closes the room as the trade ends; its leave
    // comes after the close) takes nothing more: the world room takes trade commands too.
    const seat = s.seat?.connection.isOpen ? s.seat : undefined;
    (seat ?? this.host.room).send(type, { tradeId: s.tradeId, ...data });
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
      this.parts = undefined;
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
      this.parts = undefined;
      this.dialog.body.replaceChildren(...this.build(view));
    }
    if (view.kind === "trade" && s !== undefined) this.fill(s);
    // A new screen of the same trade: the offers' focus goes to its first control; the confirmation's
    // to its heading, never to Accept (a key pressed twice must not accept what was not seen).
    if (rebuilt && view.kind === "trade" && this.dialog.isOpen) {
      if (this.parts?.lead !== undefined) this.parts.lead.focus();
      else this.dialog.focusFirst();
    }
  }

  private build(view: View): HTMLElement[] {
    const p = (text: string, className?: string) => {
      const el = document.createElement("p");
      el.textContent = text;
      if (className !== undefined) el.className = className;
      return el;
    };
    const actions = (...buttons: HTMLButtonElement[]) => {
      const el = document.createElement("div");
      el.className = "dialog-actions";
      el.append(...buttons);
      return el;
    };
    switch (view.kind) {
      case "closed":
        return [];
      case "incoming":
        return [p(`${view.request.fromPlayerName} wants to trade with you.`, "lead"), actions(button("Accept", () => this.respond(true)), button("Decline", () => this.respond(false)))];
      case "accepting":
        return [p(`Opening the trade with ${view.partnerName}…`, "lead")];
      case "requesting":
        return [p(`Asking ${view.partnerName} to trade…`, "lead"), p("The request lasts 30 seconds.", "hint"), actions(button("Cancel", () => this.stopWaiting()))];
      case "done": {
        const list = document.createElement("ul");
        list.className = "received";
        for (const r of view.received) {
          const li = document.createElement("li");
          li.textContent = itemLabel(this.host.content, r.itemId, r.quantity);
          list.append(li);
        }
        const got = view.received.length === 0 ? [p("You received nothing.")] : [p("You received:"), list];
        return [p(`Trade with ${view.partnerName} completed.`, "lead"), ...got, actions(button("Close", () => this.closeOrPrompt()))];
      }
      case "ended":
        return [p(view.message, "lead"), actions(button("Close", () => this.closeOrPrompt()))];
      case "trade":
        return this.buildTrade(p, actions);
    }
  }

  private buildTrade(p: (text: string, className?: string) => HTMLParagraphElement, actions: (...b: HTMLButtonElement[]) => HTMLElement): HTMLElement[] {
    const s = this.session!;
    const confirm = s.screen !== "offer";
    const mine = group(confirm ? "You give" : "Your offer", "offer offer-mine");
    const theirs = group(confirm ? "You receive" : `${s.partnerName}'s offer`, "offer offer-theirs");
    const inventory = group("Offer from your inventory", "inventory-items");
    mine.empty.textContent = "Nothing offered.";
    theirs.empty.textContent = "Nothing offered.";
    inventory.empty.textContent = "Nothing left to offer.";
    const status = p("", "status");
    status.setAttribute("aria-live", "polite");
    const offers = document.createElement("div");
    offers.className = "columns";
    offers.append(mine.el, theirs.el);
    const accept = button("Accept", () => this.accept(), "accept");
    const cancel = button("Cancel", () => this.cancel());
    this.parts = { mine, theirs, inventory, status, accept };
    if (!confirm) {
      return [p(`Trading with ${s.partnerName}. Choose a quantity, then an item: an inventory item is offered, an offered one taken back.`, "hint"), this.quantity.el, offers, inventory.el, status, actions(accept, cancel)];
    }
    const values = p("", "values");
    this.parts.values = values;
    // Focused when the screen opens (update()): read out first, and Enter on it accepts nothing.
    const lead = p(`Check the trade with ${s.partnerName} once more: accepting now exchanges these items.`, "lead");
    lead.tabIndex = -1;
    this.parts.lead = lead;
    return [lead, offers, values, status, actions(accept, cancel)];
  }

  /** Brings the open trade's lists, acceptances and values up to date. */
  private fill(s: Session): void {
    const parts = this.parts;
    if (parts === undefined) return;
    const content = this.host.content;
    const committing = s.screen === "committing";
    const editable = s.screen === "offer";
    const offerRows = (o: Offer) => o.items.map((i) => ({ key: String(i.tradeSlot), text: itemLabel(content, i.itemId, i.quantity) }));
    // Your offer's items are pressed to take them back (on the offer screen); the partner's are to read.
    if (editable) syncButtons(parts.mine.list, offerRows(s.mine), (tradeSlot) => this.takeBack(Number(tradeSlot)));
    else syncList(parts.mine.list, s.mine.items.map((i) => itemLabel(content, i.itemId, i.quantity)));
    syncList(parts.theirs.list, s.theirs.items.map((i) => itemLabel(content, i.itemId, i.quantity)));
    parts.mine.empty.hidden = s.mine.items.length > 0;
    parts.theirs.empty.hidden = s.theirs.items.length > 0;
    if (editable) {
      const p = me(this.host);
      const rows = p === undefined ? [] : inventorySlots(p).flatMap((slot) => {
        const left = slot.quantity - offeredFrom(s.mine, slot.slot);
        return left > 0 ? [{ key: String(slot.slot), text: itemLabel(content, slot.itemId, left) }] : [];
      });
      syncButtons(parts.inventory.list, rows, (slot) => this.offer(Number(slot)));
      parts.inventory.empty.hidden = rows.length > 0;
    }
    if (parts.values !== undefined) parts.values.textContent = valuesText(valued(s), s.partnerName);
    const status = committing
      ? "Both accepted: completing the trade…"
      : [s.mine.accepted ? "You have accepted." : "You have not accepted yet.", s.theirs.accepted ? `${s.partnerName} has accepted.` : `${s.partnerName} has not accepted yet.`].join(" ") +
        (s.seat === undefined && !s.seatless ? " Joining the trade…" : "");
    if (parts.status.textContent !== status) parts.status.textContent = status;
    if (parts.accept !== undefined) {
      parts.accept.disabled = !acceptable(s);
      parts.accept.setAttribute("aria-pressed", String(s.mine.accepted));
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

/** Both offers' items, to tell whether values were computed for the offers shown. */
function offersKey(s: Session): string {
  const items = (o: Offer) => o.items.map((i) => `${i.tradeSlot}:${i.itemId}:${i.quantity}`).join(",");
  return `${items(s.mine)}|${items(s.theirs)}`;
}

/** The values of the offers shown, once they are in. */
function valued(s: Session): Values | undefined {
  return s.values !== undefined && s.valuedOffers === offersKey(s) ? s.values : undefined;
}

/** Whether Accept may be pressed: no accept in flight, not being stored, and a confirmation only with its values. */
function acceptable(s: Session): boolean {
  if (s.acceptSent !== undefined || s.screen === "committing") return false;
  return s.screen === "offer" || valued(s) !== undefined;
}

function offerOf(side: TradeSideState): Offer {
  return {
    items: [...side.items].map((i) => ({ tradeSlot: i.tradeSlot, inventorySlot: i.inventorySlot, itemId: i.itemId, quantity: i.quantity })),
    accepted: side.accepted,
  };
}

function offeredFrom(offer: Offer, inventorySlot: number): number {
  return offer.items.reduce((n, i) => n + (i.inventorySlot === inventorySlot ? i.quantity : 0), 0);
}

/** Keeps a read-only list's items equal to `labels`. */
function syncList(list: HTMLElement, labels: string[]): void {
  let ul = list.querySelector("ul");
  if (ul === null) {
    ul = document.createElement("ul");
    list.append(ul);
  }
  const same = ul.children.length === labels.length && labels.every((l, i) => ul!.children[i]!.textContent === l);
  if (same) return;
  ul.replaceChildren(
    ...labels.map((l) => {
      const li = document.createElement("li");
      li.textContent = l;
      return li;
    }),
  );
}

const coins = (n: number) => `${n.toLocaleString("en")} ${Math.abs(n) === 1 ? "coin" : "coins"}`;

function valuesText(values: Values | undefined, partner: string): string {
  if (values === undefined) return "Valuing the offers…";
  const net = values.net > 0 ? `you would gain ${coins(values.net)} of value` : values.net < 0 ? `you would lose ${coins(-values.net)} of value` : "an even trade";
  return `Your offer is worth ${coins(values.myOfferValue)} and ${partner}'s ${coins(values.theirOfferValue)}: ${net}.`;
}

/** Why a trade or a request ended, in words. */
function cancelText(reason: CancelReason, partner: string, what: "trade" | "my request" | "their request"): string {
  switch (reason) {
    case "declined":
      return `${partner} declined your trade request.`;
    case "cancelled":
      return what === "trade" ? `${partner} cancelled the trade.` : "The trade request was withdrawn.";
    case "disconnected":
      return `${partner} left the world, so the ${what === "trade" ? "trade" : "request"} ended.`;
    case "moved_away":
      return `You and ${partner} moved too far apart, so the ${what === "trade" ? "trade was cancelled" : "trade could not start"}.`;
    case "timeout":
      if (what === "trade") return "The trade was cancelled: nothing changed in it for too long.";
      return what === "my request" ? `${partner} did not answer your trade request in time.` : `${partner}'s trade request expired.`;
    case "died":
      return "The trade was cancelled because one of you died.";
    case "server_error":
      return "The server could not complete the trade; nothing was exchanged.";
  }
}

