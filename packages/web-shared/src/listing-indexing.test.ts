import { describe, expect, it } from 'vitest';
import { listingIndexing } from './listing-indexing';

const params = (search: string) => new URLSearchParams(search);

describe('listingIndexing', () => {
  it('indexes the browse and category pages and their further pages', () => {
    expect(listingIndexing(null, params(''))).toEqual({ indexable: true, builder: null, canonicalSearch: '' });
    expect(listingIndexing('yachts', params('cursor=x&gclid=1'))).toEqual({ indexable: true, builder: null, canonicalSearch: '?cursor=x' });
  });

  it('indexes one builder across categories, trimmed', () => {
    expect(listingIndexing(null, params('builder=%20Hallberg-Rassy%20'))).toEqual({
      indexable: true,
      builder: 'Hallberg-Rassy',
      canonicalSearch: '?builder=Hallberg-Rassy',
    });
  });

  it('does not index any other choice', () => {
    for (const [category, search] of [
      ['yachts', 'builder=Princess'],
      [null, 'builder=A,B'],
      [null, 'builder=A&yearMin=2018'],
      [null, 'q=ketch'],
      [null, 'available=1'],
      [null, 'vatPaid=1'],
      ['sailing-boats', 'sort=year'],
      [null, 'cabinsMin=2'],
    ] as const) {
      expect(listingIndexing(category, params(search)), `${category} ${search}`).toEqual({ indexable: false });
    }
  });
});
