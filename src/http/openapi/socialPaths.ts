/** The OpenAPI paths of friends, ignores and voice (src/http/openapi.ts). */
import { SOCIAL_BODY, SOCIAL_NAME, SOCIAL_RESPONSE } from "../routes/social.ts";
import { VOICE_BODY, VOICE_RESPONSE } from "../routes/voice.ts";
import { merge, OWNED, social, type ErrorCodes, type Op, type Paths } from "./ops.ts";

const socialName = { name: SOCIAL_NAME };
/** A path's `:name` is checked as a body (400 INVALID_PAYLOAD). */
const checkedName: ErrorCodes = { 400: ["INVALID_PAYLOAD"] };

/** A change to the lists by a player named in the path (`{name}`): answers with the lists, refuses with `codes` besides a bad name. */
function byName(summary: string, ...codes: Parameters<typeof social>): Op {
  return { summary, auth: "bearer", params: socialName, responses: { 200: SOCIAL_RESPONSE }, errors: merge(checkedName, social(...codes)) };
}

export const SOCIAL_PATHS: Paths = {
  "/api/v1/social": {
    get: {
      summary: "Your friends (online status, world), friend requests received and sent, and ignore list",
      auth: "bearer",
      responses: { 200: SOCIAL_RESPONSE },
    },
  },
  "/api/v1/social/friends": {
    post: {
      summary: "Ask a player (by name) to be friends; accepts when they had asked you. Answers with the lists",
      auth: "bearer",
      body: SOCIAL_BODY,
      responses: { 200: SOCIAL_RESPONSE },
      errors: social("ALREADY_FRIENDS", "IGNORING", "IGNORED", "REQUEST_PENDING", "FRIENDS_FULL", "THEIR_FRIENDS_FULL", "THEIR_REQUESTS_FULL"),
    },
  },
  "/api/v1/social/friends/{name}": {
    delete: byName("Remove a friend (from both lists), or withdraw your request to them", "NOT_FRIENDS"),
  },
  "/api/v1/social/requests/{name}/accept": {
    post: byName("Accept a player's friend request", "ALREADY_FRIENDS", "NO_REQUEST", "FRIENDS_FULL", "THEIR_FRIENDS_FULL"),
  },
  "/api/v1/social/requests/{name}/decline": {
    post: byName("Decline a player's friend request", "NO_REQUEST"),
  },
  "/api/v1/social/ignored": {
    post: {
      summary: "Ignore a player (by name): their chat, private messages and trade requests never reach you",
      auth: "bearer",
      body: SOCIAL_BODY,
      responses: { 200: SOCIAL_RESPONSE },
      errors: social("ALREADY_IGNORED", "ALREADY_FRIENDS", "IGNORE_FULL"),
    },
  },
  "/api/v1/social/ignored/{name}": {
    delete: byName("Stop ignoring a player", "NOT_IGNORED"),
  },
  "/api/voice/token": {
    post: {
      summary: "A voice-room token for the character's area (503 VOICE_NOT_CONFIGURED when voice is not configured)",
      auth: "bearer",
      body: VOICE_BODY,
      responses: { 200: VOICE_RESPONSE },
      errors: { ...OWNED, 503: ["VOICE_NOT_CONFIGURED"] },
    },
  },
};
