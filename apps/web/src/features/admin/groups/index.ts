// The admin's groups: its pages, and the group pickers the other sub-features use.
export { AddUserPage } from './add-user-page';
export { CreateGroupPage } from './create-group-page';
export { GroupDetailPage } from './group-detail-page';
export { GroupsPage } from './groups-page';
export { useGroupMembers } from './api/list-group-members';
export {
  groupChoice,
  groupOptionsQuery,
  groupOptionsState,
  groupsHint,
  useGroupOptions,
  type GroupOption,
  type GroupOptionsState,
} from './api/list-group-options';
