import { describeApprovalTicketStoreContract } from '../../testing/contracts/approval-ticket-store-contract.js';
import { MemoryApprovalTicketStore } from './memory-approval-ticket-store.js';

describeApprovalTicketStoreContract('MemoryApprovalTicketStore', () =>
  Promise.resolve({ store: new MemoryApprovalTicketStore() }),
);
