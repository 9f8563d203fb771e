/**
 * Who may spectate a character (src/ws/spectator.ts `spectateRefusal`), for the principals the
 * real-server test (spectator.test.ts) does not reach: an admin of another account may, an agent's
 * or a character's token of the very account may not.
 */
import assert from "node:assert/strict";
import type { Principal } from "../../src/auth/tokens.ts";
import type { Player } from "../../src/game/world/Player.ts";
import type { WsSession } from "../../src/ws/session.ts";
import { spectateRefusal } from "../../src/ws/spectator.ts";

const watched = { data: { accountId: "acc-owner" } } as unknown as Player;
const by = (p: Partial<Principal>): WsSession =>
  ({ principal: { accountId: "acc-owner", role: "player", anonymous: false, source: "service", ...p } }) as unknown as WsSession;

describe("who may spectate a character", () => {
  it("lets its owner's token and an admin watch", () => {
    assert.equal(spectateRefusal(by({}), watched), undefined);
    assert.equal(spectateRefusal(by({ accountId: "acc-admin", role: "admin" }), watched), undefined);
  });

  it("refuses an agent's token and a character's token of the same account, and anyone else's", () => {
    assert.match(spectateRefusal(by({ agentId: "agent-1", characterId: "char-1" }), watched)!, /agent's or a character's token/);
    assert.match(spectateRefusal(by({ characterId: "char-1" }), watched)!, /agent's or a character's token/);
    assert.match(spectateRefusal(by({ accountId: "acc-stranger" }), watched)!, /only the character's owner/);
  });
});
