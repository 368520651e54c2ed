import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    VitePWA({
      // An external registration script: the CSP allows no inline script.
      injectRegister: 'script-defer',
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
  server: { proxy: { '/api': 'http://localhost:3000', '/s/': 'http://localhost:3000' } },
  build: { target: 'es2022', sourcemap: false },
});
