import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * Brotli and gzip copies beside every built script and style sheet, which the server sends as they
 * are (@fastify/static `preCompressed`): a phone on a slow network downloads a fifth of the bytes,
 * and no request spends CPU compressing.
 */
function precompressAssets(): Plugin {
  let outDir = '';
  return {
    name: 'saljportalen:precompress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle).filter((name) => /\.(js|css)$/.test(name))) {
        const file = path.join(outDir, fileName);
        const bytes = fs.readFileSync(file);
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

/**
 * The app's style sheet inside index.html instead of beside it: the first paint (the page frame in
 * index.html) needs no second request, so a phone on a slow network shows it while the scripts are
 * still on their way. The CSP allows inline styles (decision 004), never inline scripts.
 *
 * There is one style sheet (`cssCodeSplit: false`, uPlot's 0.5 KB gzip included): with a style
 * sheet per chunk, every chunk that imports a module of the entry had the entry's style sheet on
 * its preload list, and Vite's loader fetched it again (index.html holds it, not a <link>) and
 * held the app and the dashboard's code back until it had arrived (decision 045). The build fails
 * if a script names a style sheet that index.html holds.
 */
function inlineStylesheet(): Plugin {
  const inlined = new Set<string>();
  return {
    name: 'saljportalen:inline-stylesheet',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (link, fileName: string) => {
          const asset = context.bundle?.[fileName];
          if (!asset || asset.type !== 'asset') return link;
          inlined.add(fileName);
          return `<style>${String(asset.source)}</style>`;
        });
      },
    },
    writeBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const named = [...inlined].filter((fileName) => chunk.code.includes(fileName));
        if (named.length > 0) throw new Error(`${chunk.fileName} hämtar ${named.join(', ')}, som index.html redan har`);
      }
    },
  };
}

/**
 * The app's code (src/app/start.tsx, which the small entry imports once it has started the
 * dashboard's calls), with the chunks it imports, preloaded by index.html beside the entry's:
 * every page needs it, and it then travels from the first moment. The dashboard's own chunks are
 * asked for by the entry when it starts the dashboard's calls, so that /login does not download
 * them (decision 045).
 */
function preloadApp(): Plugin {
  const modules = ['/src/app/start.tsx'];
  return {
    name: 'saljportalen:preload-app',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle ?? {};
        const files = new Set<string>();
        // A chunk and every chunk it imports statically, however deep.
        const add = (file: string) => {
          const chunk = bundle[file];
          if (files.has(file) || chunk?.type !== 'chunk') return;
          files.add(file);
          chunk.imports.forEach(add);
        };
        for (const module of modules) {
          const chunk = Object.values(bundle).find((candidate) => candidate.type === 'chunk' && candidate.facadeModuleId?.endsWith(module));
          if (!chunk) throw new Error(`${module} finns inte i bygget`);
          add(chunk.fileName);
        }
        const links = [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
          .join('\n    ');
        return html.replace('</head>', `  ${links}\n  </head>`);
      },
    },
  };
}

export default defineConfig({
  plugins: [
    inlineStylesheet(),
    preloadApp(),
    precompressAssets(),
    react(),
    tailwindcss(),
    VitePWA({
      // The app registers the service worker itself once the first page is drawn
      // (src/app/service-worker.ts), not while it loads.
      injectRegister: false,
      registerType: 'autoUpdate',
      includeAssets: ['favicon.svg', 'icons/*.png'],
      manifest: {
        name: 'Säljportalen',
        short_name: 'Säljportalen',
        description: 'Sälj hållbara produkter för klassen eller föreningen via din personliga länk.',
        lang: 'sv',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        background_color: '#f8faf9',
        theme_color: '#065f46',
        icons: [
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The API, the buyer pages of personal and class links and downloads always go to the network.
        navigateFallbackDenylist: [/^\/api\//, /^\/s\//, /^\/k\//],
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
      },
    }),
  ],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  // 127.0.0.1: the demo's server listens there only (not on ::1, which localhost may resolve to first).
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/s/': 'http://127.0.0.1:3000', '/k/': 'http://127.0.0.1:3000' } },
  build: {
    target: 'es2022',
    sourcemap: false,
    // One style sheet, inside index.html (inlineStylesheet).
    cssCodeSplit: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The libraries every page starts with in one chunk instead of a dozen: fewer requests
          // and one gzip stream (about 4 KB less for /login and /dashboard, decision 045). Only
          // these: a library the admin area alone uses stays in its chunks.
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|tailwind-merge|clsx|class-variance-authority|@radix-ui[\\/]react-(slot|compose-refs))[\\/]/,
            },
          ],
        },
      },
    },
  },
});
