// A fetch whose response bodies are read against a byte limit: the `openai` client buffers a whole response before it
// parses it, so an endpoint that sends headers and then body bytes forever would otherwise grow memory until the
// per-call time-out (up to 600 s) fires. Counted after decompression, so a small compressed bomb is cut too.

/** Most bytes one model response (a JSON body, a stream, an error page) may take; far above 8,192 tokens of JSON. */
export const MODEL_RESPONSE_MAX_BYTES = 8 * 1024 * 1024;

export class ResponseTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the endpoint's response was more than ${maxBytes} bytes (the limit for one model response); it was cut off`);
    this.name = 'ResponseTooLargeError';
  }
}

/** Statuses whose Response may carry no body (the constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export function boundedFetch(maxBytes: number = MODEL_RESPONSE_MAX_BYTES, base: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body || NULL_BODY_STATUSES.has(response.status)) return response;
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(maxBytes);
    }
    let seen = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          // Erroring the stream cancels the source, which closes the connection: nothing more is read.
          if (seen > maxBytes) controller.error(new ResponseTooLargeError(maxBytes));
          else controller.enqueue(chunk);
        },
      }),
    );
    const bounded = new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
    // The client reads the final URL (after redirects) from the response.
    Object.defineProperty(bounded, 'url', { value: response.url });
    Object.defineProperty(bounded, 'redirected', { value: response.redirected });
    return bounded;
  };
}
