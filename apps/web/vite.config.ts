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
 */
function inlineStylesheet(): Plugin {
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
          return `<style>${String(asset.source)}</style>`;
        });
      },
    },
  };
}

/**
 * The dashboard's chunk (and the chunks it imports) preloaded by index.html beside the entry's:
 * every session lands on the dashboard, which otherwise asks for its code only once the entry has
 * run, one more round trip before its first paint.
 */
function preloadDashboard(): Plugin {
  return {
    name: 'saljportalen:preload-dashboard',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle ?? {};
        const dashboard = Object.values(bundle).find(
          (chunk) => chunk.type === 'chunk' && chunk.facadeModuleId?.endsWith('/src/features/dashboard/dashboard-page.tsx'),
        );
        if (!dashboard || dashboard.type !== 'chunk') return html;
        const files = [dashboard.fileName, ...dashboard.imports].filter((file) => !html.includes(`/${file}"`));
        const links = files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ');
        return html.replace('</head>', `  ${links}\n  </head>`);
      },
    },
  };
}

export default defineConfig({
  plugins: [
    inlineStylesheet(),
    preloadDashboard(),
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
        // The API, the personal-link redirects and downloads always go to the network.
        navigateFallbackDenylist: [/^\/api\//, /^\/s\//],
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
      },
    }),
  ],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  // 127.0.0.1: the demo's server listens there only (not on ::1, which localhost may resolve to first).
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/s/': 'http://127.0.0.1:3000' } },
  build: { target: 'es2022', sourcemap: false },
});
