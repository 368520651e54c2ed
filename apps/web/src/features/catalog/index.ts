// The catalog feature's public face: other features import only from here.
export { CatalogCard } from './components/catalog-card';
