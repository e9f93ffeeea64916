import { describe, expect, it } from 'vitest';
import { numberPlaceholders } from './bound-query.js';

describe('numberPlaceholders', () => {
  it('numbers ? in order, leaving quoted text and ?? alone', () => {
    expect(numberPlaceholders(`select ? , "a?" , 'b?' , ?::uuid[] , x ?? y, ?`)).toBe(
      `select $1 , "a?" , 'b?' , $2::uuid[] , x ? y, $3`,
    );
    expect(numberPlaceholders('select 1')).toBe('select 1');
  });
});
