import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { RecordedRequest } from '../core/request-log.js';
import type { Turn } from '../core/responder.js';
import type { SimulatorContext } from '../core/simulator.js';

type Json = Record<string, unknown>;

/** One OpenAI-family operation the simulator answers: the request, where to answer, and the turn it plays. */
export interface OperationCall {
  request: RecordedRequest;
  response: ServerResponse;
  context: SimulatorContext;
  turn: Turn;
  headers: OutgoingHttpHeaders;
  body: Json;
  model: string;
  embeddingDimensions: number | undefined;
}
