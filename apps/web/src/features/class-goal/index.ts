// The class goal feature's public face (issue 20): other features import only from here.
export { GoalForm } from './components/goal-form';
export { GoalProgress } from './components/goal-progress';
export { PersonalGoalCard } from './components/personal-goal-card';
