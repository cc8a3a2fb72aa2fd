/**
 * Index of the first message of the fresh turn: the trailing run of non-assistant messages (a user message, or the
 * tool results the model is about to read), together with any trailing assistant prefill. With no assistant message
 * at all the whole conversation is fresh (a first turn has no settled history).
 */
export function findFreshStart(count: number, isAssistant: (index: number) => boolean): number {
  let index = count - 1;
  while (index >= 0 && isAssistant(index)) index -= 1;
  while (index >= 0 && !isAssistant(index)) index -= 1;
  return index + 1;
}

/** A shell agent's observation turn (mini-swe-agent style): `<returncode>N</returncode>` then the output. */
const observationPattern = /^<returncode>-?\d+<\/returncode>\s*\n/;

export function isObservationText(text: string): boolean {
  return observationPattern.test(text);
}
