/**
 * The SDK client and its rooms, typed by the server's own definition (`GameServerDefinition`,
 * src/app.config.ts): `room.send` takes only the client events of the event table
 * (src/game/clientEvents.ts) with their payloads, `room.onMessage` only the server events
 * (src/game/serverEvents.ts), and a join only the room's join options; `room.state` is the
 * room's schema. Renaming an event or a payload field on the server fails this client's
 * typecheck (test/types/typedClients.ts). Types only: nothing of the server is bundled.
 */
import type { Client, Room } from "@colyseus/sdk";
import type { GameServerDefinition } from "../../src/app.config.ts";

type Rooms = GameServerDefinition["~rooms"];

export type GameClient = Client<GameServerDefinition>;
/** The server's world room class, for `client.joinById` (which takes a room id, not a name). */
export type WorldRoomType = Rooms["world"]["~room"];
export type TradeRoomType = Rooms["trade"]["~room"];
/** A joined world room. */
export type WorldRoom = Room<WorldRoomType>;
/** A seat in a trade's room. */
export type TradeSeat = Room<TradeRoomType>;
