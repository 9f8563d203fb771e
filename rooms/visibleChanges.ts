/**
 * Per-view patch encoding in time proportional to what each view sees.
 *
 * `Encoder.encodeView` walks the whole queue of changed trees once per view and drops the ones the
 * view cannot see: with V views and C changed trees that is V × C visibility checks per patch
 * (1,000 players, half of them walking: ~500 views × ~600 trees, the largest single cost of a
 * tick). A tree's visibility is a bitmap indexed by view id (`ChangeTree.visibleViews`), so one
 * pass over the queue can hand every changed tree to exactly the views that may see it.
 *
 * {@link indexVisibleChanges} wraps an encoder: the first `encodeView` after the shared pass builds,
 * from one walk of the queue, a sub-queue per view (same order), and each `encodeView` then walks
 * its own sub-queue instead of the whole one. The encoder still applies its own visibility check
 * and field filters to every tree it is given, so the output is byte-for-byte the same as long as
 * the sub-queue holds every tree the view could see: trees with the view's bit set, and trees whose
 * visibility comes from a parent (`isVisibilitySharedWithParent`, resolved lazily by the encoder)
 * when the view sees that parent, its chain upwards, or one of its filtered extra parents.
 *
 * The view pass then encodes each changed Schema tree once per patch, not once per view: what a
 * view gets of a Schema tree depends on the view only through custom tags (TAG_OWNER: the owner's
 * private fields) and through visibility, which is checked first. So the first view without a tag
 * on the tree has its bytes encoded into a per-patch cache, and every other such view copies them.
 * Collections (whose entries are filtered by each entry's visibility) and trees the view holds a
 * tag on are encoded per view, as before, in the same order.
 *
 * Full states (a join: `encodeAll`, then `encodeAllView` for the joining client's view) walk
 * every tree of the state, visible or not, because a tree the view cannot see may have a
 * descendant added to the view on its own. This state's views never do that: a view sees a
 * player or an entity whole (`add` marks every ancestor, and WorldView's removal clears a tree's
 * descendants with it), so nothing below an invisible tree is visible. The wrapper marks, before
 * each full-sync walk, the trees of the two levels below the root that contribute nothing (the
 * shared pass: filtered trees, all of whose fields are filtered; a view's pass: trees the view
 * cannot see) as already visited, and the walk skips them with their subtrees: a join costs the
 * players and entities it sees plus one check per player and entity, instead of every tree of
 * every player (2,000 players: ~6 ms per join, which lost seats in a ramp of 100 joins a second).
 *
 * `test/world/visibleChanges.test.ts` checks the equality against the unwrapped encoder.
 */
import { $changes, type Encoder, type StateView } from "@colyseus/schema";

/** The parts of @colyseus/schema's internals this relies on (0.18 / schema 5). */
interface Tree {
  visibleViews: number[] | undefined;
  readonly encDescriptor: { readonly isSchema: boolean; readonly hasAnyView: boolean };
  has(): boolean;
  readonly tagViews: Map<number, number[]> | undefined;
  readonly isVisibilitySharedWithParent: boolean;
  readonly isFiltered: boolean;
  readonly parent: { [$changes]: Tree } | undefined;
  /** The full-sync walk's visited stamp (Encoder.encodeFullSync). */
  _fullSyncGen: number;
  forEachChild(cb: (child: Tree, index: number) => void): void;
  extraParents: { ref: { [$changes]: Tree }; next: unknown } | undefined;
}
interface QueueNode {
  changeTree: Tree;
  next: QueueNode | undefined;
}
interface Queue {
  next: QueueNode | undefined;
  tail: QueueNode | undefined;
  nextPosition: number;
}
interface View {
  readonly id: number;
  readonly _slot: number;
  readonly _bit: number;
  isChangeTreeVisible(tree: Tree): boolean;
}
interface Internals {
  root: { changes: Queue; pendingFilterRefresh: unknown[] };
  sharedBuffer: Uint8Array;
  ensureCapacity(buffer: Uint8Array, offset: number): Uint8Array;
  encode(it: { offset: number }, view?: StateView, buffer?: Uint8Array, initialOffset?: number): Uint8Array;
  encodeView(view: StateView, sharedOffset: number, it: { offset: number }, bytes?: Uint8Array): Uint8Array;
  discardChanges(): void;
  /** The full-sync walk's generation: the next walk stamps the trees it visits with this plus one. */
  _fullSyncGen: number;
  readonly state: { [$changes]: Tree };
  encodeFullSync(it: { offset: number }, buffer: Uint8Array, emitFiltered: boolean, view?: StateView, initialOffset?: number): Uint8Array;
}

/** Whether `view` was added to `tree` with any custom tag (`tagViews`: tag bit → bitmap of views). */
function holdsAnyTag(view: View, tree: Tree): boolean {
  const tags = tree.tagViews;
  if (tags === undefined) return false;
  for (const views of tags.values()) if (view._slot < views.length && (views[view._slot]! & view._bit) !== 0) return true;
  return false;
}

/** ORs into `out` the bitmap of views that may see `tree` (its own, and its visibility parents'). */
function orViews(tree: Tree, out: number[], depth: number): void {
  const own = tree.visibleViews;
  if (own !== undefined) for (let w = 0; w < own.length; w++) out[w] = (out[w] ?? 0) | own[w]!;
  if (!tree.isVisibilitySharedWithParent || depth > 64) return;
  const parent = tree.parent?.[$changes];
  if (parent !== undefined) orViews(parent, out, depth + 1);
  for (let e = tree.extraParents; e !== undefined; e = e.next as Tree["extraParents"]) {
    const extra = e.ref[$changes];
    if (extra.isFiltered) orViews(extra, out, depth + 1);
  }
}

/** Makes `encoder.encodeView` walk only the changed trees each view may see (see the file comment). */
export function indexVisibleChanges(encoder: Encoder): void {
  const enc = encoder as unknown as Internals;
  const encodeView = enc.encodeView.bind(enc);
  const encode = enc.encode.bind(enc);
  const discardChanges = enc.discardChanges.bind(enc);
  /** Per view id: its sub-queue of this patch. Reused across patches (the nodes too). */
  const queues: Queue[] = [];
  const builtAt: number[] = [];
  const pool: QueueNode[] = [];
  let used = 0;
  /** Bumped whenever the change queue may have changed; a sub-queue is current iff built at this generation. */
  let generation = 1;
  let built = 0;

  const append = (id: number, tree: Tree) => {
    let q = queues[id];
    if (q === undefined) q = queues[id] = { next: undefined, tail: undefined, nextPosition: 0 };
    if (builtAt[id] !== generation) {
      builtAt[id] = generation;
      q.next = q.tail = undefined;
    }
    let node = pool[used];
    if (node === undefined) node = pool[used] = { changeTree: tree, next: undefined };
    used++;
    node.changeTree = tree;
    node.next = undefined;
    if (q.tail === undefined) q.next = node;
    else q.tail.next = node;
    q.tail = node;
  };

  const build = () => {
    built = generation;
    used = 0;
    const words: number[] = [];
    for (let cur = enc.root.changes.next; cur !== undefined; cur = cur.next) {
      const tree = cur.changeTree;
      let bits: number[] | undefined = tree.visibleViews;
      if (tree.isVisibilitySharedWithParent) {
        words.length = 0;
        orViews(tree, words, 0);
        bits = words;
      }
      if (bits === undefined) continue;
      for (let w = 0; w < bits.length; w++) {
        let word = bits[w]!;
        while (word !== 0) {
          const low = word & -word;
          word ^= low;
          append(w * 32 + (31 - Math.clz32(low)), tree);
        }
      }
    }
  };

  /** This patch's per-tree bytes for views without a tag on the tree: [start, end) in `cache`. */
  let cache: Uint8Array = new Uint8Array(64 * 1024);
  let cacheEnd = 0;
  const cached = new Map<Tree, number>();
  const ranges: number[] = [];
  let cachedAt = 0;
  /** A one-tree queue, to have the encoder's own pass encode a single tree. */
  const single: QueueNode = { changeTree: undefined as unknown as Tree, next: undefined };
  const one: Queue = { next: single, tail: single, nextPosition: 0 };
  /** `tree` alone through the encoder's view pass at `buffer[it.offset]`; returns the (maybe grown) buffer. */
  const encodeOne = (tree: Tree, view: StateView, buffer: Uint8Array, it: { offset: number }): Uint8Array => {
    const mine = enc.root.changes;
    single.changeTree = tree;
    enc.root.changes = one;
    try {
      const out = encode(it, view, buffer);
      // On overflow the encoder re-encodes into a larger buffer and returns a view of it.
      return out.buffer === buffer.buffer ? buffer : new Uint8Array(out.buffer);
    } finally {
      enc.root.changes = mine;
    }
  };
  /** The encoder's view pass over the view's sub-queue, with Schema trees' bytes shared between views. */
  const encodeViewPass = (it: { offset: number }, stateView: StateView, buffer: Uint8Array): Uint8Array => {
    if (cachedAt !== generation) {
      cachedAt = generation;
      cached.clear();
      ranges.length = 0;
      cacheEnd = 0;
    }
    const view = stateView as unknown as View;
    for (let cur = enc.root.changes.next; cur !== undefined; cur = cur.next) {
      const tree = cur.changeTree;
      if (!view.isChangeTreeVisible(tree) || !tree.has()) continue;
      // Keeps BUFFER_SIZE free past the offset (and grows the shared buffer in place of the old one).
      buffer = enc.ensureCapacity(buffer, it.offset);
      const desc = tree.encDescriptor;
      if (!desc.isSchema || (desc.hasAnyView && holdsAnyTag(view, tree))) {
        buffer = encodeOne(tree, stateView, buffer, it);
        continue;
      }
      let slot = cached.get(tree);
      if (slot === undefined) {
        if (cacheEnd + 64 * 1024 > cache.length) {
          const grown = new Uint8Array(cache.length * 2);
          grown.set(cache.subarray(0, cacheEnd));
          cache = grown;
        }
        const at = { offset: cacheEnd };
        cache = encodeOne(tree, stateView, cache, at);
        slot = ranges.length;
        ranges.push(cacheEnd, at.offset);
        cached.set(tree, slot);
        cacheEnd = at.offset;
      }
      const start = ranges[slot]!;
      const end = ranges[slot + 1]!;
      let o = it.offset;
      if (end - start > 32) {
        buffer.set(cache.subarray(start, end), o);
        o += end - start;
      } else for (let i = start; i < end; i++) buffer[o++] = cache[i]!;
      it.offset = o;
    }
    return buffer.subarray(0, it.offset);
  };

  const empty: Queue = { next: undefined, tail: undefined, nextPosition: 0 };
  enc.encode = (it, view, buffer, initialOffset) => {
    if (view === undefined) {
      generation++;
      return encode(it, view, buffer, initialOffset);
    }
    // The view pass of encodeView (the only caller with a view). Filter re-derivations still
    // pending are settled by the encoder's own pass; rare, so that pass does all of this view.
    if (enc.root.pendingFilterRefresh.length > 0 || (initialOffset !== undefined && initialOffset !== it.offset)) return encode(it, view, buffer, initialOffset);
    return encodeViewPass(it, view, buffer ?? enc.sharedBuffer);
  };
  enc.discardChanges = () => {
    generation++;
    discardChanges();
  };
  const encodeFullSync = enc.encodeFullSync.bind(enc);
  enc.encodeFullSync = (it, buffer, emitFiltered, stateView, initialOffset) => {
    // The walk skips a tree stamped with its own generation as visited (see the file comment).
    const gen = enc._fullSyncGen + 1;
    const view = stateView as unknown as View | undefined;
    const skip = (tree: Tree) => {
      if (view === undefined ? tree.isFiltered : !view.isChangeTreeVisible(tree)) {
        tree._fullSyncGen = gen;
        return;
      }
      tree.forEachChild((child) => {
        if (view === undefined ? child.isFiltered : !view.isChangeTreeVisible(child)) child._fullSyncGen = gen;
      });
    };
    enc.state[$changes].forEachChild(skip);
    return encodeFullSync(it, buffer, emitFiltered, stateView, initialOffset);
  };
  enc.encodeView = (view, sharedOffset, it, bytes) => {
    if (built !== generation) build();
    const id = (view as unknown as { id: number }).id;
    const mine = builtAt[id] === generation ? queues[id]! : empty;
    const all = enc.root.changes;
    enc.root.changes = mine;
    try {
      return encodeView(view, sharedOffset, it, bytes);
    } finally {
      enc.root.changes = all;
    }
  };
}
