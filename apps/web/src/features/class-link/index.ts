// The class link, its poster and the teacher's text for buyers (issue 32): other features import only from here.
export { ClassLinkCard } from './components/class-link-card';
