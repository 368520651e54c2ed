/**
 * How long one personal catalogue takes to draw (budget: p50 ≤ 300 ms), on a catalogue shaped
 * like the shop's: twelve products, a third with pictures. Prints figures; asserts nothing.
 *   node --import tsx bench/catalog-pdf.ts [runs] [out.pdf]
 */
import fs from 'node:fs';
import QRCode from 'qrcode';
import { renderCatalogPdf } from '../apps/server/src/modules/catalog/render-catalog-pdf.js';

const runs = Number(process.argv[2] ?? 50);
const picture = await QRCode.toBuffer('produktbild', { type: 'png', width: 400, color: { dark: '#2a7a4b' } });
const products = Array.from({ length: 12 }, (_, i) => ({
  title: `Hållbar produkt nr ${i + 1} – återvunnen och ekologisk`,
  description: 'Tillverkad i Sverige av förnybart material. Håller länge, går att laga och återvinna när den är slut.',
  priceOre: 5_900 + i * 1_000,
  image: i % 3 === 0 ? picture : null,
}));
const data = {
  sellerName: 'Åsa Öberg',
  groupName: 'Klass 6B Björkskolan',
  personalLink: 'https://saljportalen.example.se/s/K7M2Q9XA',
  createdAt: new Date(),
  products,
};

await renderCatalogPdf(data);
const timings: number[] = [];
let pdf = Buffer.alloc(0);
for (let i = 0; i < runs; i++) {
  const start = performance.now();
  pdf = await renderCatalogPdf(data);
  timings.push(performance.now() - start);
}
timings.sort((a, b) => a - b);
const at = (share: number) => timings[Math.min(timings.length - 1, Math.floor(share * timings.length))]!.toFixed(1);
console.log(`katalog-PDF: ${runs} körningar, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms, ${(pdf.length / 1024).toFixed(0)} kB`);
if (process.argv[3]) fs.writeFileSync(process.argv[3], pdf);
