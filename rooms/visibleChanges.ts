/**
 * Per-view patch encoding in time proportional to what each view sees.
 *
 * `Encoder.encodeView` walks the whole queue of changed trees once per view and drops the ones the
 * view cannot see: with V views and C changed trees that is V × C visibility checks per patch
 * (1,000 players, half of them walking: ~500 views × ~600 trees, the largest single cost of a
 * tick). A tree's visibility is a bitmap indexed by view id (`ChangeTree.visibleViews`), so one
 * pass over the queue can hand every changed tree to exactly the views that may see it.
 *
 * {@link indexVisibleChanges} wraps an encoder: the first view pass after the shared pass builds,
 * from one walk of the queue, an index: per view, the run of changed trees it may see (same
 * order), in flat arrays (tree indexes, and per tree its flags and cached bytes), and each view
 * pass then walks its own run instead of the whole queue. Flat arrays because the walk is memory
 * bound: with a linked sub-queue per view, two thirds of its time went to reading each tree's
 * visibility bitmap and the next node (cache misses); with the index a view's pass reads a run of
 * integers and touches a tree object only to encode it (a 1,000-view patch of 2,000 players,
 * 40 % walking: 32–53 → 19–20 ms). The encoder still applies its own visibility check
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
 * tag on are encoded per view, as before, in the same order. Which view holds a tag on a tree is
 * worked out once per patch, when the index is built (a player's private fields: its owner's view),
 * so a view's pass reads the tree object only to encode it; and only if one of the tree's fields
 * that carry a view tag changed: otherwise the holder's bytes are everyone's (a walking player's
 * own view shares its position's bytes with the others).
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
import { $changes, $refId, type ChangeTree, type Encoder, type StateView } from "@colyseus/schema";

/** The parts of @colyseus/schema's internals this relies on (0.18 / schema 5). */
interface Tree {
  visibleViews: number[] | undefined;
  readonly encDescriptor: { readonly isSchema: boolean; readonly hasAnyView: boolean; readonly filterBitmask: number };
  /** A Schema tree's changed fields this patch: a bit per field index (0-31, 32-63). */
  readonly dirtyLow: number;
  readonly dirtyHigh: number;
  has(): boolean;
  readonly tagViews: Map<number, number[]> | undefined;
  readonly isVisibilitySharedWithParent: boolean;
  readonly isFiltered: boolean;
  readonly parent: { [$changes]: Tree } | undefined;
  /** The full-sync walk's visited stamp (Encoder.encodeFullSync). */
  _fullSyncGen: number;
  forEachChild(cb: (child: Tree, index: number) => void): void;
  extraParents: { ref: { [$changes]: Tree }; next: unknown } | undefined;
  /** Its index in its parent collection (a map entry's wire index). */
  readonly parentIndex: number;
  /** The instance itself (a MapSchema: its entries and their wire indexes). */
  readonly refTarget: { $items?: Map<string, unknown>; journal?: { keyByIndex: Map<number, string> } };
  readonly ref: { [$refId]: number };
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
  /** The trees whose parent is `parent` that this view may hold a bit on (WorldView: a full state's entries, see {@link narrowMap}). */
  childrenOf?(parent: ChangeTree): Iterable<ChangeTree>;
}

/**
 * A full state's view pass over a map the view sees (the players', the entities'): the library
 * walks every entry of it twice (its fields: each entry's visibility; its children: each entry's
 * tree) and the skip pass once, to find the ~150 entries the view holds among thousands. When the
 * view can list the trees it holds under the map, the map is made, for the walk, to hold just the
 * visible ones: its index → key journal in index order (the order the library writes the entries
 * in: indexes are assigned as keys are added) and its items in the order the map has them (keys
 * are appended as they are set; a set key's value is a new instance, attached then, so its refId
 * is the largest yet: refId order). `restore` puts the map back. Returns false (nothing changed)
 * for anything else.
 */
function narrowMap(tree: Tree, view: View, restore: (() => void)[]): boolean {
  const ref = tree.refTarget;
  const items = ref.$items;
  const journal = ref.journal;
  if (view.childrenOf === undefined || items === undefined || journal === undefined) return false;
  const visible: { child: Tree; key: string }[] = [];
  for (const c of view.childrenOf(tree as unknown as ChangeTree)) {
    const child = c as unknown as Tree;
    if (!view.isChangeTreeVisible(child)) continue;
    const key = journal.keyByIndex.get(child.parentIndex);
    // Still the map's entry at that index (not a tree let go of, whose bit stayed).
    if (key !== undefined && items.get(key) === child.ref) visible.push({ child, key });
  }
  const byIndex = new Map<number, string>();
  for (const { child, key } of visible.sort((a, b) => a.child.parentIndex - b.child.parentIndex)) byIndex.set(child.parentIndex, key);
  const byOrder = new Map<string, unknown>();
  for (const { child, key } of visible.sort((a, b) => a.child.ref[$refId] - b.child.ref[$refId])) byOrder.set(key, child.ref);
  const keyByIndex = journal.keyByIndex;
  journal.keyByIndex = byIndex;
  ref.$items = byOrder;
  restore.push(() => {
    journal.keyByIndex = keyByIndex;
    ref.$items = items;
  });
  return true;
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
export function holdsTagOn(view: StateView, tree: ChangeTree): boolean {
  return holdsAnyTag(view as unknown as View, tree as unknown as Tree);
}

function holdsAnyTag(view: View, tree: Tree): boolean {
  const tags = tree.tagViews;
  if (tags === undefined) return false;
  for (const views of tags.values()) if (view._slot < views.length && (views[view._slot]! & view._bit) !== 0) return true;
  return false;
}

/** {@link tagHolderOf}: no view holds a tag on the tree. */
const NO_HOLDER = -1;
/** {@link tagHolderOf}: more than one view does (each view's own check decides). */
const MANY_HOLDERS = -2;

/**
 * The one view holding a custom tag on `tree` (a player's private fields: its owner's), or
 * NO_HOLDER, or MANY_HOLDERS. Worked out once a patch per tree, instead of each view reading the
 * tree's tag bitmaps (a player in view of 100 others: 100 reads of its tree, its map and its arrays,
 * cache misses all, ~35 ms a tick at 2,000 players on the bench's machine).
 */
function tagHolderOf(tree: Tree): number {
  const tags = tree.tagViews;
  if (tags === undefined) return NO_HOLDER;
  let found = NO_HOLDER;
  for (const views of tags.values()) {
    for (let w = 0; w < views.length; w++) {
      let word = views[w]!;
      while (word !== 0) {
        const low = word & -word;
        word ^= low;
        const id = w * 32 + (31 - Math.clz32(low));
        if (found === NO_HOLDER || found === id) found = id;
        else return MANY_HOLDERS;
      }
    }
  }
  return found;
}

/** Whether the view (`id`) holds a tag on a tree whose holder is `holder` (see tagHolderOf). */
function holds(holder: number, id: number, view: View, tree: Tree): boolean {
  if (holder === NO_HOLDER) return false;
  return holder === id || (holder === MANY_HOLDERS && holdsAnyTag(view, tree));
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

/** Per changed tree of a patch (see indexVisibleChanges). */
const HAS_CHANGES = 1;
/** Visibility from a parent: the encoder's own check decides (the index holds a superset). */
const CHECK = 2;
/** A collection: its entries are filtered per view, so it is encoded per view. */
const PER_VIEW = 4;
/** A Schema with tagged fields: encoded per view for the views holding a tag on it. */
const TAGGED = 8;

/** A growable Int32Array. */
function grow(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/** Makes `encoder.encodeView` walk only the changed trees each view may see (see the file comment). */
export function indexVisibleChanges(encoder: Encoder): void {
  const enc = encoder as unknown as Internals;
  const encode = enc.encode.bind(enc);
  const discardChanges = enc.discardChanges.bind(enc);
  /** Bumped whenever the change queue may have changed; the index is current iff built at this generation. */
  let generation = 1;
  let built = 0;

  // The index of one patch, in flat arrays (cache-friendly: a view's pass reads its own run of
  // `entries` and the per-tree arrays, and touches a tree object only to encode it).
  /** The patch's changed trees, in queue order; per tree: flags, and its cached bytes [start, end) (-1: none yet). */
  const trees: Tree[] = [];
  let flags = new Uint8Array(1024);
  let cStart = new Int32Array(1024);
  let cEnd = new Int32Array(1024);
  /** Per TAGGED tree: the one view holding a tag on it, NO_HOLDER, or MANY_HOLDERS (see tagHolderOf). */
  let holder = new Int32Array(1024);
  /** Per view id: its run [viewStart, viewStart + viewCount) of `entries` (tree indexes, queue order), current iff viewAt = generation. */
  let viewStart = new Int32Array(256);
  let viewCount = new Int32Array(256);
  let viewAt = new Int32Array(256);
  let entries = new Int32Array(4096);
  /** Scratch: (view id, tree index) pairs in queue order. */
  let pairView = new Int32Array(4096);
  let pairTree = new Int32Array(4096);

  const build = () => {
    built = generation;
    trees.length = 0;
    let pairs = 0;
    let maxView = -1;
    const words: number[] = [];
    for (let cur = enc.root.changes.next; cur !== undefined; cur = cur.next) {
      const tree = cur.changeTree;
      let bits: number[] | undefined = tree.visibleViews;
      let f = 0;
      if (tree.isVisibilitySharedWithParent) {
        words.length = 0;
        orViews(tree, words, 0);
        bits = words;
        f |= CHECK;
      }
      if (bits === undefined) continue;
      const index = trees.length;
      trees.push(tree);
      if (index >= flags.length) {
        const nf = new Uint8Array(flags.length * 2);
        nf.set(flags);
        flags = nf;
        cStart = grow(cStart, flags.length);
        cEnd = grow(cEnd, flags.length);
        holder = grow(holder, flags.length);
      }
      const desc = tree.encDescriptor;
      if (tree.has()) f |= HAS_CHANGES;
      if (!desc.isSchema) f |= PER_VIEW;
      else if (desc.hasAnyView) {
        f |= TAGGED;
        // A view holding a tag gets other bytes than the rest only if a field with a view tag
        // changed (a player's coins or its private collections: rarely; its position: every step).
        holder[index] = (tree.dirtyLow & desc.filterBitmask) !== 0 || tree.dirtyHigh !== 0 ? tagHolderOf(tree) : NO_HOLDER;
      }
      flags[index] = f;
      cStart[index] = -1;
      for (let w = 0; w < bits.length; w++) {
        let word = bits[w]!;
        while (word !== 0) {
          const low = word & -word;
          word ^= low;
          const id = w * 32 + (31 - Math.clz32(low));
          if (pairs >= pairView.length) {
            pairView = grow(pairView, pairs + 1);
            pairTree = grow(pairTree, pairs + 1);
          }
          pairView[pairs] = id;
          pairTree[pairs] = index;
          pairs++;
          if (id > maxView) maxView = id;
        }
      }
    }
    // Counting sort of the pairs by view, keeping queue order within a view.
    if (maxView >= viewStart.length) {
      viewStart = grow(viewStart, maxView + 1);
      viewCount = grow(viewCount, maxView + 1);
      viewAt = grow(viewAt, maxView + 1);
    }
    for (let p = 0; p < pairs; p++) {
      const id = pairView[p]!;
      if (viewAt[id] !== generation) {
        viewAt[id] = generation;
        viewCount[id] = 0;
      }
      viewCount[id]!++;
    }
    let at = 0;
    for (let id = 0; id <= maxView; id++) {
      if (viewAt[id] !== generation) continue;
      viewStart[id] = at;
      at += viewCount[id]!;
      viewCount[id] = 0;
    }
    entries = grow(entries, pairs);
    for (let p = 0; p < pairs; p++) {
      const id = pairView[p]!;
      entries[viewStart[id]! + viewCount[id]!++] = pairTree[p]!;
    }
  };

  /** This patch's per-tree bytes for views without a tag on the tree (ranges in cStart/cEnd). */
  let cache: Uint8Array = new Uint8Array(64 * 1024);
  let cacheEnd = 0;
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
  /** The encoder's view pass over the view's run of the index, with Schema trees' bytes shared between views. */
  const encodeViewPass = (it: { offset: number }, stateView: StateView, buffer: Uint8Array): Uint8Array => {
    if (built !== generation) build();
    if (cachedAt !== generation) {
      cachedAt = generation;
      cacheEnd = 0;
    }
    const view = stateView as unknown as View;
    const id = view.id;
    if (id < 0 || id >= viewAt.length || viewAt[id] !== generation) return buffer.subarray(0, it.offset);
    const room = (encoder.constructor as unknown as { BUFFER_SIZE: number }).BUFFER_SIZE;
    const end = viewStart[id]! + viewCount[id]!;
    for (let k = viewStart[id]!; k < end; k++) {
      const index = entries[k]!;
      const f = flags[index]!;
      if ((f & HAS_CHANGES) === 0) continue;
      if ((f & CHECK) !== 0 && !view.isChangeTreeVisible(trees[index]!)) continue;
      // Keeps BUFFER_SIZE free past the offset (and grows the shared buffer in place of the old one).
      if (it.offset + room > buffer.byteLength) buffer = enc.ensureCapacity(buffer, it.offset);
      if ((f & PER_VIEW) !== 0 || ((f & TAGGED) !== 0 && holds(holder[index]!, id, view, trees[index]!))) {
        buffer = encodeOne(trees[index]!, stateView, buffer, it);
        continue;
      }
      let start = cStart[index]!;
      if (start < 0) {
        const tree = trees[index]!;
        if (cacheEnd + 64 * 1024 > cache.length) {
          const grown = new Uint8Array(cache.length * 2);
          grown.set(cache.subarray(0, cacheEnd));
          cache = grown;
        }
        const at = { offset: cacheEnd };
        cache = encodeOne(tree, stateView, cache, at);
        start = cStart[index] = cacheEnd;
        cEnd[index] = at.offset;
        cacheEnd = at.offset;
      }
      const stop = cEnd[index]!;
      // Bytes longer than the headroom kept above (a tree of more than BUFFER_SIZE): room for them.
      if (it.offset + (stop - start) > buffer.byteLength) buffer = enc.ensureCapacity(buffer, it.offset + (stop - start));
      let o = it.offset;
      if (stop - start > 32) {
        buffer.set(cache.subarray(start, stop), o);
        o += stop - start;
      } else for (let i = start; i < stop; i++) buffer[o++] = cache[i]!;
      it.offset = o;
    }
    return buffer.subarray(0, it.offset);
  };

  enc.encode = (it, view, buffer, initialOffset) => {
    if (view === undefined) {
      generation++;
      return encode(it, view, buffer, initialOffset);
    }
    // The view pass of encodeView (the only caller with a view). Filter re-derivations still
    // pending are settled by the encoder's own pass over the whole queue; rare, so that pass does all of this view.
    if (enc.root.pendingFilterRefresh.length > 0 || (initialOffset !== undefined && initialOffset !== it.offset))
      return encode(it, view, buffer, initialOffset);
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
    const restore: (() => void)[] = [];
    const skip = (tree: Tree) => {
      if (view === undefined ? tree.isFiltered : !view.isChangeTreeVisible(tree)) {
        tree._fullSyncGen = gen;
        return;
      }
      if (view !== undefined && narrowMap(tree, view, restore)) return;
      tree.forEachChild((child) => {
        if (view === undefined ? child.isFiltered : !view.isChangeTreeVisible(child)) child._fullSyncGen = gen;
      });
    };
    try {
      enc.state[$changes].forEachChild(skip);
      return encodeFullSync(it, buffer, emitFiltered, stateView, initialOffset);
    } finally {
      for (const r of restore) r();
    }
  };
}
