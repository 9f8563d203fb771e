/**
 * The one table of client events, shared by every transport (Colyseus rooms and `/ws`): each
 * event is defined once, with its payload schema and its handler. A transport validates a payload
 * with `safeParse` (an invalid one gets an `error` event and changes nothing), then queues it for
 * the player's next tick, where the handler runs.
 */
import { z } from "zod";
import { handleChat } from "./chat.ts";
import type { Player } from "./world/Player.ts";
import type { HandlerResult, InputHandler, World } from "./world/World.ts";

/** Tile coordinates a client may name: integers, far beyond any world, never NaN or 1e308. */
const coordinate = z.int().min(-1_000_000).max(1_000_000);

export interface EventContext {
  /** Timing-safe comparison against ADMIN_CODE. */
  checkAdminCode(code: string): boolean;
}

export interface EventDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  schema: S;
  handle(world: World, player: Player, data: z.infer<S>, ctx: EventContext): HandlerResult;
}

function define<S extends z.ZodType>(def: EventDefinition<S>): EventDefinition<S> {
  return def;
}

export const EVENTS = [
  define({
    name: "player:move",
    schema: z.object({ x: coordinate, z: coordinate, run: z.boolean().optional() }),
    handle: (world, player, data) => world.walkTo(player, { x: data.x, z: data.z }, data.run ?? false),
  }),
  define({
    name: "player:chat",
    schema: z.object({ message: z.string().max(4 * 255) }),
    handle: (world, player, data, ctx) => handleChat(world, player, data, ctx.checkAdminCode),
  }),
] as const;

export const EVENT_TABLE: ReadonlyMap<string, EventDefinition> = new Map(EVENTS.map((e) => [e.name, e as unknown as EventDefinition]));

/** The table as the World's input handlers. */
export function inputHandlers(ctx: EventContext): Map<string, InputHandler> {
  return new Map(
    [...EVENT_TABLE.values()].map((e) => [e.name, ((world: World, player: Player, data: unknown) => e.handle(world, player, data, ctx)) as InputHandler]),
  );
}

export type ValidationResult = { ok: true; data: unknown } | { ok: false; code: "UNKNOWN_EVENT" | "INVALID_PAYLOAD"; message: string };

/** Looks an event up and validates its payload. */
export function validateEvent(type: string, data: unknown): ValidationResult {
  const def = EVENT_TABLE.get(type);
  if (def === undefined) return { ok: false, code: "UNKNOWN_EVENT", message: `unknown event "${type}"` };
  const parsed = def.schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, code: "INVALID_PAYLOAD", message: `${issue.path.join(".") || "data"}: ${issue.message}` };
  }
  return { ok: true, data: parsed.data };
}
