/**
 * A local OpenAI-compatible chat-completions server (no network here): records every request and
 * answers as the test says, so the agent runtime's model brain is tested against a real HTTP
 * exchange. `answer` may be a function of the request (a goal choice or a chat reply).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string;
  url: string;
  authorization: string | undefined;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** How the fake model answers the next request: a chat message's content, an HTTP error, or never. */
export type Answer = { content: string } | { status: number } | "hang";

export class FakeModelServer {
  readonly requests: Recorded[] = [];
  answer: Answer | ((request: Recorded) => Answer) = { content: "" };
  private readonly server: http.Server;

  private constructor(server: http.Server) {
    this.server = server;
  }

  static async start(): Promise<FakeModelServer> {
    const fake: FakeModelServer = new FakeModelServer(http.createServer((req, res) => fake.handle(req, res)));
    await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      this.requests.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization, body: JSON.parse(raw) as Recorded["body"] });
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const answer = typeof this.answer === "function" ? this.answer(this.requests.at(-1)!) : this.answer;
      if (answer === "hang") return; // never answers; closed in close()
      if ("status" in answer) {
        res
          .writeHead(answer.status, { "Content-Type": "application/json" })
          .end(JSON.stringify({ error: { message: "model overloaded", type: "server_error" } }));
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json" }).end(
        JSON.stringify({
          id: `chatcmpl-${this.requests.length}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: "test-model",
          choices: [{ index: 0, message: { role: "assistant", content: answer.content }, finish_reason: "stop" }],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        }),
      );
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
