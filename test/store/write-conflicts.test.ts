// A write conflict reaches `transaction()` in several shapes, depending on where PostgreSQL raised it; each must be
// run again (test/scale/write-conflicts.test.ts forces real ones), and nothing else may be.
import { describe, expect, it } from 'vitest';
import { isWriteConflict } from '../../src/store/database.js';

describe('a write conflict, as transaction() recognises it', () => {
  it('at a statement: Prisma’s P2034', () => {
    expect(isWriteConflict({ code: 'P2034', message: 'Transaction failed due to a write conflict or a deadlock' })).toBe(true);
  });

  it('at COMMIT: the adapter’s own error, with its kind or the SQLSTATE, however deeply wrapped', () => {
    expect(isWriteConflict(Object.assign(new Error('commit failed'), { cause: { kind: 'TransactionWriteConflict' } }))).toBe(true);
    expect(isWriteConflict({ name: 'DriverAdapterError', cause: { originalCode: '40001', kind: 'postgres' } })).toBe(true);
    expect(isWriteConflict({ code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: '40P01' } } } })).toBe(true);
  });

  it('not a unique clash, a timeout, or a plain error', () => {
    expect(isWriteConflict({ code: 'P2002' })).toBe(false);
    expect(isWriteConflict({ code: 'P2028' })).toBe(false);
    expect(isWriteConflict(new Error('40001 written in a message is not a code'))).toBe(false);
    expect(isWriteConflict(null)).toBe(false);
  });
});
