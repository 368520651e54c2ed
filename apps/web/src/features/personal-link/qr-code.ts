// Only the QR code's core (the matrix), not the package's canvas and SVG renderers: the kit draws
// the modules itself, on its picture's canvas and as the fridge note's SVG (decision 075).
import { create } from 'qrcode/lib/core/qrcode.js';

/** A QR code's modules: `dark(x, y)` for 0 ≤ x, y < size. */
export interface QrModules {
  size: number;
  dark: (x: number, y: number) => boolean;
}

/** Error correction M, as the catalogue's code (apps/server/src/modules/catalog/render-catalog-pdf.ts). */
export function qrModules(text: string): QrModules {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (x, y) => modules.get(y, x) !== 0 };
}

/** The dark modules as one SVG path, one unit a module: `M0 0h1v1h-1z…`. */
export function qrSvgPath(qr: QrModules): string {
  let path = '';
  for (let y = 0; y < qr.size; y++) {
    for (let x = 0; x < qr.size; x++) if (qr.dark(x, y)) path += `M${x} ${y}h1v1h-1z`;
  }
  return path;
}
