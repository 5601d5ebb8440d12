// The TypeScript SDK's client (@modelcontextprotocol/sdk, StreamableHTTPClientTransport) as a
// polling 2025-11-25 client, for spec/mcp_sdk/server/transports/streamable_http_polling_ts_test.py.
//
//   node ts_polling_client.js CACHE_DIR URL SESSIONS STEPS DELAY
//
// Runs SESSIONS sessions at once, each connecting (its GET stream opens after initialized),
// setting its log level and calling the tool `chatter` with a progress callback; the server closes
// the streams after a `retry` and the transport resumes them with Last-Event-ID (SEP-1699). Prints
// one JSON object: {tag: {progress, logs, result, updates}} (notifications in the order received).
"use strict";

const { createRequire } = require("node:module");
const path = require("node:path");

const [cache, url, sessions, steps, delay] = process.argv.slice(2);
const load = createRequire(path.join(cache, "package.json"));
const { Client } = load("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = load("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } = load("@modelcontextprotocol/sdk/types.js");

//: Milliseconds a session waits, after its answer, for the resources/updated its GET stream carries.
const GET_STREAM_WAIT = 30000;
const TIMEOUT = 120000;

async function session(tag) {
  const seen = { progress: [], logs: [], result: null, updates: [], errors: [], resumed: 0 };
  let closing = false;
  // Counts the GETs that resume a stream (Last-Event-ID): proof that the client polled.
  const counting = (input, init) => {
    const headers = new Headers(init && init.headers);
    if (headers.has("last-event-id")) seen.resumed += 1;
    return fetch(input, init);
  };
  const client = new Client({ name: "ts-polling-spec", version: "1.0.0" });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => { seen.logs.push(note.params.data); });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => { seen.updates.push(note.params.uri); });
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: counting });
  // The cause says why a fetch failed (e.g. undici's "other side closed"), which String(error) leaves out.
  const described = (error) => (error && error.cause ? `${error} (cause: ${error.cause.code || ""} ${error.cause.message || error.cause})` : String(error));
  transport.onerror = (error) => { if (!closing) seen.errors.push(described(error)); };
  await client.connect(transport);
  try {
    await client.setLoggingLevel("info");
    const result = await client.callTool(
      { name: "chatter", arguments: { steps: Number(steps), delay: Number(delay), tag } },
      undefined,
      { onprogress: (progress) => { seen.progress.push(progress.message); }, timeout: TIMEOUT },
    );
    seen.result = result.content[0].text;
    const deadline = Date.now() + GET_STREAM_WAIT;
    while (seen.updates.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    closing = true;
    await client.close();
  }
  return seen;
}

async function main() {
  const tags = Array.from({ length: Number(sessions) }, (_, n) => `ts${n}`);
  const results = await Promise.all(tags.map((tag) => session(tag).catch((error) => ({ failed: String(error) }))));
  const byTag = {};
  tags.forEach((tag, n) => { byTag[tag] = results[n]; });
  process.stdout.write(JSON.stringify(byTag));
}

main().catch((error) => { process.stderr.write(String(error && error.stack || error)); process.exit(1); });
