import { isDataRejection } from '@gw/platform';
import { optimizerErrors } from '../errors.js';

/**
 * Runs a write of what a request sent. The body's schema is meant to keep out what the store cannot hold; should a
 * value still be refused (SQLSTATE 22/23), that is the caller's data: a 400 naming the body, never a 500.
 */
export async function writeCallerData<T>(work: () => Promise<T>, body: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isDataRejection(error)) throw optimizerErrors.invalidRequest(`the store refused a value of this ${body}`);
    throw error;
  }
}
