import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';

const API_TARGET = process.env.SITEWATCH_API ?? 'http://localhost:8080';
/** Paths the dev server hands to the API server; everything else is the web app. */
const API_PATHS = ['/api', '/iotapp', '/helpdesk', '/notification', '/ifmapp', '/current-login', '/logout', '/app-version', '/health'];

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
    // The service worker (src/sw.ts, Workbox): precaches the shell and hashed assets; registered by
    // app/offline/service-worker.ts, which shows the "new version available" notice.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      manifest: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
        // The map's world atlas and other large, rarely used files are fetched when needed, not on install.
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
    }),
    // The server sends these precompressed siblings (brotli first, then gzip) instead of compressing per request.
    compression({
      include: /\.(js|css|html|svg|json|webmanifest|txt|map)$/,
      threshold: 512,
      algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
      deleteOriginalAssets: false,
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    // dist/.vite/manifest.json maps each source module to its chunk: the bundle budget check reads it (never served)
    manifest: true,
    // The login chunk has a budget (150 KB gzipped); warn early on anything big.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // Each file costs ~370 bytes of response headers: the app's small shared modules (lib/, contract constants) go
      // out as one chunk instead of a dozen tiny ones on the login page.
      output: {
        codeSplitting: {
          groups: [{ name: 'base', test: /apps[\\/]web[\\/]src[\\/]lib[\\/]|packages[\\/]contracts[\\/]src[\\/](constants|roles)\.ts/ }],
        },
      },
      treeshake: {
        // Building a zod schema has no side effects: without this, importing a constant such as ROLES from
        // @sitewatch/contracts would pull all of zod (18 KB gzipped) into the login page.
        manualPureFunctions: ['z'],
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      ...Object.fromEntries(API_PATHS.map((path) => [path, { target: API_TARGET, changeOrigin: false }])),
      '/ws': { target: API_TARGET, ws: true },
    },
  },
  preview: { port: 4173 },
});
