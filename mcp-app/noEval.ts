// Imported first by main.ts: zod compiles parsers with `new Function` unless told not to, and its one-time probe for
// eval would trip the view's CSP (no 'unsafe-eval') while the SDK's modules load. App sets the same flag, but only
// in its constructor, after schemas have already been parsed.
import { z } from 'zod/v4';

z.config({ jitless: true });
