import { formatUsd, fromMicros, limitMicros } from '../../governance/money.js';
import { exceeds, usageAgainstLimit, utcInstant, type AdmissionCheck } from './admission-input.js';

/** User cap: over the USD budget → 402 `user_budget_exceeded` before any model call. */
export const userBudgetCheck: AdmissionCheck = ({ userCap }) => {
  if (!userCap || userCap.maxUsd === null || !exceeds(userCap.costMicros, limitMicros(userCap.maxUsd), userCap.strict))
    return null;
  const usage = usageAgainstLimit(userCap.costMicros, limitMicros(userCap.maxUsd), userCap.strict, (micros) =>
    formatUsd(fromMicros(micros)),
  );
  const reset =
    userCap.resetsAt === null ? 'This budget does not reset.' : `It resets at ${utcInstant(userCap.resetsAt)}.`;
  return {
    status: 402,
    code: 'user_budget_exceeded',
    message: `USD budget reached for ${userCap.user}: ${usage}${userCap.strict ? '' : ' spent'} (${userCap.reset}). ${reset}`,
    hint: `An administrator can raise maxUsd for ${userCap.user} (PATCH /admin/user-caps/:user), or wait for the reset.`,
  };
};
