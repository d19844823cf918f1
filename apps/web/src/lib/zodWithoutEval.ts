import { z } from 'zod';

// Imported first by the entry: zod 4 probes for `new Function` when a schema is defined, and the site's CSP reports
// that probe as a violation (script-src blocks eval). Without its compiled fast path, zod parses the same.
z.config({ jitless: true });
