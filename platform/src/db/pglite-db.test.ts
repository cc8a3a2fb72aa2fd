import { createMemoryPgliteDb } from '@gw/testkit';
import { describeDbSuite } from './db.suite.js';

describeDbSuite('PGlite (embedded)', createMemoryPgliteDb);
