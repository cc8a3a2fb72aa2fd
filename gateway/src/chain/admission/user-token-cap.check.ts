import { exceeds, usageAgainstLimit, utcInstant, type AdmissionCheck } from './admission-input.js';

/** User cap: over the token cap → 402 `user_token_cap_exceeded` before any model call. */
export const userTokenCapCheck: AdmissionCheck = ({ userCap }) => {
  if (!userCap || userCap.monthlyTokens === null || !exceeds(userCap.tokens, userCap.monthlyTokens, userCap.strict))
    return null;
  const usage = usageAgainstLimit(userCap.tokens, userCap.monthlyTokens, userCap.strict, (tokens) =>
    tokens.toLocaleString('en-US'),
  );
  const reset =
    userCap.resetsAt === null ? 'This cap does not reset.' : `It resets at ${utcInstant(userCap.resetsAt)}.`;
  return {
    status: 402,
    code: 'user_token_cap_exceeded',
    message: `Token cap reached for ${userCap.user}: ${usage} tokens${userCap.strict ? '' : ' used'} (${userCap.reset}). ${reset}`,
    hint: `An administrator can raise monthlyTokens for ${userCap.user} (PATCH /admin/user-caps/:user), or wait for the reset.`,
  };
};
