import { z } from 'zod';

export const cliStartResponse = z.object({
  id: z.string().describe('The session id to poll'),
  browser_url: z.string().describe('Open this in a browser and sign in; the page asks for the user code'),
  user_code: z.string().describe('Shown to the developer, typed into the browser page (not part of browser_url)'),
  poll_secret: z
    .string()
    .describe('Send as x-gw-poll-secret on every poll; returned once and stored only as a salted hash'),
  interval: z.number().int().describe('Seconds to wait between polls'),
  expires_in: z.number().int().describe('Seconds until the session ends (600)'),
});

export const cliPollResponse = z.discriminatedUnion('status', [
  z
    .object({ status: z.literal('pending'), interval: z.number().int() })
    .describe('The developer has not finished the browser step yet'),
  z
    .object({
      status: z.literal('select_team'),
      teams: z.array(z.string()).describe('The teams this developer may join'),
      defaultTeam: z.string().nullable(),
    })
    .describe('Signed in; more than one team is open: poll again with the choice in x-gw-team'),
  z
    .object({
      status: z.literal('complete'),
      key: z.string().describe('The client key, shown this once'),
      keyId: z.string(),
      user: z.string(),
      team: z.string(),
      role: z.string().describe('The role the organization resolved for this developer'),
      expiresAt: z.string(),
    })
    .describe('The key was minted; the session is over and a further poll answers 404'),
]);
