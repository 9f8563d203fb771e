/**
 * One trade between two players (pure state; the world drives it).
 *
 * Screens (spec "Player trade"): `offer` → both accept → `confirm` → both accept → `committing`
 * (the swap is being written) → done. Any offer change clears both acceptances; a change on the
 * confirmation screen returns the trade to the offer screen. Offers reference inventory slots;
 * a slot's offered total never exceeds what it holds. A side may offer coins too (`coins`, from the
 * player's coin pouch, `PlayerData.coins`): never more than the player carries, and a change of the
 * amount is an offer change like any other.
 */
import type { ContentRegistry } from "../../manifests/registry.ts";
import { InventoryTx, InvError, MAX_STACK, validQuantity } from "../inventory.ts";
import type { ItemStack, Player } from "../world/Player.ts";
import { CodedError } from "../../codedError.ts";

export type TradeScreen = "offer" | "confirm" | "committing";

/**
 * The screens a player accepts (`tradeAccept`'s optional `screen`). Naming it makes an accept sent
 * for one screen refused once the trade has moved on (TRADE_SCREEN_CHANGED): a double click on the
 * offer screen's Accept must not count as accepting a confirmation screen nobody has seen yet.
 */
export const ACCEPT_SCREENS = ["offer", "confirm"] as const;
export type AcceptScreen = (typeof ACCEPT_SCREENS)[number];

export interface OfferItem {
  tradeSlot: number;
  inventorySlot: number;
  itemId: string;
  quantity: number;
}

export interface TradeSide {
  playerId: string;
  name: string;
  items: OfferItem[];
  /** Coins offered (0: none). */
  coins: number;
  accepted: boolean;
}

export class TradeError extends CodedError {}

/** Offer slots per side (the trade window of RuneScape holds 28). */
export const MAX_OFFER_ITEMS = 28;

export class TradeSession {
  readonly id: string;
  readonly a: TradeSide;
  readonly b: TradeSide;
  screen: TradeScreen = "offer";
  /** Tick of the last change, for the inactivity timeout. */
  lastActivityTick: number;
  private nextTradeSlot = 0;

  constructor(id: string, a: Player, b: Player, tick: number) {
    this.id = id;
    this.a = { playerId: a.id, name: a.data.name, items: [], coins: 0, accepted: false };
    this.b = { playerId: b.id, name: b.data.name, items: [], coins: 0, accepted: false };
    this.lastActivityTick = tick;
  }

  side(playerId: string): TradeSide {
    if (this.a.playerId === playerId) return this.a;
    if (this.b.playerId === playerId) return this.b;
    throw new TradeError("NOT_IN_TRADE", "you are not part of this trade");
  }

  other(playerId: string): TradeSide {
    return this.side(playerId) === this.a ? this.b : this.a;
  }

  private changed(tick: number): void {
    this.a.accepted = false;
    this.b.accepted = false;
    if (this.screen === "confirm") this.screen = "offer";
    this.lastActivityTick = tick;
  }

  private editable(): void {
    if (this.screen === "committing") throw new TradeError("INVALID_TRADE", "the trade is being completed");
  }

  /** Offers `quantity` from an inventory slot (checked against the live inventory). */
  add(content: ContentRegistry, player: Player, inventorySlot: number, quantity: number, tick: number): void {
    this.editable();
    const side = this.side(player.id);
    if (!Number.isInteger(inventorySlot) || inventorySlot < 0 || inventorySlot >= player.data.inventory.length) {
      throw new TradeError("INVALID_SLOT", "no such inventory slot");
    }
    if (!validQuantity(quantity)) throw new TradeError("INVALID_QUANTITY", "the quantity must be a whole number from 1 to 2,147,483,647");
    const stack = player.data.inventory[inventorySlot];
    if (stack === null || stack === undefined) throw new TradeError("INVALID_SLOT", `slot ${inventorySlot} is empty`);
    const item = content.item(stack.itemId);
    if (item === undefined) throw new TradeError("INVALID_ITEM", "unknown item");
    if (!item.tradeable) throw new TradeError("UNTRADEABLE_ITEM", `${item.name} cannot be traded`);
    const offered = side.items.filter((o) => o.inventorySlot === inventorySlot).reduce((n, o) => n + o.quantity, 0);
    if (offered + quantity > stack.quantity)
      throw new TradeError("INVALID_QUANTITY", `slot ${inventorySlot} holds ${stack.quantity}, ${offered} already offered`);
    const existing = side.items.find((o) => o.inventorySlot === inventorySlot);
    if (existing) existing.quantity += quantity;
    else {
      if (side.items.length >= MAX_OFFER_ITEMS) throw new TradeError("INVALID_QUANTITY", "the offer is full");
      side.items.push({ tradeSlot: this.nextTradeSlot++, inventorySlot, itemId: stack.itemId, quantity });
    }
    this.changed(tick);
  }

  /** Takes back `quantity` (all when omitted) of an offered entry. */
  remove(player: Player, tradeSlot: number, quantity: number | undefined, tick: number): void {
    this.editable();
    const side = this.side(player.id);
    const i = side.items.findIndex((o) => o.tradeSlot === tradeSlot);
    if (i < 0) throw new TradeError("INVALID_SLOT", `no offered item in trade slot ${tradeSlot}`);
    const entry = side.items[i]!;
    const q = quantity ?? entry.quantity;
    if (!validQuantity(q) || q > entry.quantity) throw new TradeError("INVALID_QUANTITY", `trade slot ${tradeSlot} holds ${entry.quantity}`);
    if (q === entry.quantity) side.items.splice(i, 1);
    else entry.quantity -= q;
    this.changed(tick);
  }

  /**
   * Sets the coins the player offers (0 takes them all back); more than the player carries is
   * refused (NOT_ENOUGH_COINS). The same amount again is no change (acceptances stay).
   */
  setCoins(player: Player, amount: number, tick: number): void {
    this.editable();
    const side = this.side(player.id);
    if (!Number.isInteger(amount) || amount < 0 || amount > MAX_STACK)
      throw new TradeError("INVALID_QUANTITY", "the amount must be a whole number from 0 to 2,147,483,647");
    if (amount > player.data.coins) throw new TradeError("NOT_ENOUGH_COINS", `you carry ${player.data.coins} coins`);
    if (amount === side.coins) return;
    side.coins = amount;
    this.changed(tick);
  }

  /**
   * Accepts the current screen, or only `screen` when given (else TRADE_SCREEN_CHANGED and nothing
   * changes); returns the screen the trade moves to when both have.
   */
  accept(player: Player, tick: number, screen?: AcceptScreen): TradeScreen | undefined {
    this.editable();
    const side = this.side(player.id);
    if (screen !== undefined && screen !== this.screen) {
      const name = (s: TradeScreen) => (s === "offer" ? "offer screen" : "confirmation screen");
      throw new TradeError(
        "TRADE_SCREEN_CHANGED",
        `the trade moved to the ${name(this.screen)} before your accept of the ${name(screen)} arrived: check it and accept again`,
      );
    }
    side.accepted = true;
    this.lastActivityTick = tick;
    if (!(this.a.accepted && this.b.accepted)) return undefined;
    this.a.accepted = false;
    this.b.accepted = false;
    this.screen = this.screen === "offer" ? "confirm" : "committing";
    return this.screen;
  }

  /** The offers as a recipient sees them (PROTOCOL.md: `myOffer`/`theirOffer`). */
  view(playerId: string): { tradeId: string; myOffer: OfferView; theirOffer: OfferView } {
    const mine = this.side(playerId);
    const theirs = this.other(playerId);
    const copy = (s: TradeSide): OfferView => ({ items: s.items.map((o) => ({ ...o })), coins: s.coins, accepted: s.accepted });
    return { tradeId: this.id, myOffer: copy(mine), theirOffer: copy(theirs) };
  }

  values(content: ContentRegistry, playerId: string): { myOfferValue: number; theirOfferValue: number; net: number } {
    // A coin is worth one.
    const worth = (s: TradeSide) => s.items.reduce((n, o) => n + (content.item(o.itemId)?.value ?? 0) * o.quantity, s.coins);
    const mine = worth(this.side(playerId));
    const theirs = worth(this.other(playerId));
    return { myOfferValue: mine, theirOfferValue: theirs, net: theirs - mine };
  }
}

/** One side's offer as its players see it (`tradeUpdated`, `tradeConfirmScreen`). */
export interface OfferView {
  items: OfferItem[];
  coins: number;
  accepted: boolean;
}

export interface SwapResult {
  /** New inventories, by player id. */
  inventories: Map<string, (ItemStack | null)[]>;
  /** What each side gives. */
  aGives: ItemStack[];
  bGives: ItemStack[];
  /** Coins each side gives, and both players' coins after the swap (by player id). */
  aGivesCoins: number;
  bGivesCoins: number;
  coins: Map<string, number>;
}

/**
 * Computes both inventories after the swap on copies: every offered item must still be in its
 * slot, and each receiver must have room (stack merging, the 2,147,483,647 limit); each side's
 * offered coins must still be carried, and the coins received fit under that limit. Throws
 * TradeError (`ITEMS_CHANGED`, `INVENTORY_FULL`, `STACK_OVERFLOW`, `NOT_ENOUGH_COINS`) and changes
 * nothing otherwise.
 */
export function computeSwap(content: ContentRegistry, session: TradeSession, a: Player, b: Player): SwapResult {
  const txA = new InventoryTx(a.data.inventory, content);
  const txB = new InventoryTx(b.data.inventory, content);
  const take = (tx: InventoryTx, side: TradeSide): ItemStack[] => {
    const out: ItemStack[] = [];
    for (const o of side.items) {
      const stack = tx.slots[o.inventorySlot];
      if (stack === null || stack === undefined || stack.itemId !== o.itemId || stack.quantity < o.quantity) {
        throw new TradeError("ITEMS_CHANGED", "an offered item is no longer there");
      }
      out.push(tx.removeFromSlot(o.inventorySlot, o.quantity));
    }
    return out;
  };
  try {
    const aGives = take(txA, session.a);
    const bGives = take(txB, session.b);
    for (const s of aGives) txB.add(s.itemId, s.quantity);
    for (const s of bGives) txA.add(s.itemId, s.quantity);
    for (const [p, side] of [
      [a, session.a],
      [b, session.b],
    ] as const) {
      if (side.coins > p.data.coins) throw new TradeError("NOT_ENOUGH_COINS", `${p.data.name} no longer carries the ${side.coins} coins offered`);
    }
    const coinsA = a.data.coins - session.a.coins + session.b.coins;
    const coinsB = b.data.coins - session.b.coins + session.a.coins;
    if (coinsA > MAX_STACK || coinsB > MAX_STACK) throw new TradeError("STACK_OVERFLOW", "a player would carry more than 2,147,483,647 coins");
    return {
      inventories: new Map([
        [a.id, txA.slots],
        [b.id, txB.slots],
      ]),
      aGives,
      bGives,
      aGivesCoins: session.a.coins,
      bGivesCoins: session.b.coins,
      coins: new Map([
        [a.id, coinsA],
        [b.id, coinsB],
      ]),
    };
  } catch (err) {
    if (err instanceof InvError) {
      throw new TradeError(
        err.code === "NOT_ENOUGH_SPACE" ? "INVENTORY_FULL" : err.code === "STACK_OVERFLOW" ? "STACK_OVERFLOW" : "ITEMS_CHANGED",
        err.message,
      );
    }
    throw err;
  }
}
