import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProFormaLink } from './pro-forma-link';

afterEach(cleanup);

describe('ProFormaLink', () => {
  it("links the order's pro-forma PDF, named after the order", () => {
    render(<ProFormaLink orderId="33333333-0000-4000-8000-000000000003" />);
    const link = screen.getByRole('link', { name: 'Download the payment request (PDF with QR code for your banking app)' });
    expect(link.getAttribute('href')).toBe('/api/invoices/pro-forma/33333333-0000-4000-8000-000000000003');
    expect(link.getAttribute('download')).toBe('pro-forma-33333333.pdf');
  });
});
