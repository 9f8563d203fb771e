/**
 * The input phase of the tick (World.step, phase 1): every player's queued commands, in arrival
 * order, within the per-tick caps of their categories (World's INPUT_CAPS); of several moves only
 * the last runs; server-side commands are never dropped; an exception in one command is contained
 * to that player (a fault counted against MAX_PLAYER_FAULTS).
 */
import type { InputCategory } from "../clientEvents.ts";
import type { Player } from "./Player.ts";

/** What of the world the input phase needs (World passes itself, and its fault counter). */
export interface InputHost<W> {
  readonly players: ReadonlyMap<string, Player>;
  readonly handlers: ReadonlyMap<string, { category: InputCategory; handle(world: W, player: Player, data: never): void | { code: string; message: string } }>;
  readonly caps: Readonly<Record<InputCategory, number>>;
  readonly maxFaults: number;
  readonly world: W;
  sendError(to: string, code: string, message: string, event?: string): void;
  sendRefusal(to: string, error: { code: string; message: string }, event: string): void;
  fault(player: Player, event: string, error: unknown): void;
}

export function drainInputs<W>(host: InputHost<W>): void {
  const { handlers, caps } = host;
  for (const player of host.players.values()) {
    if (player.inputs.length === 0) continue;
    const inputs = player.inputs.splice(0);
    if (player.faults >= host.maxFaults) continue;
    let lastMove = -1;
    for (let i = 0; i < inputs.length; i++) if (handlers.get(inputs[i]!.type)?.category === "move") lastMove = i;
    const used: Partial<Record<InputCategory, number>> = {};
    for (let i = 0; i < inputs.length && player.faults < host.maxFaults; i++) {
      const input = inputs[i]!;
      try {
        if (input.run !== undefined) {
          input.run(player);
          continue;
        }
        const rule = handlers.get(input.type)!;
        if (rule.category === "move" && i !== lastMove) continue;
        const n = (used[rule.category] ?? 0) + 1;
        used[rule.category] = n;
        if (n > caps[rule.category]) {
          if (n === caps[rule.category] + 1) {
            host.sendError(player.id, "RATE_LIMITED", `at most ${caps[rule.category]} ${rule.category} commands a tick: the rest of this tick's were dropped`, input.type);
          }
          continue;
        }
        const error = rule.handle(host.world, player, input.data as never);
        if (error) host.sendRefusal(player.id, error, input.type);
      } catch (error) {
        host.fault(player, input.type, error);
      }
    }
  }
}
