/**
 * The OpenAPI 3.1 document of the REST interface, served at `/api/openapi.json`, generated from
 * zod schemas: each request body and query is the schema its handler validates it with, each
 * answer the schema beside its route (src/http/routes/*), each refusal the common error body with
 * the route's codes. Outside production every JSON answer of a route listed here is checked
 * against its schema (responseCheck.ts), so the document follows what the handlers really send.
 * The paths are in src/http/openapi/ (playerPaths, socialPaths, adminPaths; ops.ts: an operation
 * and its refusals). A test walks the Express router and fails when a mounted route is missing
 * here (or documented but not mounted).
 */
import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { VERSION } from "../version.ts";
import { AGENT_TOKEN_SCOPES } from "./agentScope.ts";
import { ERROR_BODY, errorBody } from "./schemas.ts";
import { ADMIN_PATHS } from "./openapi/adminPaths.ts";
import { errorsOf, type Method, type Op, type Paths } from "./openapi/ops.ts";
import { PLAYER_PATHS } from "./openapi/playerPaths.ts";
import { SOCIAL_PATHS } from "./openapi/socialPaths.ts";

/** Every route, by path (OpenAPI `{param}` syntax) and method. */
export const ROUTES: Paths = { ...PLAYER_PATHS, ...SOCIAL_PATHS, ...ADMIN_PATHS };

/** What the answers of one operation may be, for responseCheck.ts. */
export interface Answers {
  /** The statuses that are not refusals, with the schema of their body (null: none). */
  responses: ReadonlyMap<number, z.ZodType | null>;
  /** The refusals, each the error body with its codes. */
  refusals: ReadonlyMap<number, z.ZodType>;
}

function answersOf(path: string, method: Method, op: Op): Answers {
  const refusals = Object.entries(errorsOf(path, method, op)).map(([status, codes]) => [Number(status), errorBody(codes as [string, ...string[]])] as const);
  return { responses: new Map(Object.entries(op.responses).map(([status, schema]) => [Number(status), schema ?? null])), refusals: new Map(refusals) };
}

/** Every operation's answers by `method path` (OpenAPI syntax: `get /api/template/{templateId}`). */
export function answersByOperation(): Map<string, Answers> {
  const out = new Map<string, Answers>();
  for (const [path, ops] of Object.entries(ROUTES))
    for (const [method, op] of Object.entries(ops) as [Method, Op][]) out.set(`${method} ${path}`, answersOf(path, method, op));
  return out;
}

/** A zod schema as a JSON Schema (2020-12, OpenAPI 3.1's dialect), of what a request sends or an answer holds. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const out = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: ({ jsonSchema: s }) => {
      // `format: date-time` says it; zod's long pattern for it would fill the document.
      if (s.format === "date-time") delete s.pattern;
      // z.int()'s safe-integer bounds say nothing a client needs.
      if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
      if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
    },
  }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

const optional = (schema: z.ZodType) => schema.safeParse(undefined).success;

function operation(path: string, method: Method, op: Op): object {
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const parameters = [
    ...pathParams.map((name) => ({ name, in: "path", required: true, schema: op.params?.[name] ? jsonSchema(op.params[name], "input") : { type: "string" } })),
    ...Object.entries(op.query?.shape ?? {}).map(([name, schema]) => ({
      name,
      in: "query",
      required: !optional(schema as z.ZodType),
      schema: jsonSchema(schema as z.ZodType, "input"),
    })),
  ];
  const agentScope = AGENT_TOKEN_SCOPES[`${method} ${path}`];
  const responses: Record<string, object> = {};
  for (const [status, schema] of Object.entries(op.responses)) {
    responses[status] = {
      description: STATUS_CODES[Number(status)],
      ...(schema ? { content: { [op.mediaType ?? "application/json"]: { schema: jsonSchema(schema, "output") } } } : {}),
    };
  }
  for (const [status, codes] of Object.entries(errorsOf(path, method, op))) {
    const list = codes as [string, ...string[]];
    // The common error body (errorBody(list), as a reference and the codes).
    const schema = { allOf: [{ $ref: "#/components/schemas/Error" }, { properties: { error: { properties: { code: { enum: list } } } } }] };
    responses[status] = { description: `${STATUS_CODES[Number(status)]}: ${list.join(", ")}`, content: { "application/json": { schema } } };
  }
  return {
    summary: op.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    security: op.auth === "bearer" ? [{ bearer: [] }] : op.auth === "admin" ? [{ adminBasic: [] }, { bearer: [] }] : [],
    // What an agent's token may do here (src/http/agentScope.ts).
    ...(agentScope !== undefined ? { "x-agent-token": agentScope } : {}),
    // parseBody reads a missing body as {}: the body is required only when {} is not valid.
    ...(op.body
      ? { requestBody: { required: !op.body.safeParse({}).success, content: { "application/json": { schema: jsonSchema(op.body, "input") } } } }
      : {}),
    responses,
  };
}

let document: object | undefined;

export function openApiDocument(): object {
  document ??= {
    openapi: "3.1.0",
    info: {
      title: "rs-world-server",
      version: VERSION,
      description:
        "Authoritative multiplayer game server: REST interface. Real time: Colyseus room `world` and the `/ws` socket (see docs/protocol.md). Every refusal is `{success: false, error: {code, message}}` with the codes listed per status.",
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        adminBasic: { type: "http", scheme: "basic", description: "Any user name; ADMIN_CODE as the password" },
      },
      schemas: { Error: jsonSchema(ERROR_BODY, "output") },
    },
    paths: Object.fromEntries(
      Object.entries(ROUTES).map(([path, ops]) => [
        path,
        Object.fromEntries((Object.entries(ops) as [Method, Op][]).map(([method, op]) => [method, operation(path, method, op)])),
      ]),
    ),
  };
  return document;
}
