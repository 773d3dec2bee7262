import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product, ProductPicture } from '@boatshop/contract';
import '../test/dialog-polyfill';
import { moved, refusalOf } from '../pictures/pictures';
import { PicturesDialog } from './pictures-dialog';

const PRODUCT: Product = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Contessa 32',
  thumbnailUrl: '/api/images/sailing-1.svg',
  priceCents: 4_500_000,
  descriptionHtml: '',
  category: 'sailing-boats',
  createdAt: '2024-03-05T10:00:00.000Z',
  stock: 1,
  availability: 'in_stock',
};

const picture = (n: number, alt = ''): ProductPicture => ({
  id: `${n}${n}${n}${n}${n}${n}${n}${n}-0000-4000-8000-000000000000`,
  alt,
  src: `/api/pictures/p-${n}.jpg`,
  width: 1600,
  height: 1200,
  placeholder: null,
  variants: [],
});

let pictures: ProductPicture[];
let calls: { method: string; url: string; body: unknown }[];
let slowFirstOrder = false;

/** A stand-in XMLHttpRequest: reports progress in two steps, then the API's answer. */
class FakeXhr {
  static sent: { url: string; headers: Record<string, string>; body: FormData }[] = [];
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  private url = '';
  private headers: Record<string, string> = {};
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    FakeXhr.sent.push({ url: this.url, headers: this.headers, body });
    const file = body.get('file') as File;
    setTimeout(() => this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 }), 0);
    setTimeout(() => {
      if (file.name === 'notes.jpg') {
        this.status = 415;
        this.responseText = JSON.stringify({
          error: { code: 'UNSUPPORTED_PICTURE', message: 'Upload a JPEG, PNG, WebP or AVIF picture (this file is not a picture)' },
        });
      } else {
        this.status = 201;
        const added = picture(pictures.length + 1, file.name);
        pictures = [...pictures, added];
        this.responseText = JSON.stringify(added);
      }
      this.onload?.();
    }, 20);
  }
  abort() {
    this.onabort?.();
  }
}

beforeEach(() => {
  pictures = [picture(1, 'Under sail'), picture(2, 'Saloon'), picture(3)];
  calls = [];
  slowFirstOrder = false;
  FakeXhr.sent = [];
  document.cookie = 'csrf=test-token';
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      if (call.method === 'PUT' && url.endsWith('/pictures/order')) {
        // The first save is slow on the wire: a later one sent at once would overtake it.
        if (slowFirstOrder && calls.filter((c) => c.url.endsWith('/pictures/order')).length === 1) {
          await new Promise((resolve) => setTimeout(resolve, 60));
        }
        const ids = (call.body as { ids: string[] }).ids;
        pictures = ids.map((id) => pictures.find((p) => p.id === id)!);
        return Response.json({ data: pictures });
      }
      if (call.method === 'PUT') {
        const id = url.split('/').at(-1)!;
        const saved = { ...pictures.find((p) => p.id === id)!, alt: (call.body as { alt: string }).alt };
        return Response.json(saved);
      }
      if (call.method === 'DELETE') return new Response(null, { status: 204 });
      return Response.json({ data: pictures });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const altsShown = () =>
  within(screen.getByRole('list', { name: /in the order shoppers see them/ }))
    .getAllByRole('textbox')
    .map((box) => (box as HTMLInputElement).value);

describe('the pictures dialog', () => {
  it('uploads several dropped files at once, each with its own progress bar and outcome', async () => {
    render(<PicturesDialog product={PRODUCT} onClose={() => {}} />);
    await screen.findByText('Picture 1 (card picture) · 1600 × 1200');
    const files = [
      new File(['a'], 'deck.jpg', { type: 'image/jpeg' }),
      new File(['b'], 'notes.jpg', { type: 'image/jpeg' }),
      new File(['c'], 'plan.pdf', { type: 'application/pdf' }),
    ];
    fireEvent.drop(screen.getByTestId('picture-drop-zone'), { dataTransfer: { files } });

    expect(await screen.findByRole('progressbar', { name: 'deck.jpg upload progress' })).toBeDefined();
    await waitFor(() => expect(screen.getByText(/^Done/)).toBeDefined());
    expect(screen.getByText(/Failed: Upload a JPEG, PNG, WebP or AVIF picture \(this file is not a picture\)/)).toBeDefined();
    // Refused in the browser already: never sent.
    expect(screen.getByText('Failed: Choose a JPEG, PNG, WebP or AVIF picture')).toBeDefined();
    expect(FakeXhr.sent.map((sent) => (sent.body.get('file') as File).name)).toEqual(['deck.jpg', 'notes.jpg']);
    expect(FakeXhr.sent[0]!.headers['x-csrf-token']).toBe('test-token');
    expect(FakeXhr.sent[0]!.url).toBe(`/api/admin/products/${PRODUCT.id}/pictures`);
    expect((screen.getByRole('progressbar', { name: 'deck.jpg upload progress' }) as HTMLProgressElement).value).toBe(1);
    expect(altsShown()).toEqual(['Under sail', 'Saloon', '', 'deck.jpg']);
  });

  it('reorders from the keyboard (buttons and Alt+Arrow) and saves the whole order each time', async () => {
    render(<PicturesDialog product={PRODUCT} onClose={() => {}} />);
    await screen.findByText('Picture 1 (card picture) · 1600 × 1200');
    fireEvent.click(screen.getByRole('button', { name: 'Move up picture 2' }));
    await waitFor(() => expect(altsShown()).toEqual(['Saloon', 'Under sail', '']));
    expect(screen.getByRole('status').textContent).toBe('Saloon moved to position 1 of 3.');
    fireEvent.keyDown(screen.getByRole('button', { name: 'Move down picture 2' }), { key: 'ArrowDown', altKey: true });
    await waitFor(() => expect(altsShown()).toEqual(['Saloon', '', 'Under sail']));
    const [one, two, three] = [picture(1).id, picture(2).id, picture(3).id];
    const orders = calls.filter((call) => call.url.endsWith('/pictures/order')).map((call) => call.body);
    expect(orders).toEqual([{ ids: [two, one, three] }, { ids: [two, three, one] }]);
  });

  it('two quick moves are saved one after the other, so the API keeps the last order', async () => {
    slowFirstOrder = true;
    render(<PicturesDialog product={PRODUCT} onClose={() => {}} />);
    await screen.findByText('Picture 1 (card picture) · 1600 × 1200');
    fireEvent.click(screen.getByRole('button', { name: 'Move up picture 3' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move up picture 2' }));
    expect(altsShown()).toEqual(['', 'Under sail', 'Saloon']);
    await waitFor(() => expect(calls.filter((call) => call.url.endsWith('/pictures/order'))).toHaveLength(2));
    await waitFor(() => expect(pictures.map((p) => p.alt)).toEqual(['', 'Under sail', 'Saloon']));
    expect(altsShown()).toEqual(['', 'Under sail', 'Saloon']);
  });

  it('reorders by dragging a picture onto another', async () => {
    render(<PicturesDialog product={PRODUCT} onClose={() => {}} />);
    await screen.findByText('Picture 1 (card picture) · 1600 × 1200');
    const items = within(screen.getByRole('list', { name: /in the order shoppers see them/ })).getAllByRole('listitem');
    const data = new Map<string, string>();
    const dataTransfer = {
      setData: (type: string, value: string) => data.set(type, value),
      getData: (type: string) => data.get(type) ?? '',
      effectAllowed: '',
    };
    fireEvent.dragStart(items[2]!, { dataTransfer });
    fireEvent.drop(items[0]!, { dataTransfer });
    await waitFor(() => expect(altsShown()).toEqual(['', 'Under sail', 'Saloon']));
  });

  it('saves a text alternative and deletes a picture, but never the last one', async () => {
    pictures = [picture(1, 'Under sail'), picture(2)];
    render(<PicturesDialog product={PRODUCT} onClose={() => {}} />);
    await screen.findByText('Picture 1 (card picture) · 1600 × 1200');
    fireEvent.change(screen.getByRole('textbox', { name: 'Text alternative of picture 2' }), { target: { value: ' The cockpit ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save text alternative of picture 2' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Text alternative saved.'));
    expect(calls.at(-1)).toMatchObject({ method: 'PUT', body: { alt: 'The cockpit' } });

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Delete picture 1' }));
    });
    await waitFor(() => expect(altsShown()).toEqual(['The cockpit']));
    expect((screen.getByRole('button', { name: 'Delete picture 1' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('picture helpers', () => {
  it('moves an item within a list', () => {
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 5)).toEqual(['b', 'c', 'a']);
  });

  it('refuses in the browser what the API would refuse by type, size or count', () => {
    expect(refusalOf(new File(['x'], 'a.gif', { type: 'image/gif' }), 0)).toBe('Choose a JPEG, PNG, WebP or AVIF picture');
    expect(refusalOf(new File(['x'], 'a.jpg', { type: 'image/jpeg' }), 60)).toBe('A boat has at most 60 pictures');
    expect(refusalOf(new File(['x'], 'a.jpg', { type: 'image/jpeg' }), 59)).toBeNull();
  });
});
