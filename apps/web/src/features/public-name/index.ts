// The public-name form (a seller's own, or a guardian's for their child): other features import only from here.
export { PublicNameForm } from './components/public-name-form';
