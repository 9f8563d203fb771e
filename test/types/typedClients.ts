/**
 * A compile-time test of the typed clients (never run: `npm run typecheck` checks it, and each
 * `@ts-expect-error` line must be an error, else the typecheck fails as the directive is unused).
 * The browser client's rooms (client/src/gameRooms.ts, `Client<GameServerDefinition>`) and the
 * agent runtime's links and behaviours send and receive only what the event tables
 * (src/game/clientEvents.ts, src/game/serverEvents.ts) define: a renamed event or a payload field
 * the server does not define fails to compile.
 */
import type { GameClient, TradeSeat, WorldRoom } from "../../client/src/gameRooms.ts";
import type { AgentLink, ConnectionEvents } from "../../agent-runtime/GameConnection.ts";
import type { Behaviour, Ctx } from "../../agent-runtime/brain/behaviourKit.ts";

export async function browserClient(client: GameClient, room: WorldRoom, seat: TradeSeat): Promise<void> {
  room.send("player:move", { x: 1, z: 2, run: true });
  // @ts-expect-error a client event the server does not define (renamed "player:move")
  room.send("player:walk", { x: 1, z: 2 });
  // @ts-expect-error a payload field the server does not define (`y` for `z`)
  room.send("player:move", { x: 1, y: 2 });
  // @ts-expect-error a payload of the wrong type
  room.send("player:chat", { message: 42 });

  room.onMessage("welcome", (w) => void (w.playerId satisfies string));
  // @ts-expect-error a server event the server does not send (renamed "welcome")
  room.onMessage("welcomed", () => {});
  // @ts-expect-error a payload field the server does not send
  room.onMessage("welcome", (w) => void w.playerName);

  // A trade's room takes the trade events only.
  seat.send("tradeAccept", { tradeId: "t1", screen: "offer" });
  // @ts-expect-error not a trade event
  seat.send("player:move", { x: 1, z: 2 });
  // @ts-expect-error a screen the server does not accept
  seat.send("tradeAccept", { tradeId: "t1", screen: "committing" });

  // The room by its name: its state's schema.
  const joined = await client.joinOrCreate("world", { characterId: "c1" });
  void (joined.state.tick satisfies number);
  // @ts-expect-error a field the state does not hold
  void joined.state.ticks;
}

export function agentRuntime(link: AgentLink, behaviour: Required<Behaviour>, ctx: Ctx): ConnectionEvents {
  link.send("player:move", { x: 1, z: 2 });
  // @ts-expect-error a client event the server does not define
  link.send("player:walk", { x: 1, z: 2 });
  // @ts-expect-error a payload field the server does not define
  link.send("player:chat", { text: "hi" });
  link.send("agent:goalProgress", { goalId: "g1", progress: 50 });

  behaviour.onEvent("skill:xp", { skill: "mining", xp: 10, gained: 5, xpExact: 100, gainedExact: 50, level: 1, levelUp: false }, ctx);
  // @ts-expect-error a payload that lacks the event's fields
  behaviour.onEvent("skill:xp", { skill: "mining" }, ctx);
  // @ts-expect-error a server event the server does not send
  behaviour.onEvent("skill:xpGained", {}, ctx);

  return {
    onEvent(...[type, data]) {
      // The name narrows the payload.
      if (type === "welcome") void (data.playerId satisfies string);
      // @ts-expect-error a server event the server does not send: the comparison cannot be true
      if (type === "welcomed") return;
    },
    onOpen() {},
    onClose() {},
  };
}
