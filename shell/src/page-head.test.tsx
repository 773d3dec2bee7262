import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter, useNavigate } from 'react-router-dom';
import { SHOP_TITLE, usePageHeadAfterNavigation, writeIndexingHead } from './page-head';

const ORIGIN = 'https://boats.example';
const robots = () => document.head.querySelector<HTMLMetaElement>('meta[name="robots"]')?.content ?? null;
const canonical = () => document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href ?? null;

afterEach(() => {
  cleanup();
  document.head.innerHTML = '';
});

describe('writeIndexingHead', () => {
  it('marks a filter combination noindex, follow and drops the canonical link', () => {
    document.head.innerHTML = '<link rel="canonical" href="https://boats.example/search/yachts">';
    writeIndexingHead('/search/yachts', '?lengthMin=15&lengthMax=25&yearMin=2018', ORIGIN);
    expect(robots()).toBe('noindex, follow');
    expect(canonical()).toBeNull();
  });

  it('gives a builder page and a category page their canonical URL and no robots rule', () => {
    document.head.innerHTML = '<meta name="robots" content="noindex, follow">';
    writeIndexingHead('/search', '?builder=Cap%20Ferrand&utm_source=x', ORIGIN);
    expect(robots()).toBeNull();
    expect(canonical()).toBe('https://boats.example/search?builder=Cap+Ferrand');
    writeIndexingHead('/search/sailing-boats', '', ORIGIN);
    expect(canonical()).toBe('https://boats.example/search/sailing-boats');
  });

  it('leaves no robots rule or canonical link of the landing page on another page', () => {
    document.head.innerHTML = '<meta name="robots" content="noindex, follow"><link rel="canonical" href="https://boats.example/search">';
    writeIndexingHead('/product/42', '', ORIGIN);
    expect(robots()).toBeNull();
    expect(canonical()).toBeNull();
  });
});

describe('usePageHeadAfterNavigation', () => {
  it('keeps the server’s head on landing, then follows each facet choice', () => {
    document.head.innerHTML = '<link rel="canonical" href="https://boats.example/search/yachts">';
    document.title = 'Yachts for sale | Boat shop';
    let navigate: ReturnType<typeof useNavigate> = () => undefined;
    function Probe() {
      usePageHeadAfterNavigation();
      navigate = useNavigate();
      return null;
    }
    render(
      <MemoryRouter initialEntries={['/search/yachts']}>
        <Probe />
      </MemoryRouter>,
    );
    expect(canonical()).toBe('https://boats.example/search/yachts');
    expect(robots()).toBeNull();
    act(() => void navigate('/search/yachts?yearMin=2018'));
    expect(robots()).toBe('noindex, follow');
    expect(canonical()).toBeNull();
    // The same page with other choices keeps its title; another page gets the shop's.
    expect(document.title).toBe('Yachts for sale | Boat shop');
    act(() => void navigate('/search?builder=Halvard'));
    expect(robots()).toBeNull();
    expect(canonical()).toBe(`${window.location.origin}/search?builder=Halvard`);
    expect(document.title).toBe(SHOP_TITLE);
  });
});
