export {
  RestartPolicy,
  defaultRestartPolicy,
  type RestartDecision,
  type RestartPolicyOptions,
} from './restart-policy.js';
export { Supervisor, type SupervisedChild, type SupervisedComponent, type SupervisorOptions } from './supervisor.js';
