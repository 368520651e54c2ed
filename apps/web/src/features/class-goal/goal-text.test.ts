import { describe, expect, it } from 'vitest';
import { daysLeftText, earnedText, equalShare, percentOf } from './goal-text';

describe('goal texts', () => {
  it('rounds the share reached down, and goes past 100 % when the class sells more', () => {
    expect(percentOf(0, 15000)).toBe(0);
    expect(percentOf(14999, 15000)).toBe(99);
    expect(percentOf(15000, 15000)).toBe(100);
    expect(percentOf(30000, 15000)).toBe(200);
    expect(percentOf(-10, 15000)).toBe(0);
  });

  it('says the progress as what is earned (commission) of the goal, in Swedish', () => {
    expect(earnedText(8734, 60000)).toBe('8\u00a0734\u00a0kr intjänat av 60\u00a0000\u00a0kr (14 %)');
    expect(earnedText(0, 15000)).toBe('0\u00a0kr intjänat av 15\u00a0000\u00a0kr (0 %)');
    expect(earnedText(16000, 15000)).toBe('16\u00a0000\u00a0kr intjänat av 15\u00a0000\u00a0kr (106 %)');
  });

  it('says the days left in Swedish', () => {
    expect(daysLeftText({ days_left: 30, ends_on: '2026-12-26' }, '2026-11-26')).toBe('30 dagar kvar');
    expect(daysLeftText({ days_left: 1, ends_on: '2026-11-27' }, '2026-11-26')).toBe('1 dag kvar');
    expect(daysLeftText({ days_left: 0, ends_on: '2026-11-26' }, '2026-11-26')).toBe('Sista dagen idag');
    expect(daysLeftText({ days_left: 0, ends_on: '2026-11-20' }, '2026-11-26')).toBe('Insamlingen har avslutats');
  });

  it('splits the goal equally, rounded up to whole kronor', () => {
    expect(equalShare(15000, 12)).toBe(1250);
    expect(equalShare(10000, 3)).toBe(3334);
    expect(equalShare(10000, 0)).toBeNull();
  });
});
