export const CONTACT = { email: 'sales@boatshop.example', phone: '+49 40 1234 5678' } as const;

export function Footer() {
  return (
    <footer className="shell-footer">
      <div className="bs-container">
        <p>
          Contact us: <a href={`mailto:${CONTACT.email}`}>{CONTACT.email}</a> ·{' '}
          <a href={`tel:${CONTACT.phone.replaceAll(' ', '')}`}>{CONTACT.phone}</a>
        </p>
        <p>© 2024 Boat shop. All rights reserved.</p>
      </div>
    </footer>
  );
}
