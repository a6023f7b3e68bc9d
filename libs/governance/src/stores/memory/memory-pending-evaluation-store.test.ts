import { describePendingEvaluationStoreContract } from '../../testing/contracts/pending-evaluation-store-contract.js';
import { MemoryPendingEvaluationStore } from './memory-pending-evaluation-store.js';

describePendingEvaluationStoreContract('MemoryPendingEvaluationStore', () =>
  Promise.resolve({ store: new MemoryPendingEvaluationStore() }),
);
