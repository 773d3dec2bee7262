/**
 * The pro-forma of a reserved order's balance: a PDF payment request (not an invoice) with the
 * amount still owed, the shop's account, the reference, the due date and an EPC QR code the
 * shopper's banking app scans.
 */
export function ProFormaLink({ orderId }: { orderId: string }) {
  return (
    <p className="account-pro-forma">
      <a href={`/api/invoices/pro-forma/${orderId}`} download={`pro-forma-${orderId.slice(0, 8).toUpperCase()}.pdf`}>
        Download the payment request (PDF with QR code for your banking app)
      </a>
    </p>
  );
}
