/**
 * A client's view of the world state (a Colyseus `StateView`), with two costs of the library's
 * taken off: removing a player, and disposing of the view when its client leaves.
 */
import { $changes, $refId, StateView, type ChangeTree } from "@colyseus/schema";
import { PlayerState } from "../schema/WorldState.ts";
import { holdsTagOn } from "./visibleChanges.ts";

/** The parts of @colyseus/schema's internals this relies on (schema 5). */
interface Internals {
  _root: { changeTrees: Record<number, ChangeTree> } | undefined;
  _slot: number;
  _bit: number;
  _setSubscribed(tree: ChangeTree): void;
  _add(obj: unknown, tag: number, checkIncludeParent: boolean, skipStreamRouting: boolean): boolean;
  addParentOf(tree: ChangeTree, tag: number): void;
  changes: Map<number, Map<number, number>>;
  iterable: boolean;
}
/** A tree as the fast add reads it. */
interface AddTree {
  readonly isNew: boolean;
  readonly isStreamCollection: boolean;
  readonly parent: { [$changes]: AddTree } | undefined;
  readonly encDescriptor: { readonly isSchema: boolean; readonly types: unknown[]; readonly tags: (number | undefined)[] };
  readonly ref: { [$refId]: number };
  forEachLiveWithCtx<C>(ctx: C, cb: (ctx: C, index: number) => void): void;
}

/** `view.add`'s default tag (the library's DEFAULT_VIEW_TAG): every client's fields. */
const DEFAULT_TAG = -1;
/** The library's OPERATION.ADD. */
const ADD = 128;

/**
 * Per Schema class (by its encode descriptor): whether a default-tag add of an instance snapshots
 * its own fields only, every field that refers to another tree (a child Schema or collection)
 * carrying a custom tag (a player's inventory, skills, … are its owner's), so that the add has no
 * child to walk into; and which of its fields that add snapshots (no tag, or the default tag).
 */
const fieldsOfDefaultAdd = new WeakMap<object, boolean[] | null>();

function defaultAddFields(desc: AddTree["encDescriptor"]): boolean[] | null {
  let fields = fieldsOfDefaultAdd.get(desc);
  if (fields !== undefined) return fields;
  fields = [];
  for (let i = 0; i < desc.tags.length || i < desc.types.length; i++) {
    const tag = desc.tags[i];
    const shown = tag === undefined || tag === DEFAULT_TAG;
    if (shown && desc.types[i] !== undefined && typeof desc.types[i] !== "string") {
      fields = null;
      break;
    }
    fields[i] = shown;
  }
  fieldsOfDefaultAdd.set(desc, fields);
  return fields;
}

/** The fast add's snapshot of one live field (forEachLiveWithCtx's callback, allocated once). */
function snapshotField(ctx: { fields: boolean[]; changes: Map<number, number> }, index: number): void {
  if (ctx.fields[index] === true) ctx.changes.set(index, ADD);
}
const snapshot = { fields: [] as boolean[], changes: new Map<number, number>() };
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
    const add = self._add;
    self._add = (obj, tag, checkIncludeParent, skipStreamRouting) =>
      this.fastAdd(obj, tag, checkIncludeParent) ?? add.call(this, obj, tag, checkIncludeParent, skipStreamRouting);
  }

  /**
   * `add` of a player or an entity entering the view (thousands a tick at 2,000 players), doing
   * what the library's `_add` does for it and nothing more: mark it visible, add its ancestors
   * (the library's own `addParentOf`), and snapshot its live fields as ADDs into `changes`, in the
   * library's order, for `encodeView` to send. Anything else (a custom tag, a tree new this patch,
   * a collection, a tree with children the add would walk into, one already in `changes`, streams,
   * an unbound or iterable view) is left to the library: undefined.
   */
  private fastAdd(obj: unknown, tag: number, checkIncludeParent: boolean): boolean | undefined {
    const self = this as unknown as Internals;
    if (tag !== DEFAULT_TAG || !checkIncludeParent || self._root === undefined || self.iterable) return undefined;
    const tree = (obj as { [$changes]?: AddTree } | undefined)?.[$changes];
    if (tree === undefined || tree.isNew || tree.isStreamCollection || !tree.encDescriptor.isSchema) return undefined;
    const parent = tree.parent?.[$changes];
    if (parent === undefined || parent.isStreamCollection) return undefined;
    const fields = defaultAddFields(tree.encDescriptor);
    const refId = tree.ref[$refId];
    if (fields === null || self.changes.has(refId)) return undefined;
    const t = tree as unknown as ChangeTree;
    this.markVisible(t);
    self.addParentOf(t, tag);
    const changes = new Map<number, number>();
    self.changes.set(refId, changes);
    snapshot.fields = fields;
    snapshot.changes = changes;
    tree.forEachLiveWithCtx(snapshot, snapshotField);
    return changes.size > 0;
  }

  /** The trees under `parent` this view may hold a bit on (a full state's entries: see visibleChanges.ts, narrowMap). */
  *childrenOf(parent: ChangeTree): Iterable<ChangeTree> {
    for (const tree of this.marked) if ((tree as unknown as { parent?: { [$changes]: ChangeTree } }).parent?.[$changes] === parent) yield tree;
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
