// Builds the connectors page (page/) into dist/page, which startWeb serves. Preact through JSX's
// automatic runtime; no plugin: the page needs no fast refresh, only a bundle.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('./page/', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('./dist/page/', import.meta.url)),
    emptyOutDir: true,
    // The page is served from 127.0.0.1; a source map costs nothing and helps whoever debugs it.
    sourcemap: true,
  },
});
