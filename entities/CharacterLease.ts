import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/**
 * `character_leases`: which server process has a character live in its world. A process takes the
 * lease when it loads the character, renews it while the character is live and deletes it after
 * the character's final save; another process may take it only once it is released or expired, so
 * two processes on one database never both hold (and save, or trade away) the same character.
 * See src/persistence/leases.ts.
 */
export const CharacterLease = defineEntity({
  name: "CharacterLease",
  tableName: "character_leases",
  properties: {
    characterId: p.string().primary().length(64),
    /** The holding process's random id (one per process start). */
    ownerId: p.string().length(64).index("character_leases_owner_index"),
    /** Past this instant the lease counts as released (its process stopped renewing it). */
    expiresAt: p.datetime(),
  },
});
export type ICharacterLease = InferEntity<typeof CharacterLease>;
