import { formatUsd, fromMicros, limitMicros } from '../../governance/money.js';
import { exceeds, usageAgainstLimit, utcInstant, type AdmissionCheck } from './admission-input.js';

/**
 * The contract, service key: month-to-date successful cost at or over `monthlyBudgetUsd` → 402
 * `service_key_budget_exceeded` until the next UTC month; the message tells an admin what to do.
 */
export const serviceKeyBudgetCheck: AdmissionCheck = ({ serviceKeyBudget: budget }) => {
  if (!budget || !exceeds(budget.costMicros, limitMicros(budget.monthlyBudgetUsd), budget.strict)) return null;
  const usage = usageAgainstLimit(budget.costMicros, limitMicros(budget.monthlyBudgetUsd), budget.strict, (micros) =>
    formatUsd(fromMicros(micros)),
  );
  return {
    status: 402,
    code: 'service_key_budget_exceeded',
    message:
      `Service key "${budget.name}" has reached its monthly budget: ${usage}${budget.strict ? '' : ' spent'} this UTC month. ` +
      `An administrator can raise the key's monthlyBudgetUsd, or wait for the next UTC month (${utcInstant(budget.resetsAt)}).`,
    hint: `Raise monthlyBudgetUsd of service key ${budget.keyId} (PATCH /admin/v1/keys/${budget.keyId}) or wait until ${utcInstant(budget.resetsAt)}.`,
  };
};
