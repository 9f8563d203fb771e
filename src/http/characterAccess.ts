/**
 * Character access for the REST API: who may read or act on a character, and its current data
 * (from the live world when the character is online, from the database otherwise).
 */
import type { Principal } from "../auth/tokens.ts";
import type { Database } from "../db/orm.ts";
import type { PlayerData } from "../game/world/Player.ts";
import { ForbiddenError, NotFoundError } from "./errors.ts";
import { findCharacter, loadData } from "../persistence/players.ts";
import type { WorldService } from "../sessions/WorldService.ts";

export interface CharacterView {
  data: PlayerData;
  online: boolean;
}

/**
 * 404 for an unknown character; 403 for another account's or, with an agent token, for any
 * character but the agent's own. `read`: admins may read any character; `act` (deleting it,
 * speaking as it): only its own account may.
 */
export async function accessCharacter(
  db: Database,
  world: WorldService,
  principal: Principal,
  characterId: string,
  mode: "read" | "act" = "read",
): Promise<CharacterView> {
  const live = world.world.players.get(characterId);
  const row = live === undefined ? await findCharacter(db, characterId) : undefined;
  const accountId = live?.data.accountId ?? row?.accountId;
  if (accountId === undefined) throw new NotFoundError(`no character ${characterId}`);
  if (principal.characterId !== undefined && principal.characterId !== characterId) {
    throw new ForbiddenError("this token is scoped to another character");
  }
  if (accountId !== principal.accountId && !(mode === "read" && principal.role === "admin"))
    throw new ForbiddenError("that character belongs to another account");
  if (live !== undefined) return { data: live.data, online: world.connectionOf(characterId) !== undefined };
  return { data: await loadData(db.em(), row!), online: false };
}
