// The account feature's public face: other features import only from here.
export { PublicNameForm } from './components/public-name-form';
