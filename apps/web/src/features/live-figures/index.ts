// The live-figures feature's public face: other features import only from here.
export { useLiveFigures } from './use-live-figures';
