import { exceeds, utcInstant, type AdmissionCheck } from './admission-input.js';

/** spec 000 §3 user cap: over the token cap → 402 `user_token_cap_exceeded` before any model call. */
export const userTokenCapCheck: AdmissionCheck = ({ userCap }) => {
  if (!userCap || userCap.monthlyTokens === null || !exceeds(userCap.tokens, userCap.monthlyTokens, userCap.strict)) return null;
  const used = (userCap.tokens.spent ?? 0).toLocaleString('en-US');
  const reset = userCap.resetsAt === null ? 'This cap does not reset.' : `It resets at ${utcInstant(userCap.resetsAt)}.`;
  const reserved = (userCap.tokens.spent ?? 0) < userCap.monthlyTokens ? ' Requests already in flight and this one could use the rest.' : '';
  return {
    status: 402,
    code: 'user_token_cap_exceeded',
    message: `Token cap reached for ${userCap.user}: ${used} of ${userCap.monthlyTokens.toLocaleString('en-US')} tokens used (${userCap.reset}).${reserved} ${reset}`,
    hint: `An administrator can raise monthlyTokens for ${userCap.user} (PATCH /admin/user-caps/:user), or wait for the reset.`,
  };
};
