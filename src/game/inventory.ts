/**
 * Inventory and bank transactions (rsmod's objtx model): every change works on a copy and is
 * committed only if every step succeeded, so a failed step changes nothing. Stacks are checked
 * against 2,147,483,647: an overflow is refused, never clamped, never dropped on the ground.
 */
import type { ContentRegistry } from "../manifests/registry.ts";
import { INVENTORY_SIZE, type ItemStack, type Player } from "./world/Player.ts";
import { CodedError } from "../codedError.ts";

export const MAX_STACK = 2_147_483_647;
export const BANK_SIZE = 500;

export type InvErrorCode = "NOT_ENOUGH_SPACE" | "ITEM_NOT_FOUND" | "INVALID_QUANTITY" | "STACK_OVERFLOW" | "INVALID_SLOT" | "INVALID_ITEM" | "PLAYER_BUSY";

export class InvError extends CodedError<InvErrorCode> {}

export function validQuantity(q: number): boolean {
  return Number.isSafeInteger(q) && q >= 1 && q <= MAX_STACK;
}

/** A working copy of a 28-slot inventory. */
export class InventoryTx {
  readonly slots: (ItemStack | null)[];
  private readonly content: ContentRegistry;

  constructor(slots: readonly (ItemStack | null)[], content: ContentRegistry) {
    this.slots = slots.map((s) => (s === null ? null : { ...s }));
    while (this.slots.length < INVENTORY_SIZE) this.slots.push(null);
    this.content = content;
  }

  private stackable(itemId: string): boolean {
    const def = this.content.item(itemId);
    if (def === undefined) throw new InvError("INVALID_ITEM", `unknown item "${itemId}"`);
    return def.stackable;
  }

  count(itemId: string): number {
    return this.slots.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
  }

  freeSlots(): number {
    return this.slots.filter((s) => s === null).length;
  }

  /** Adds items: a stackable merges into its stack (or takes a free slot), others take one slot each. */
  add(itemId: string, quantity: number): void {
    if (!validQuantity(quantity)) throw new InvError("INVALID_QUANTITY", `invalid quantity ${quantity}`);
    if (this.stackable(itemId)) {
      const existing = this.slots.find((s) => s?.itemId === itemId);
      if (existing) {
        if (existing.quantity + quantity > MAX_STACK) throw new InvError("STACK_OVERFLOW", `a stack of ${itemId} cannot exceed ${MAX_STACK}`);
        existing.quantity += quantity;
        return;
      }
      const free = this.slots.indexOf(null);
      if (free < 0) throw new InvError("NOT_ENOUGH_SPACE", "inventory full");
      this.slots[free] = { itemId, quantity };
      return;
    }
    if (this.freeSlots() < quantity) throw new InvError("NOT_ENOUGH_SPACE", "inventory full");
    for (let i = 0; i < quantity; i++) this.slots[this.slots.indexOf(null)] = { itemId, quantity: 1 };
  }

  /** Removes `quantity` from one slot (the whole slot when omitted); returns what was taken. */
  removeFromSlot(slot: number, quantity?: number): ItemStack {
    if (!Number.isInteger(slot) || slot < 0 || slot >= INVENTORY_SIZE) throw new InvError("INVALID_SLOT", `slot must be 0..${INVENTORY_SIZE - 1}`);
    const stack = this.slots[slot];
    if (stack === null || stack === undefined) throw new InvError("ITEM_NOT_FOUND", `slot ${slot} is empty`);
    const q = quantity ?? stack.quantity;
    if (!validQuantity(q) || q > stack.quantity) throw new InvError("INVALID_QUANTITY", `slot ${slot} holds ${stack.quantity}`);
    if (q === stack.quantity) this.slots[slot] = null;
    else stack.quantity -= q;
    return { itemId: stack.itemId, quantity: q };
  }

  /** Removes `quantity` of an item, from whichever slots hold it. */
  remove(itemId: string, quantity: number): void {
    if (!validQuantity(quantity)) throw new InvError("INVALID_QUANTITY", `invalid quantity ${quantity}`);
    if (this.count(itemId) < quantity) throw new InvError("ITEM_NOT_FOUND", `not enough ${itemId}`);
    let left = quantity;
    for (let i = 0; i < this.slots.length && left > 0; i++) {
      const s = this.slots[i];
      if (s?.itemId !== itemId) continue;
      const take = Math.min(left, s.quantity);
      s.quantity -= take;
      left -= take;
      if (s.quantity === 0) this.slots[i] = null;
    }
  }
}

/** A working copy of a bank: one stack per item id, up to {@link BANK_SIZE} stacks. */
export class BankTx {
  readonly stacks: ItemStack[];
  constructor(stacks: readonly ItemStack[]) {
    this.stacks = stacks.map((s) => ({ ...s }));
  }
  count(itemId: string): number {
    return this.stacks.find((s) => s.itemId === itemId)?.quantity ?? 0;
  }
  add(itemId: string, quantity: number): void {
    if (!validQuantity(quantity)) throw new InvError("INVALID_QUANTITY", `invalid quantity ${quantity}`);
    const existing = this.stacks.find((s) => s.itemId === itemId);
    if (existing) {
      if (existing.quantity + quantity > MAX_STACK) throw new InvError("STACK_OVERFLOW", `a bank stack cannot exceed ${MAX_STACK}`);
      existing.quantity += quantity;
      return;
    }
    if (this.stacks.length >= BANK_SIZE) throw new InvError("NOT_ENOUGH_SPACE", "bank full");
    this.stacks.push({ itemId, quantity });
  }
  remove(itemId: string, quantity: number): void {
    if (!validQuantity(quantity)) throw new InvError("INVALID_QUANTITY", `invalid quantity ${quantity}`);
    const i = this.stacks.findIndex((s) => s.itemId === itemId);
    if (i < 0) throw new InvError("ITEM_NOT_FOUND", `no ${itemId} in the bank`);
    const s = this.stacks[i]!;
    if (s.quantity < quantity) throw new InvError("INVALID_QUANTITY", `the bank holds ${s.quantity} ${itemId}`);
    s.quantity -= quantity;
    if (s.quantity === 0) this.stacks.splice(i, 1);
  }
}

export interface Tx {
  inv: InventoryTx;
  bank: BankTx;
  /** Coins are a balance on the character, not an inventory item. */
  coins: number;
}

/**
 * Runs `steps` on copies of the player's inventory, bank and coins; commits all of them if it
 * returns normally, none if it throws an InvError (returned as the result).
 */
export function transact<T>(player: Player, content: ContentRegistry, steps: (tx: Tx) => T): { ok: true; value: T } | { ok: false; error: InvError } {
  // A trade's swap is being stored: nothing may change these items until it has been.
  if (player.tradeCommitting) return { ok: false, error: new InvError("PLAYER_BUSY", "a trade is being completed") };
  const tx: Tx = { inv: new InventoryTx(player.data.inventory, content), bank: new BankTx(player.data.bank), coins: player.data.coins };
  let value: T;
  try {
    value = steps(tx);
    if (!Number.isSafeInteger(tx.coins) || tx.coins < 0 || tx.coins > MAX_STACK) throw new InvError("STACK_OVERFLOW", "coins out of range");
  } catch (err) {
    if (err instanceof InvError) return { ok: false, error: err };
    throw err;
  }
  player.data.inventory = tx.inv.slots;
  player.data.bank = tx.bank.stacks;
  player.data.coins = tx.coins;
  player.syncDue = true;
  player.saveDue = true;
  return { ok: true, value };
}

/** Coins go to the balance; everything else to the inventory. */
export function giveItem(tx: Tx, itemId: string, quantity: number): void {
  if (itemId !== COINS) return tx.inv.add(itemId, quantity);
  if (!validQuantity(quantity)) throw new InvError("INVALID_QUANTITY", `invalid quantity ${quantity}`);
  if (tx.coins + quantity > MAX_STACK) throw new InvError("STACK_OVERFLOW", `coins cannot exceed ${MAX_STACK}`);
  tx.coins += quantity;
}

export const COINS = "coins";
