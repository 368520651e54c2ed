// The group switcher's public face: app/ and other features import only from here.
export { GroupSwitcher } from './components/group-switcher';
