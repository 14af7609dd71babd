// Seed 001 "Move", "Dash" and "Movement", line by line: what a path and the move actions cost in Mobility points,
// against a Move (Mobility) or a Dash (twice Mobility).
import { describe, expect, it } from 'vitest';
import { costPath, parsePath, resolveMove, type MoveAction, type MoveInput } from '../../../../src/engine/systems/d100-tactics/movement.js';

const costOf = (path: string) => costPath(parsePath(path)).flatMap((run) => run.costs);
const move = (path: string, overrides: Partial<MoveInput> = {}) => resolveMove({ mobility: 10, dash: false, path: parsePath(path), actions: [], ...overrides });

describe('the cost of a path', () => {
  it('one point per square straight along the grid', () => {
    expect(costOf('4s')).toEqual([1, 1, 1, 1]);
    expect(move('7s').cost).toBe(7);
  });
  it('diagonals: 2 points for the first, 1 for the second, and repeat (three points per two diagonals)', () => {
    expect(costOf('5d')).toEqual([2, 1, 2, 1, 2]);
    for (const [diagonals, cost] of [[1, 2], [2, 3], [3, 5], [4, 6], [6, 9]] as const) expect(move(`${diagonals}d`).cost).toBe(cost);
  });
  it('the diagonal count runs through the whole move, across straight squares between them', () => {
    expect(costOf('1d 2s 1d 1d')).toEqual([2, 1, 1, 1, 2]);
  });
  it('rough terrain doubles the points to enter the square: a rough first diagonal 4, a rough second 2', () => {
    expect(costOf('2rs')).toEqual([2, 2]);
    expect(costOf('1d 1rd')).toEqual([2, 2]);
    expect(costOf('1rd 1d')).toEqual([4, 1]);
    expect(move('2s 1d 1rd 1rs').cost).toBe(1 + 1 + 2 + 2 + 2);
  });
});

describe('a Move and a Dash', () => {
  it('a Move (Core Action) may spend the Mobility score: equal fits, one over is too far', () => {
    expect(move('10s')).toMatchObject({ allowance: 10, cost: 10, left: 0, fits: true });
    expect(move('9s 1d')).toMatchObject({ cost: 11, left: -1, fits: false });
  });
  it('a Dash (Full Action) may spend twice the Mobility score', () => {
    expect(move('10s 6d', { dash: true })).toMatchObject({ allowance: 20, cost: 19, left: 1, fits: true });
    expect(move('21s', { dash: true })).toMatchObject({ allowance: 20, fits: false, left: -1 });
  });
  it('Mobility 0 cannot move a square', () => {
    expect(move('1s', { mobility: 0 })).toMatchObject({ allowance: 0, fits: false });
  });
});

describe('move actions during movement', () => {
  const actions = (...list: Array<[string, number]>): MoveAction[] => list.map(([name, cost]) => ({ name, cost }));
  it('cost Mobility points from the same allowance as the squares: equip 4, take 4, pick up a person 10, put down 2', () => {
    const result = move('2s', { mobility: 12, actions: actions(['equip', 4], ['take an item', 4], ['put a person down', 2]) });
    expect(result).toMatchObject({ pathCost: 2, actionsCost: 10, cost: 12, fits: true, left: 0 });
    expect(move('1s', { mobility: 10, actions: actions(['pick up a person', 10]) })).toMatchObject({ cost: 11, fits: false });
  });
  it('refuses a cost outside 0–100', () => {
    expect(() => move('1s', { actions: actions(['other move actions', 101]) })).toThrow('The cost of other move actions must be a whole number from 0 to 100');
  });
});

describe('reading a path', () => {
  it('runs of squares in order: count + s or d, r for rough; words too; a bare number is straight squares', () => {
    expect(parsePath('3s 2d 1rd 2rs')).toEqual([
      { kind: 'straight', rough: false, squares: 3 },
      { kind: 'diagonal', rough: false, squares: 2 },
      { kind: 'diagonal', rough: true, squares: 1 },
      { kind: 'straight', rough: true, squares: 2 },
    ]);
    expect(parsePath('3 straight, 2 rough diagonal')).toEqual(parsePath('3s 2rd'));
    expect(parsePath('4')).toEqual(parsePath('4s'));
    expect(parsePath('s d D')).toEqual([
      { kind: 'straight', rough: false, squares: 1 },
      { kind: 'diagonal', rough: false, squares: 1 },
      { kind: 'diagonal', rough: false, squares: 1 },
    ]);
  });
  it('refuses what it cannot read, an empty path and more than 200 squares, saying how to write one', () => {
    expect(() => parsePath('3x')).toThrow('could not be read at `x`');
    expect(() => parsePath('2r')).toThrow('e.g. `3s 2d 1rd 2rs`');
    expect(() => parsePath('  ')).toThrow('The path is empty');
    expect(() => parsePath('0s')).toThrow('The path is empty');
    expect(() => parsePath('150s 51d')).toThrow('A path is at most 200 squares.');
    expect(() => parsePath('99999999999999999999s')).toThrow('A path is at most 200 squares.');
  });
  it('refuses a Mobility outside 0–100', () => {
    expect(() => move('1s', { mobility: 101 })).toThrow('Mobility must be a whole number from 0 to 100; 101 is not.');
    expect(() => move('1s', { mobility: -1 })).toThrow('Mobility must be a whole number from 0 to 100');
  });
});
