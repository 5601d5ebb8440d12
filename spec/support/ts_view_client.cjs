// The TypeScript SDK's client (@modelcontextprotocol/sdk, 2025) against a per-request view
// (spec/mcp_sdk/server/transports/streamable_http_stateless_view_test.py). Run with NODE_PATH at
// .cache/interop/node_modules and the server's URL as argument. It prints one JSON line per phase
// and waits for a line on stdin between the phases the spec paces: "abort" (the slow tool has
// started), then "close".
const readline = require("node:readline");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const {
  CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, LoggingMessageNotificationSchema,
} = require("@modelcontextprotocol/sdk/types.js");

const LEVEL = "io.modelcontextprotocol/logLevel";
const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const say = (value) => process.stdout.write(JSON.stringify(value) + "\n");
const outcome = (result) => [result.isError, result.content.map((block) => block.text)];

async function main() {
  const client = new Client({ name: "ts-spec", version: "1.0.0" }, { capabilities: { sampling: {}, roots: {}, elicitation: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "m" }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///work" }] }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Alice" } }));
  const logs = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => { logs.push(notification.params); });
  await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2])));

  const seen = { version: client.getServerVersion().name, capabilities: client.getServerCapabilities() };
  try {
    await client.setLoggingLevel("info");
    seen.setLevel = "accepted";
  } catch (error) {
    seen.setLevel = [error.code, error.message];
  }
  seen.plain = outcome(await client.callTool({ name: "noisy", arguments: {} }));
  seen.logsWithoutLevel = logs.splice(0);
  seen.leveled = outcome(await client.callTool({ name: "noisy", arguments: {}, _meta: { [LEVEL]: "info" } }));
  seen.logsAtInfo = logs.splice(0);
  for (const name of ["ask_llm", "show_roots", "ask_user"]) {
    seen[name] = outcome(await client.callTool({ name, arguments: {} }));
  }
  say({ phase: "called", seen });

  const abort = new AbortController();
  const slow = client.callTool({ name: "slow", arguments: {} }, undefined, { signal: abort.signal }).then(
    () => "finished", (error) => `rejected: ${error.name}: ${error.message}`,
  );
  say({ phase: "calling" });
  await lines.next(); // "abort": the tool has started
  abort.abort("changed my mind");
  say({ phase: "aborted", slow: await slow });
  await lines.next(); // "close"
  await client.close();
  say({ phase: "closed" });
}

main().then(() => process.exit(0), (error) => { say({ phase: "failed", error: String(error && error.stack || error) }); process.exit(1); });
