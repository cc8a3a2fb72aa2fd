import type { Clock, Db, Keyring, Logger } from '@gw/platform';
import type { ReportHttp } from '../../../providers/usage-reports/fetch-report-pages.js';
import { SpendConnectorSync } from './spend-connector-sync.js';
import { SpendConnectorStore } from './spend-connector.store.js';

export interface SpendConnectors {
  store: SpendConnectorStore;
  sync: SpendConnectorSync;
}

export const realReportHttp: ReportHttp = {
  fetch: (input, init) => fetch(input, init),
  sleep: (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)),
};

export function composeSpendConnectors(input: {
  db: Db;
  keyring: Keyring;
  clock: Clock;
  logger: Logger;
  http?: ReportHttp;
}): SpendConnectors {
  const store = new SpendConnectorStore(input.db, input.keyring, input.clock);
  return {
    store,
    sync: new SpendConnectorSync({
      store,
      http: input.http ?? realReportHttp,
      clock: input.clock,
      logger: input.logger,
    }),
  };
}
