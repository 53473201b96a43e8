import { z } from 'zod';

// zod probes for `new Function` to compile fast parsers; under the app's CSP (no 'unsafe-eval') that probe is
// reported as a violation on every page. Set before any schema module loads (main.tsx imports this first).
z.config({ jitless: true });
