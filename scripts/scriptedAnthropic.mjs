// A scripted model on 127.0.0.1 that speaks the Anthropic Messages API (POST /v1/messages, streamed or not, and
// count_tokens), so an agent such as Claude Code can run against it without a network or a real model. Each request's
// answer comes from `respond(body)`: the content blocks to send (text and tool_use). Request bodies are bounded.
import { createServer } from 'node:http';

const MAX_BODY_BYTES = 32 * 1024 * 1024;

function messageOf(id, model, content) {
  const toolUse = content.some((block) => block.type === 'tool_use');
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: toolUse ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

/** The message as the streaming API sends it: one block at a time, a tool's input as one JSON delta. */
function writeStream(response, message) {
  const event = (type, data) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  event('message_start', { message: { ...message, content: [], stop_reason: null } });
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      event('content_block_start', { index, content_block: { ...block, input: {} } });
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    event('content_block_stop', { index });
  });
  event('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 1 } });
  event('message_stop', {});
  response.end();
}

/**
 * Starts the server; `respond(body)` returns the content blocks for a Messages request (it may throw: the request is
 * answered with a 500 and the error is kept in `errors`). Resolves to its base URL and `close()`.
 */
export function startScriptedModel(respond) {
  const errors = [];
  let count = 0;
  const server = createServer((request, response) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) request.destroy(new Error(`request body over ${MAX_BODY_BYTES} bytes`));
      else chunks.push(chunk);
    });
    request.on('end', () => {
      try {
        const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
        if (request.url?.startsWith('/v1/messages/count_tokens')) {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ input_tokens: 1 }));
          return;
        }
        if (request.method !== 'POST' || !request.url?.startsWith('/v1/messages')) {
          response.writeHead(404, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `${request.method} ${request.url}` } }));
          return;
        }
        count += 1;
        const message = messageOf(`msg_scripted_${count}`, body.model ?? 'scripted', respond(body));
        if (body.stream) writeStream(response, message);
        else {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(message));
        }
      } catch (error) {
        errors.push(error);
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(error) } }));
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        errors,
        requests: () => count,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
