import type { ShareImageLines } from './share-kit-texts';
import type { QrModules } from './qr-code';

/** Instagram's and Facebook's square post: 1080 × 1080 pixels (decision 075). */
export const SHARE_IMAGE_SIZE = 1080;

// The app's own colours (styles.css): brand green on white is 7.5:1, muted slate 7.6:1.
const BRAND = '#065f46';
const INK = '#0f172a';
const MUTED = '#475569';
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const MONO = 'ui-monospace, Menlo, Consolas, monospace';

const QR_SIZE = 440;
const QR_TOP = 400;
const TEXT_WIDTH = 900;

/** `text` broken into at most `max` lines of `width`, the last one cut with an ellipsis if need be. */
function wrap(context: CanvasRenderingContext2D, text: string, width: number, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const tried = line ? `${line} ${word}` : word;
    if (context.measureText(tried).width <= width || !line) line = tried;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= max) return lines;
  let last = lines[max - 1]!;
  while (last && context.measureText(`${last}…`).width > width) last = last.slice(0, -1);
  return [...lines.slice(0, max - 1), `${last.trimEnd()}…`];
}

function text(context: CanvasRenderingContext2D, value: string, y: number, font: string, colour: string): void {
  context.font = font;
  context.fillStyle = colour;
  context.fillText(value, SHARE_IMAGE_SIZE / 2, y, TEXT_WIDTH);
}

/**
 * Draws the square picture for social media (issue 32 point 4): the class goal or a general appeal
 * above a large QR code of the personal link, whose link, the last day and the name for buyers
 * are below it. Drawn in the browser (decision 075): no server round trip, the system's own fonts.
 */
export function drawShareImage(canvas: HTMLCanvasElement, lines: ShareImageLines, qr: QrModules, link: string): void {
  canvas.width = SHARE_IMAGE_SIZE;
  canvas.height = SHARE_IMAGE_SIZE;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  context.fillStyle = BRAND;
  context.fillRect(0, 0, SHARE_IMAGE_SIZE, SHARE_IMAGE_SIZE);
  context.fillStyle = '#ffffff';
  // Rounded corners where the canvas can (roundRect: Safari 16, Chrome 99), square before that.
  if (typeof context.roundRect === 'function') {
    context.beginPath();
    context.roundRect(40, 40, SHARE_IMAGE_SIZE - 80, SHARE_IMAGE_SIZE - 80, 36);
    context.fill();
  } else context.fillRect(40, 40, SHARE_IMAGE_SIZE - 80, SHARE_IMAGE_SIZE - 80);
  context.textAlign = 'center';
  context.textBaseline = 'alphabetic';

  text(context, lines.heading, 120, `600 40px ${FONT}`, BRAND);
  context.font = `700 56px ${FONT}`;
  const headline = wrap(context, lines.headline, TEXT_WIDTH, lines.target ? 2 : 3);
  headline.forEach((line, index) => text(context, line, 190 + index * 65, `700 56px ${FONT}`, INK));
  if (lines.target) text(context, lines.target, 190 + headline.length * 65 + 10, `600 42px ${FONT}`, BRAND);

  // Whole pixels a module, centred, on the card's white (the quiet zone around it is white too).
  const module = Math.floor(QR_SIZE / qr.size);
  const left = Math.round((SHARE_IMAGE_SIZE - module * qr.size) / 2);
  const top = QR_TOP + Math.round((QR_SIZE - module * qr.size) / 2);
  context.fillStyle = '#000000';
  for (let y = 0; y < qr.size; y++) {
    for (let x = 0; x < qr.size; x++) if (qr.dark(x, y)) context.fillRect(left + x * module, top + y * module, module, module);
  }

  let y = QR_TOP + QR_SIZE + 70;
  text(context, lines.call, y, `700 42px ${FONT}`, INK);
  if (lines.lastDay) {
    y += 52;
    text(context, lines.lastDay, y, `500 34px ${FONT}`, MUTED);
  }
  text(context, link.replace(/^https?:\/\//, ''), Math.max(y + 50, 990), `500 28px ${MONO}`, MUTED);
}

export const canvasPng = (canvas: HTMLCanvasElement): Promise<Blob> =>
  new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no png'))), 'image/png'));
