// The qrcode package's core alone (the matrix, without the renderers of its browser entry): the
// same `create` as the package's own, typed by @types/qrcode (decision 075).
declare module 'qrcode/lib/core/qrcode.js' {
  export { create } from 'qrcode';
}
