/**
 * A client's view of the world state (a Colyseus `StateView`), with two costs of the library's
 * taken off: removing a player, and disposing of the view when its client leaves.
 */
import { StateView, type ChangeTree } from "@colyseus/schema";
import { PlayerState } from "../schema/WorldState.ts";
import { holdsTagOn } from "./visibleChanges.ts";

/** The parts of @colyseus/schema's internals the dispose relies on (schema 5). */
interface Internals {
  _root: { changeTrees: Record<number, ChangeTree> } | undefined;
  _slot: number;
  _bit: number;
  _setSubscribed(tree: ChangeTree): void;
}
interface TreeBits {
  visibleViews: number[] | undefined;
  subscribedViews: number[] | undefined;
  tagViews: Map<number, number[]> | undefined;
  root: unknown;
}

/** Nothing: what the library's dispose scans once the view's own trees are cleared. */
const NO_TREES: Record<number, ChangeTree> = Object.freeze({}) as Record<number, ChangeTree>;

/**
 * Removing a player from a view walks the player's whole subtree to clear this view's bits,
 * private collections included (inventory, skills, equipment, bank: dozens of trees), although
 * another client's view never sees them. Nothing below a tree this view cannot see can be visible
 * to it (`add` marks every ancestor, and a child inherits visibility only from a visible parent),
 * so the walk stops at invisible trees; and a player's children are all {@link TAG_OWNER}
 * fields, which a view without that tag on the player was never given (`add` skips the fields of
 * other tags), so for any player but the view's own there is no walk at all (a few thousand
 * removals a tick at 2,000 players).
 *
 * Disposing of a view (a client leaves) must clear its bit from every tree that has it, or the
 * next view given its id would see what it saw. The library does that by scanning every tree of
 * the state (`_clearViewBitFromAllTrees`: 9 ms a leave at 2,000 players on the bench's machine,
 * and 2,000 leaves at once, a mass disconnect or the end of a bench run, held the world's thread
 * for over 20 s). Every bit a view sets goes through its own `markVisible`, `addTag` or
 * `_setSubscribed`, so this view keeps the trees it set a bit on (`marked`) and clears just those;
 * the library's scan then runs over no trees. A tree whose every bit of this view is cleared
 * leaves `marked`; trees the state let go of (a player who logged out) are dropped from it as it
 * grows, as the library's scan would not see them either.
 */
export class WorldView extends StateView {
  /** Releases its client's corked socket (see WorldRoom.onCreate). */
  release: (() => void) | undefined;
  /** Every tree this view may hold a bit on (see the class comment). */
  private readonly marked = new Set<ChangeTree>();
  /** `marked`'s size after it was last pruned of detached trees. */
  private prunedAt = 0;

  constructor() {
    super();
    // Private in the library's types: overridden per instance.
    const self = this as unknown as Internals;
    const setSubscribed = self._setSubscribed;
    self._setSubscribed = (tree: ChangeTree) => {
      this.mark(tree);
      setSubscribed.call(this, tree);
    };
  }

  private mark(tree: ChangeTree): void {
    const marked = this.marked;
    if (marked.has(tree)) return;
    marked.add(tree);
    if (marked.size > 2 * this.prunedAt + 256) {
      for (const t of marked) if ((t as unknown as TreeBits).root === undefined) marked.delete(t);
      this.prunedAt = marked.size;
    }
  }

  override markVisible(tree: ChangeTree): void {
    this.mark(tree);
    super.markVisible(tree);
  }

  override addTag(tree: ChangeTree, tag: number): void {
    this.mark(tree);
    super.addTag(tree, tag);
  }

  override unmarkVisible(tree: ChangeTree): void {
    super.unmarkVisible(tree);
    if (!holdsTagOn(this, tree) && !this.isSubscribed(tree)) this.marked.delete(tree);
  }

  protected override _recursiveDeleteVisibleChangeTree(changeTree: ChangeTree): void {
    if (changeTree.ref instanceof PlayerState && !holdsTagOn(this, changeTree)) return;
    changeTree.forEachChild((child) => {
      if (!this.isVisible(child)) return;
      this.unmarkVisible(child);
      this._recursiveDeleteVisibleChangeTree(child);
    });
  }

  override dispose(): void {
    const self = this as unknown as Internals;
    const root = self._root;
    if (root === undefined) return super.dispose();
    const slot = self._slot;
    const clear = ~self._bit;
    for (const tree of this.marked) {
      const t = tree as unknown as TreeBits;
      const v = t.visibleViews;
      if (v !== undefined && slot < v.length) v[slot]! &= clear;
      const s = t.subscribedViews;
      if (s !== undefined && slot < s.length) s[slot]! &= clear;
      if (t.tagViews !== undefined) for (const bitmap of t.tagViews.values()) if (slot < bitmap.length) bitmap[slot]! &= clear;
    }
    this.marked.clear();
    // The library's dispose (the view's id back, its stream state and finalizer gone) without its scan.
    const trees = root.changeTrees;
    root.changeTrees = NO_TREES;
    try {
      super.dispose();
    } finally {
      root.changeTrees = trees;
    }
  }
}
