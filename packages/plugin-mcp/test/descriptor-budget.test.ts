// A stdio start when the process has no descriptor left (EMFILE), and the budget that keeps starts
// within the open-files limit. The exhaustion is real: this process opens /dev/null until the
// kernel refuses, starts a server, and closes them again before anything else runs.
import { closeSync, openSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DescriptorBudget, descriptorBudget, RESERVE } from '../src/transport/descriptor-budget.js';
import { StdioTransport } from '../src/transport/stdio.js';
import { serverLaunch } from './stdio-helpers.js';

/** Opens /dev/null until EMFILE; returns what it opened, for the caller to close. */
function exhaustDescriptors(): number[] {
  const held: number[] = [];
  for (;;) {
    try {
      held.push(openSync('/dev/null', 'r'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EMFILE') return held;
      for (const fd of held) closeSync(fd);
      throw error;
    }
  }
}

describe('stdio start out of descriptors', () => {
  it('EMFILE at spawn is that server’s too_many_open_files failure, and its slot comes back', async () => {
    const transport = new StdioTransport({ server: serverLaunch() });
    const before = descriptorBudget.held;
    const held = exhaustDescriptors();
    let started: Promise<void>;
    try {
      started = transport.start();
    } finally {
      for (const fd of held) closeSync(fd);
    }
    const error = await started.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toMatchObject({ code: 'too_many_open_files', server: 'fixture' });
    expect((error as Error).message).toMatch(/EMFILE: too many open files/);
    expect((error as Error).message).toContain('ulimit -n');
    expect(transport.pid).toBeUndefined();
    expect(descriptorBudget.held).toBe(before);
    await transport.close();
  });
});

describe('DescriptorBudget', () => {
  it('sizes itself from the measured first spawn and refuses a start beyond the limit', () => {
    // A limit that leaves room for exactly two starts of three descriptors each, past the reserve.
    const inUse = readdirSync('/proc/self/fd').length;
    const budget = new DescriptorBudget(inUse + RESERVE + 2 * 3);
    const opened: number[] = [];
    const first = budget.take();
    first?.spawn(() => {
      for (let i = 0; i < 3; i += 1) opened.push(openSync('/dev/null', 'r'));
    });
    try {
      expect(budget.capacity).toBe(2);
      const second = budget.take();
      expect(second).toBeDefined();
      expect(budget.take()).toBeUndefined();
      second?.release();
      second?.release(); // idempotent: gives back one slot, not two
      expect(budget.held).toBe(1);
      expect(budget.take()).toBeDefined();
      expect(budget.take()).toBeUndefined();
    } finally {
      for (const fd of opened) closeSync(fd);
    }
  });
});
