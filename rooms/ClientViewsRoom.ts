/**
 * What each Colyseus client sees of the world room's state (its StateView): the players and
 * entities within its view radius, refreshed here or, from the tick after its join, worked out in
 * the delta worker (WsDeltas.addInterest) and applied here.
 */
import type { Player } from "../src/game/world/Player.ts";
import type { World } from "../src/game/world/World.ts";
import { TAG_OWNER } from "../schema/WorldState.ts";
import type { ViewChange } from "../src/game/world/Interest.ts";
import type { ColyseusConnection } from "./ColyseusConnection.ts";
import { SchemaMirrorRoom } from "./SchemaMirrorRoom.ts";

export class ClientViewsRoom extends SchemaMirrorRoom {
  /** Colyseus clients whose views the delta worker works out, by their id there (see ColyseusConnection.interestId). */
  protected readonly byInterest = new Map<number, ColyseusConnection>();
  /** A tick's view changes (connection, player, change), between the refreshes and their application. */
  protected readonly viewChanges: (ColyseusConnection | Player | ViewChange)[] = [];

  /** Brings a client's view in line with what is within its view radius (see Interest). */
  updateView(conn: ColyseusConnection, world: World, player: Player): void {
    const change = this.refreshInterest(conn, world, player);
    if (change !== undefined) this.applyViewChange(conn, player, change);
  }

  /** What entered and left a client's view, if its interest was due for a refresh. */
  protected refreshInterest(conn: ColyseusConnection, world: World, player: Player): ViewChange | undefined {
    if (conn.client.view === undefined) return undefined;
    const change = conn.interest.refresh(world, player, !conn.started);
    conn.started = true;
    return change;
  }

  /** A refresh's changes into the client's view. */
  protected applyViewChange(conn: ColyseusConnection, player: Player, change: ViewChange): void {
    const view = conn.client.view;
    if (view === undefined) return;
    this.viewsEntered += change.entered.length;
    this.viewsLeft += change.left.length;
    for (const id of change.entered) {
      const s = this.schemaFor(id);
      if (s === undefined) {
        // Not in the state (yet): the next refresh here sees it again; the worker's is told once.
        if (conn.interestId === undefined) conn.interest.visible.delete(id);
        else (conn.missing ??= new Set()).add(id);
        continue;
      }
      // Found again as another object under the same id (a player who logged out and back in):
      // its new schema was added to the view then (see addSchema).
      if (conn.inView.has(id) && view.has(s)) continue;
      if (id === player.id) view.add(s, TAG_OWNER);
      view.add(s);
      conn.inView.add(id);
    }
    for (const id of change.left) {
      if (conn.missing?.delete(id) === true) continue;
      conn.inView.delete(id);
      const s = this.schemaFor(id);
      if (s !== undefined) view.remove(s);
    }
  }

  /** Adds to a client's view what the worker said entered it while it was not in the state, once it is. */
  protected addMissing(conn: ColyseusConnection): void {
    const view = conn.client.view;
    if (view === undefined || conn.missing === undefined) return;
    for (const id of conn.missing) {
      const s = this.schemaFor(id);
      if (s === undefined) continue;
      view.add(s);
      conn.inView.add(id);
      conn.missing.delete(id);
    }
    if (conn.missing.size === 0) conn.missing = undefined;
  }

  /** The worker's interest changes of the Colyseus views into `viewChanges` (`all` false: the first part; see WsDeltas.takeInterests). */
  protected takeInterestChanges(world: World, all: boolean): void {
    for (const change of this.services.service.takeInterests(all)) {
      const conn = this.byInterest.get(change.viewer);
      const player = conn === undefined ? undefined : world.players.get(conn.client.userData?.playerId ?? "");
      if (player !== undefined) this.viewChanges.push(conn!, player, change);
    }
  }

  /** The views' changes gathered in `viewChanges`, applied in order. */
  protected applyViewChanges(): void {
    const changes = this.viewChanges;
    for (let i = 0; i < changes.length; i += 3) this.applyViewChange(changes[i] as ColyseusConnection, changes[i + 1] as Player, changes[i + 2] as ViewChange);
    changes.length = 0;
  }
  /** The view changes applied since the last tick's metrics (applyViewChange: a join's first view included). */
  protected viewsEntered = 0;
  protected viewsLeft = 0;
}
